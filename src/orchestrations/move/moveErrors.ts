/**
 * The move orchestration's refusals and give-ups, phrased once.
 */
import { ConflictError, ThrottledError, ValidationError } from '../../domainErrors';
import type { MoveInput } from './moveRequest';

/** 400: the employee is already in the target department. */
export function sameDepartment(move: MoveInput): ValidationError {
  return new ValidationError(
    `Employee ${move.employeeId} is already in department "${move.department}".`,
    'body.toDepartment',
    'SameDepartment',
  );
}

/** 503 (retry after 1 s): the target copy changed while it was refreshed. */
export function targetChanged(move: MoveInput): ThrottledError {
  return new ThrottledError(
    `The copy of employee ${move.employeeId} in "${move.toDepartment}" changed while it was refreshed.`,
    1,
  );
}

/** A part of the employee that a move can carry to the target (its fields, or its photo). */
export type MovedPart = 'data' | 'photo';

/**
 * 409: the source changed after the copy, and the target copy was changed there too (a PATCH, a
 * photo answered 200): neither edit may be lost, so the move stops with both kept.
 */
export function moveConflict(move: MoveInput, parts: readonly MovedPart[]): ConflictError {
  const what = parts.map((part) => (part === 'data' ? 'its data' : 'its photo')).join(' and ');
  return new ConflictError(
    'MoveConflict',
    `Employee ${move.employeeId} was edited in "${move.department}" and in "${move.toDepartment}" ` +
      `(${what}) while it moved: the move stopped with both versions kept; delete the one that ` +
      `is not wanted.`,
  );
}

/**
 * The move gave up: the source changed during each copy round. The status reads the code from the
 * message (`SourceKeptChanging: …`), so it stays a plain Error whose text starts with it.
 */
export function sourceKeptChanging(move: MoveInput, rounds: number): Error {
  return new Error(
    `SourceKeptChanging: Employee ${move.employeeId} in "${move.department}" changed during each of ${rounds} copies; it is still in the source.`,
  );
}
