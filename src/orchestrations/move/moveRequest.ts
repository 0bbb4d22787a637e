/**
 * What a move is about, and the write id that marks the copies one move writes.
 */

/** Move employee `employeeId` from `department` to `toDepartment`. */
export interface MoveRequest {
  department: string;
  employeeId: string;
  toDepartment: string;
}

/** A move request bound to one orchestration instance. */
export interface MoveInput extends MoveRequest {
  /** The orchestration instance id: every try of every activity of one move shares it. */
  moveId: string;
}

/**
 * The `WriteId` the target copy of the employee carries, so that a repeated copy recognises its
 * own earlier commit (same move) and refuses someone else's employee with the same id.
 */
export function moveWriteId(moveId: string): string {
  return `move:${moveId}`;
}

/** What the employee looked like in the source, for re-pointing indexes it may have left. */
export interface MovedEmployee {
  email: string;
  lastName: string;
}
