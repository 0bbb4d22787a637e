/**
 * Step 2 of a move: write the employee into the target department's partition — the employee
 * entity, its email copy, the department's count and the same-partition last-name index — in ONE
 * entity group transaction there, the directory's own insert (insertEmployee.ts), after copying
 * the photo blob to the target department's name (movedPhoto.ts); then the source's reviews
 * (movedReviews.ts). The copy keeps the source's incarnation; another incarnation is never copied.
 *
 * Idempotent and refreshing: a repeated try that finds the move's own copy (its marker) rewrites
 * only the parts the move still owns (fields and photo: refreshCopy.ts; each review), each write
 * conditional on the version read. A part the target changed is never rewritten; if the source
 * changed it too, the copy refuses with `MoveConflict`. Otherwise it reports the source version
 * the target now carries in full, which the removal deletes. "Changed" is decided on what rows
 * hold (fields' digest, photo blob names), never on ETags, which relocations rewrite.
 * Why: docs/orchestrations.md "Move".
 */
import type { PhotoBlobs } from '../../photos/dependencies';
import { employeeNotFound, type DirectoryContext } from '../../directory';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../photos/photoLocator';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import {
  isCopyOfThisMove,
  isMovedIncarnation,
  MOVE_MARKER_PROPERTY,
  MOVED_FROM_DATA_PROPERTY,
  MOVED_FROM_PHOTO_PROPERTY,
  MOVED_PHOTO_PROPERTY,
  movedDataDigest,
  moveWriteId,
  type CopiedVersion,
  type CopyInput,
  type MoveInput,
} from './moveRequest';
import { photoBlobOf, photoTypeOf, targetData } from './movedPhoto';

export type { CopyInput } from './moveRequest';
import { copyReviews, sourceReviews } from './movedReviews';
import { refreshCopy } from './refreshCopy';
import type { StoredProperties } from '../../storage/tables/entities';
import { insertEmployee } from '../../directory/moveWrites';
import { readEmployeeState, type EmployeeState } from '../../directory/entities';

/** A review the copy wrote, with the source version it copied. */
export interface CopiedReview {
  rowKey: string;
  /** ETag of the source review that was copied. */
  etag: string;
}

/** What the copy did. */
export interface CopyResult {
  /** False when an earlier try of this move (or the whole move) had already done it. */
  copied: boolean;
  /** Yearly reviews written to the target. */
  reviews: number;
  /**
   * ETag of the source employee whose every part the target now carries (as copied, or as the
   * target's own newer edit of a part the source left unchanged): the removal deletes the source
   * only if it is still this version. Absent when the source was already gone (an earlier run
   * removed it).
   */
  sourceEtag?: string;
  /**
   * The source reviews copied, at the versions copied (reported; the removal relies on
   * `sourceEtag`, which every review write changes).
   */
  copiedReviews: CopiedReview[];
  /**
   * The data ETag of the target copy as this move wrote it (the next round refreshes only that
   * version); absent when the target was edited meanwhile, or was already complete.
   */
  targetEtag?: string;
}

/**
 * Copies the employee of a move into the target partition (see the module comment).
 *
 * @param photos - the photos container (the photo blob is copied to the target's name).
 * @throws {NotFoundError} `EmployeeNotFound` (in neither department), `DepartmentNotFound`
 *   (target).
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target, `LastNameIndexFull`;
 *   `MoveConflict` when source and target copy both changed the same part since the copy.
 * @throws {ThrottledError} when the target department kept changing, or storage is busy.
 * @throws {DomainError} when the change it publishes cannot be recorded (the activity retries).
 */
export async function copyEmployeeToTarget(
  context: DirectoryContext,
  photos: PhotoBlobs,
  move: CopyInput,
): Promise<CopyResult> {
  const table = await context.table();
  const [source, target] = await Promise.all([
    readEmployeeState(table, departmentPartitionKey(move.department), move.employeeId),
    readEmployeeState(table, departmentPartitionKey(move.toDepartment), move.employeeId),
  ]);
  if (!source || !isMovedIncarnation(source, move)) {
    // Already removed from the source (an employee there now is another incarnation, created again
    // with the id, which this move must not copy): fine only if the target holds this move's copy
    // (a finished earlier try).
    if (target && (!source || isCopyOfThisMove(target, move.moveId))) {
      return { copied: false, reviews: 0, copiedReviews: [] };
    }
    throw employeeNotFound(move.department, move.employeeId);
  }
  // The reviews are read after the source employee: a review written later changes the source's
  // ETag, so the removal (conditional on the ETag read here) sends the move round again.
  const reviews = await sourceReviews(table, source);
  const marker = moveWriteId(move.moveId);
  const { copied, targetEtag } =
    target && isCopyOfThisMove(target, move.moveId)
      ? await refreshCopy(context, photos, table, { source, target, move, marker })
      : await insertCopy(context, photos, source, move, marker);
  // Every try publishes the change the insert recorded in the target's outbox (an insert publishes
  // none; a try may have crashed in between): none waits for the outbox sweep.
  await context.changes.publish([
    { department: move.toDepartment, employeeId: move.employeeId, reason: 'moved' },
  ]);
  await copyReviews(table, move, reviews, marker);
  return {
    copied,
    reviews: reviews.length,
    sourceEtag: source.etag,
    copiedReviews: reviews.map((review) => ({ rowKey: review.rowKey, etag: review.etag })),
    ...(targetEtag === undefined ? {} : { targetEtag }),
  };
}

/**
 * The first copy: the directory's own insert into the target partition, after copying the photo
 * blob to the target department's name, marked as this move's and recording the source version.
 */
async function insertCopy(
  context: DirectoryContext,
  photos: PhotoBlobs,
  source: EmployeeState,
  move: MoveInput,
  marker: string,
): Promise<CopiedVersion> {
  const { data, photoBlob } = await targetData(photos, source, move);
  const preserved: StoredProperties = {
    ...source.meta.preserved,
    [MOVE_MARKER_PROPERTY]: marker,
    ...copiedFrom(source, photoBlob),
  };
  if (photoBlob !== '' || PHOTO_BLOB_PROPERTY in preserved) {
    // The copy keeps the content type the photo feature checked (server-side copies carry the
    // blob's bytes and headers unchanged).
    preserved[PHOTO_BLOB_PROPERTY] = photoBlob;
    preserved[PHOTO_TYPE_PROPERTY] = photoBlob === '' ? '' : photoTypeOf(source);
  }
  const inserted = await insertEmployee(context, move.toDepartment, data, {
    writeId: marker,
    // The moved employee is the same incarnation: requests made for it still find it.
    incarnation: source.meta.incarnation,
    preserved,
  });
  return { copied: inserted.inserted, targetEtag: inserted.etag };
}

/** What a write of the target records of the source version it carries (moveRequest.ts). */
function copiedFrom(source: EmployeeState, targetPhoto: string): StoredProperties {
  return {
    [MOVED_FROM_DATA_PROPERTY]: movedDataDigest(source.data),
    [MOVED_FROM_PHOTO_PROPERTY]: photoBlobOf(source),
    [MOVED_PHOTO_PROPERTY]: targetPhoto,
  };
}
