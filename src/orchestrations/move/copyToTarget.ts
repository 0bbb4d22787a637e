/**
 * Step 2 of a move: write the employee into the target department's partition — the employee
 * entity, its email copy, the department's count and the same-partition last-name index — in ONE
 * entity group transaction there, the directory's own insert (insertEmployee.ts), after copying
 * the photo blob to the target department's name; then the reviews the source employee lists,
 * upserted in transactions of up to 99, each conditional on the target employee's ETag. The copy
 * keeps the source's incarnation, and a source of another incarnation is never copied.
 *
 * Idempotent and refreshing: a repeated try that finds the move's own copy (its marker) rewrites
 * only the parts the move still owns (fields, photo, each review), each write conditional on the
 * version read. A part the target changed is never rewritten; if the source changed it too, the
 * copy refuses with `MoveConflict`. Otherwise it reports the source version the target now carries
 * in full, which the removal deletes. "Changed" is decided on what rows hold (fields' digest, photo
 * blob names), never on ETags, which relocations rewrite. Why: docs/orchestrations.md "Move".
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { employeeNotFound, type DirectoryContext, type EmployeeData } from '../../directory';
import { PreconditionFailedError } from '../../domainErrors';
import { moveConflict, targetChanged, type MovedPart } from './moveErrors';
import { copyPhotoToDepartment } from '../../photos/photos';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../photos/photoLocator';
import { isPreconditionFailed, toDomainError } from '../../storage/storageFaults';
import {
  departmentPartitionKey,
  employeeRowKey,
  parseReviewRowKey,
  reviewRowKeyRange,
} from '../../storage/keys/tables/employees';
import {
  isCopyOfThisMove,
  isMovedIncarnation,
  LEGACY_MOVED_FROM_DATA_ETAG_PROPERTY,
  MOVE_MARKER_PROPERTY,
  MOVED_FROM_DATA_PROPERTY,
  MOVED_FROM_PHOTO_PROPERTY,
  MOVED_PHOTO_PROPERTY,
  movedDataDigest,
  moveWriteId,
  recordedDataDigest,
  type MoveInput,
} from './moveRequest';
import { readWholeRange } from '../../storage/tables/rangePages';
import type { StoredEntity, StoredProperties } from '../../storage/tables/entities';
import {
  insertEmployee,
  reviewYearsOf,
  updateEmployee,
  writeReviewEntities,
  type EmployeeChanges,
} from '../../directory/moveWrites';
import {
  DATA_ETAG_PROPERTY,
  readEmployeeState,
  type EmployeeState,
} from '../../directory/entities';

/** A review the copy wrote, with the source version it copied. */
export interface CopiedReview {
  rowKey: string;
  /** ETag of the source review that was copied. */
  etag: string;
}

/** The copy step's input: the move, and what the move's previous copy round wrote. */
export interface CopyInput extends MoveInput {
  /**
   * The data ETag of the target copy as the previous round left it ({@link CopyResult.targetEtag});
   * absent in the first round, and once the target was edited by someone else. Read only for a
   * copy written before copies carried the digest of their fields (`MovedFromData`).
   */
  ownedEtag?: string;
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
  photos: ContainerClient,
  move: CopyInput,
): Promise<CopyResult> {
  const table = await context.table();
  const sourcePk = departmentPartitionKey(move.department);
  const targetPk = departmentPartitionKey(move.toDepartment);
  const [source, target] = await Promise.all([
    readEmployeeState(table, sourcePk, move.employeeId),
    readEmployeeState(table, targetPk, move.employeeId),
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
  const sourcePhoto = photoBlobOf(source);
  let copied: boolean;
  let targetEtag: string | undefined;
  if (!target || !isCopyOfThisMove(target, move.moveId)) {
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
    copied = inserted.inserted;
    targetEtag = inserted.etag;
  } else {
    // Per part (fields, photo): the source's version is already in the target, or the target
    // still holds what the move wrote there (refreshed now), or both sides changed — then the
    // source version cannot be carried without losing the target's edit: nothing is removed.
    const dataOwned = ownsTargetData(target, move, marker);
    // (A copy written before the move recorded its photo: the photo goes with the data, as then.)
    const movedPhoto = target.entity[MOVED_PHOTO_PROPERTY];
    const photoOwned = movedPhoto === undefined ? dataOwned : movedPhoto === photoBlobOf(target);
    const dataCarried = carriesSourceData(target, source);
    const photoCarried = target.entity[MOVED_FROM_PHOTO_PROPERTY] === sourcePhoto;
    const conflicts: MovedPart[] = [];
    if (!dataOwned && !dataCarried) conflicts.push('data');
    if (!photoOwned && !photoCarried) conflicts.push('photo');
    if (conflicts.length > 0) throw moveConflict(move, conflicts);
    const refreshed = await refreshTarget(context, photos, table, source, target, move, {
      data: dataOwned && !dataCarried,
      photo: photoOwned && !photoCarried,
    });
    copied = refreshed.copied;
    if (dataOwned) targetEtag = refreshed.dataEtag;
  }
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

/** The photo blob a stored employee names (`''` for none). */
function photoBlobOf(employee: EmployeeState): string {
  const blob = employee.entity[PHOTO_BLOB_PROPERTY];
  return typeof blob === 'string' ? blob : '';
}

/** The photo's checked content type on a stored employee. */
function photoTypeOf(employee: EmployeeState): string {
  const type = employee.entity[PHOTO_TYPE_PROPERTY];
  return typeof type === 'string' ? type : '';
}

/** What a write of the target records of the source version it carries (moveRequest.ts). */
function copiedFrom(source: EmployeeState, targetPhoto: string): StoredProperties {
  return {
    [MOVED_FROM_DATA_PROPERTY]: movedDataDigest(source.data),
    [MOVED_FROM_PHOTO_PROPERTY]: photoBlobOf(source),
    [MOVED_PHOTO_PROPERTY]: targetPhoto,
  };
}

/** True when the target copy carries the source's current fields (the source's were not edited). */
function carriesSourceData(target: EmployeeState, source: EmployeeState): boolean {
  const digest = recordedDataDigest(target.entity);
  if (digest !== undefined) return digest === movedDataDigest(source.data);
  return target.entity[LEGACY_MOVED_FROM_DATA_ETAG_PROPERTY] === dataEtagOf(source);
}

/** The data ETag of a stored employee: its ETag before review writes that changed only the list. */
function dataEtagOf(employee: EmployeeState): string {
  return employee.meta.dataEtag ?? employee.etag;
}

/**
 * True while the target copy's fields are still what this move last wrote: the digest it recorded
 * with them (an edit of the fields there changes them, not the digest). A copy written before
 * copies recorded it: the version the previous round reported, or (first round, retried) the
 * insert's own write, which any PATCH replaces.
 */
function ownsTargetData(target: EmployeeState, move: CopyInput, marker: string): boolean {
  const digest = recordedDataDigest(target.entity);
  if (digest !== undefined) return digest === movedDataDigest(target.data);
  if (move.ownedEtag === undefined) return target.meta.writeId === marker;
  return target.etag === move.ownedEtag || target.meta.dataEtag === move.ownedEtag;
}

/**
 * Writes the source's reviews into the target, each only where the move still owns it: absent
 * there (written only if still absent) or the move's own copy (replaced only if still that
 * version, and only when it differs). A review written on the target is left as it is.
 *
 * @throws {ThrottledError} when a review or the employee changed meanwhile (the activity retries).
 * @throws {NotFoundError} `EmployeeNotFound` when the target copy was deleted meanwhile.
 */
async function copyReviews(
  table: TableClient,
  move: MoveInput,
  reviews: readonly StoredEntity[],
  marker: string,
): Promise<void> {
  if (reviews.length === 0) return;
  const existing = new Map(
    (
      await readWholeRange(table, {
        partitionKey: departmentPartitionKey(move.toDepartment),
        ...reviewRowKeyRange(move.employeeId),
      })
    ).map((review) => [review.rowKey, review]),
  );
  const conditions = new Map<string, string | null>();
  const writes: StoredProperties[] = [];
  for (const review of reviews) {
    const copy: StoredProperties = { ...review, [MOVE_MARKER_PROPERTY]: marker };
    const stored = existing.get(review.rowKey);
    if (stored && (stored[MOVE_MARKER_PROPERTY] !== marker || sameData(stored, copy))) continue;
    conditions.set(review.rowKey, stored ? stored.etag : null);
    writes.push(copy);
  }
  await writeReviewEntities(table, move.toDepartment, move.employeeId, writes, conditions);
}

/** True when two stored entities hold the same properties (keys, ETags and timestamps aside). */
function sameData(a: StoredProperties, b: StoredProperties): boolean {
  const data = (entity: StoredProperties): [string, unknown][] =>
    Object.entries(entity)
      .filter(([name]) => !['partitionKey', 'rowKey', 'etag', 'timestamp'].includes(name))
      .filter(([name]) => !name.startsWith('odata.'))
      .sort(([x], [y]) => x.localeCompare(y));
  return JSON.stringify(data(a)) === JSON.stringify(data(b));
}

/** The employee data for the target, with its photo copied to the target department's name. */
async function targetData(
  photos: ContainerClient,
  source: EmployeeState,
  move: MoveInput,
): Promise<{ data: EmployeeData; photoBlob: string }> {
  const data: EmployeeData = { ...source.data };
  const blobName = source.entity[PHOTO_BLOB_PROPERTY];
  if (typeof blobName !== 'string' || blobName === '') return { data, photoBlob: '' };
  const copy = await copyPhotoToDepartment(photos, blobName, move.employeeId, move.toDepartment);
  if (!copy) return { data, photoBlob: blobName };
  data.photoUrl = copy.photoUrl;
  return { data, photoBlob: copy.blobName };
}

/**
 * Makes this move's earlier copy in the target carry the source's current version of the parts
 * the move still owns there (`parts`): a conditional Merge that changes nothing the directory
 * reads (`DataETag` kept) pins the version decided on; then the directory's update of the fields
 * and/or photo URL with what the copy now carries (fields' digest, photo name and type, blobs) —
 * employee, email copy and last-name index entities in ONE transaction, conditional on the merged
 * version, so the record never runs ahead of the fields. A part the target changed is left alone.
 *
 * @returns whether any field or the photo was rewritten, and the target's data version now.
 * @throws {ConflictError} `EmailTaken` when the source's new email is taken in the target.
 * @throws {ThrottledError} when the target copy changed meanwhile (the activity is retried, and
 *   decides again what the move still owns).
 */
async function refreshTarget(
  context: DirectoryContext,
  photos: ContainerClient,
  table: TableClient,
  source: EmployeeState,
  target: EmployeeState,
  move: MoveInput,
  parts: { data: boolean; photo: boolean },
): Promise<{ copied: boolean; dataEtag: string }> {
  if (!parts.data && !parts.photo) return { copied: false, dataEtag: dataEtagOf(target) };
  const current = target.data;
  const changes: EmployeeChanges = {};
  const carried: Record<string, string> = {};
  if (parts.data) {
    const { firstName, lastName, email } = source.data;
    const age = source.data.age ?? null;
    if (firstName !== current.firstName) changes.firstName = firstName;
    if (lastName !== current.lastName) changes.lastName = lastName;
    if (email !== current.email) changes.email = email;
    if (age !== (current.age ?? null)) changes.age = age;
    carried[MOVED_FROM_DATA_PROPERTY] = movedDataDigest(source.data);
  }
  if (parts.photo) {
    const { data, photoBlob } = await targetData(photos, source, move);
    carried[PHOTO_BLOB_PROPERTY] = photoBlob;
    carried[PHOTO_TYPE_PROPERTY] = photoBlob === '' ? '' : photoTypeOf(source);
    carried[MOVED_FROM_PHOTO_PROPERTY] = photoBlobOf(source);
    carried[MOVED_PHOTO_PROPERTY] = photoBlob;
    if ((data.photoUrl ?? null) !== (current.photoUrl ?? null)) {
      changes.photoUrl = data.photoUrl ?? null;
    }
  }
  // The update's If-Match alone would also accept a version that changed only bookkeeping since
  // (a photo named on the target meanwhile): this Merge pins the exact version read.
  const merge: StoredProperties = {
    partitionKey: target.entity.partitionKey,
    rowKey: employeeRowKey(move.employeeId),
    [DATA_ETAG_PROPERTY]: dataEtagOf(target),
  };
  let etag: string | undefined;
  try {
    ({ etag } = await table.updateEntity(merge as TableEntity<StoredProperties>, 'Merge', {
      etag: target.etag,
    }));
  } catch (error) {
    if (isPreconditionFailed(error)) throw targetChanged(move);
    throw toDomainError(error);
  }
  const updated = await updateEmployee(
    context,
    move.toDepartment,
    move.employeeId,
    { ...changes, photoProperties: carried },
    { ifMatch: etag },
  ).catch((error: unknown) => {
    if (error instanceof PreconditionFailedError) throw targetChanged(move);
    throw error;
  });
  // A photo alone (or only what the copy carries) keeps the data version (updateEmployee.ts).
  const fieldsWritten = Object.keys(changes).some((field) => field !== 'photoUrl');
  return {
    copied: Object.keys(changes).length > 0,
    dataEtag: fieldsWritten ? updated.etag : dataEtagOf(target),
  };
}

/**
 * The reviews the source employee lists (all of its review range for an employee written before
 * employees carried the list), with their ETags.
 *
 * @throws {DomainError} for storage faults.
 */
async function sourceReviews(table: TableClient, source: EmployeeState): Promise<StoredEntity[]> {
  const years = new Set(await reviewYearsOf(table, source));
  if (years.size === 0) return [];
  const stored = await readWholeRange(table, {
    partitionKey: source.entity.partitionKey,
    ...reviewRowKeyRange(source.data.employeeId),
  });
  return stored.filter((review) => {
    const key = parseReviewRowKey(review.rowKey);
    return key !== undefined && years.has(key.year);
  });
}
