/**
 * What a move is about, and the write id that marks the copies one move writes.
 */
import { createHash } from 'node:crypto';
import type { EmployeeData } from '../../directory';
import { incarnationOf } from '../../directory/entities';

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
  /**
   * The incarnation of the employee the validation found (docs/queues.md "Incarnations"); the copy
   * and the removal touch no other. Absent before the validation (and in moves validated before
   * incarnations existed): then any incarnation found is moved, as before incarnations.
   */
  incarnation?: string;
}

/** True when a stored source employee is the incarnation the move is moving. */
export function isMovedIncarnation(
  source: { entity: Record<string, unknown> },
  move: MoveInput,
): boolean {
  return move.incarnation === undefined || incarnationOf(source.entity) === move.incarnation;
}

/** Copy-and-remove rounds before a move whose source keeps changing gives up (source intact). */
export const MAX_COPY_ROUNDS = 5;

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

/**
 * Property on the target copy naming the move that wrote it (`move:<instanceId>`). `WriteId` says
 * the same until the copy is refreshed with the directory's update, which gives it a new write id;
 * this property survives (the directory carries properties it does not own as they are).
 */
export const MOVE_MARKER_PROPERTY = 'MovedBy';

/** True when a stored target employee is the copy this very move wrote. */
export function isCopyOfThisMove(
  target: { entity: Record<string, unknown>; meta: { writeId?: string } },
  moveId: string,
): boolean {
  const marker = moveWriteId(moveId);
  return target.meta.writeId === marker || target.entity[MOVE_MARKER_PROPERTY] === marker;
}

/**
 * Properties on the target copy that say what the move copied into it, so that a later round can
 * tell, per part, whether the source changed since and whether the target is still the move's:
 * the digest of the fields the copy holds ({@link movedDataDigest} of the source's fields copied,
 * which are the fields the move wrote on the target), the source's photo blob whose photo it holds
 * (`''` for none), and the photo blob the move named on the target. None is an ETag: a relocation
 * of either department rewrites every row in another account (new ETags) and edits nothing, and
 * must not make the move take a side for edited. The directory carries them through edits of the
 * target as it carries `MovedBy`.
 */
export const MOVED_FROM_DATA_PROPERTY = 'MovedFromData';
/** See {@link MOVED_FROM_DATA_PROPERTY}. */
export const MOVED_FROM_PHOTO_PROPERTY = 'MovedFromPhoto';
/** See {@link MOVED_FROM_DATA_PROPERTY}. */
export const MOVED_PHOTO_PROPERTY = 'MovedPhoto';
/**
 * What copies written before {@link MOVED_FROM_DATA_PROPERTY} recorded instead: the source's data
 * ETag. Read only for such a copy (a move in flight across the upgrade).
 */
export const LEGACY_MOVED_FROM_DATA_ETAG_PROPERTY = 'MovedFromDataETag';

/**
 * The digest of the employee fields a move carries as its data part (first and last name, email,
 * age: what a PATCH writes; the photo is a part of its own): equal digests, equal fields, in
 * whichever account and under whichever ETag the row is stored.
 */
export function movedDataDigest(data: EmployeeData): string {
  const fields = [data.firstName, data.lastName, data.email, data.age ?? null];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

/** The digest a stored target copy records ({@link MOVED_FROM_DATA_PROPERTY}), if any. */
export function recordedDataDigest(entity: Record<string, unknown>): string | undefined {
  const digest = entity[MOVED_FROM_DATA_PROPERTY];
  return typeof digest === 'string' && digest !== '' ? digest : undefined;
}

/** The copy step's input: the move, and what the move's previous copy round wrote. */
export interface CopyInput extends MoveInput {
  /**
   * The data ETag of the target copy as the previous round left it (`CopyResult.targetEtag` of
   * copyToTarget.ts); absent in the first round, and once the target was edited by someone else.
   * Read only for a copy written before copies carried the digest of their fields
   * (`MovedFromData`).
   */
  ownedEtag?: string;
}

/** What one copy round left in the target: whether it wrote, and the data version it wrote. */
export interface CopiedVersion {
  copied: boolean;
  targetEtag: string | undefined;
}
