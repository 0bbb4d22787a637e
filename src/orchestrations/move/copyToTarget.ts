/**
 * Step 2 of a move: write the employee into the target department's partition — the employee
 * entity, its email copy, the department's count and the same-partition last-name index — in ONE
 * entity group transaction there, the directory's own insert (insertEmployee.ts). The photo blob
 * is copied to the target department's name first, so the target entity never names a blob that
 * is missing or that the source's photo sweep will delete. Then its yearly reviews follow: exactly
 * those the source employee lists, upserted (repeatable) in transactions of up to 99 that also add
 * their years to the target employee's list, conditional on its ETag, as any review write is
 * (directory/reviews.ts `writeReviewEntities`).
 *
 * The copy keeps the source's incarnation, and a source of another incarnation than the one the
 * move validated (the employee created again with the id after the move removed it) is never
 * copied.
 *
 * Idempotent and refreshing: the copy carries the move's marker, so a repeated try that finds the
 * employee already there from this move replaces it with the source's CURRENT data (the
 * directory's update: one transaction in the target partition) — the orchestrator copies again
 * when the source changed after the first copy. Any other employee with the id (or another
 * employee with the email) is a permanent refusal, and nothing is written.
 *
 * The target copy is visible (and writable) from its insert on, so a refresh rewrites only what
 * the move still owns, each write conditional on the version it read (a lost race retries the
 * activity, which decides again):
 * - the employee's data only while it is the version the move last wrote: the data ETag the
 *   previous round reported (`ownedEtag`), or, on a retry of the first round (which reported
 *   nothing), the insert's own write id. Otherwise the target was edited (a PATCH answered 200):
 *   the target wins, its data is not refreshed again.
 * - a review only while it is absent from the target or still the move's copy (it carries the
 *   move's marker, which a review PUT replaces): a review written on the target wins.
 */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { employeeNotFound, type DirectoryContext, type EmployeeData } from '../../directory';
import { PreconditionFailedError } from '../../errors';
import { targetChanged } from './moveErrors';
import { copyPhotoToDepartment } from '../../photos/photos';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../photos/photoLocator';
import { isPreconditionFailed, toDomainError } from '../../storage/errors';
import {
  departmentPartitionKey,
  employeeRowKey,
  parseReviewRowKey,
  reviewRowKeyRange,
} from '../../storage/keys';
import {
  isCopyOfThisMove,
  isMovedIncarnation,
  MOVE_MARKER_PROPERTY,
  moveWriteId,
  type MoveInput,
} from './moveRequest';
import { readWholeRange } from '../../storage/rangePages';
import type { StoredEntity, StoredProperties } from '../../storage/entities';
import {
  insertEmployee,
  reviewYearsOf,
  updateEmployee,
  writeReviewEntities,
} from '../../directory/moveOperations';
import {
  DATA_ETAG_PROPERTY,
  readEmployeeState,
  type EmployeeState,
} from '../../directory/storedEntities';

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
   * absent in the first round, and once the target was edited by someone else.
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
   * ETag of the source employee the copy was made from: the removal deletes the source only if it
   * is still this version. Absent when the source was already gone (an earlier run removed it).
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
 * @throws {NotFoundError} `EmployeeNotFound` (in neither department), `DepartmentNotFound` (target).
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target, `LastNameIndexFull`.
 * @throws {ThrottledError} when the target department kept changing, or storage is busy.
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
  let copied = false;
  let targetEtag: string | undefined;
  if (!target || !isCopyOfThisMove(target, move.moveId)) {
    const { data, photoBlob } = await targetData(photos, source, move);
    // The copy keeps the content type the photo feature checked (server-side copies carry the
    // blob's bytes and headers unchanged).
    const photoType = photoBlob === '' ? '' : (source.entity[PHOTO_TYPE_PROPERTY] ?? '');
    const preserved: StoredProperties = {
      ...source.meta.preserved,
      [MOVE_MARKER_PROPERTY]: marker,
    };
    if (photoBlob !== '' || PHOTO_BLOB_PROPERTY in preserved) {
      preserved[PHOTO_BLOB_PROPERTY] = photoBlob;
      preserved[PHOTO_TYPE_PROPERTY] = photoType;
    }
    const inserted = await insertEmployee(context, move.toDepartment, data, {
      writeId: marker,
      // The moved employee is the same incarnation: requests made for it still find it.
      incarnation: source.meta.incarnation,
      preserved,
    });
    copied = inserted.inserted;
    targetEtag = inserted.etag;
  } else if (ownsTargetData(target, move, marker)) {
    const { data, photoBlob } = await targetData(photos, source, move);
    const photoType = photoBlob === '' ? '' : (source.entity[PHOTO_TYPE_PROPERTY] ?? '');
    ({ copied, targetEtag } = await refreshTarget(
      context,
      table,
      target,
      data,
      { photoBlob, photoType },
      move,
    ));
  }
  await copyReviews(table, move, reviews, marker);
  return {
    copied,
    reviews: reviews.length,
    sourceEtag: source.etag,
    copiedReviews: reviews.map((review) => ({ rowKey: review.rowKey, etag: review.etag })),
    ...(targetEtag === undefined ? {} : { targetEtag }),
  };
}

/** The data ETag of a stored employee: its ETag before review writes that changed only the list. */
function dataEtagOf(employee: EmployeeState): string {
  return employee.meta.dataEtag ?? employee.etag;
}

/**
 * True while the target copy's data is still what this move last wrote: the version the previous
 * round reported, or (first round, retried) the insert's own write, which any PATCH replaces.
 */
function ownsTargetData(target: EmployeeState, move: CopyInput, marker: string): boolean {
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
 * Makes this move's earlier copy in the target match the source's current data: the photo name
 * first (a conditional merge), then the data with the directory's update — employee, email copy
 * and last-name index entities in one transaction, conditional on the version just merged.
 *
 * @returns whether anything was rewritten, and the data ETag the copy has now.
 * @throws {ConflictError} `EmailTaken` when the source's new email is taken in the target.
 * @throws {ThrottledError} when the target copy changed meanwhile (the activity is retried, and
 *   decides again whether the move still owns it).
 */
async function refreshTarget(
  context: DirectoryContext,
  table: TableClient,
  target: EmployeeState,
  data: EmployeeData,
  photo: { photoBlob: string; photoType: unknown },
  move: MoveInput,
): Promise<{ copied: boolean; targetEtag: string }> {
  const { photoBlob, photoType } = photo;
  const current = target.data;
  const same =
    current.firstName === data.firstName &&
    current.lastName === data.lastName &&
    current.email === data.email &&
    current.age === data.age &&
    current.photoUrl === data.photoUrl &&
    (target.entity[PHOTO_BLOB_PROPERTY] ?? '') === photoBlob &&
    (target.entity[PHOTO_TYPE_PROPERTY] ?? '') === photoType;
  if (same) return { copied: false, targetEtag: dataEtagOf(target) };
  let etag: string | undefined;
  try {
    ({ etag } = await table.updateEntity(
      {
        partitionKey: target.entity.partitionKey,
        rowKey: employeeRowKey(move.employeeId),
        [PHOTO_BLOB_PROPERTY]: photoBlob,
        [PHOTO_TYPE_PROPERTY]: photoType,
        // Only the blob's name changed, not the data a client saw: a retry that finds this merge
        // (the update below not yet done) still recognises the version the move owns.
        [DATA_ETAG_PROPERTY]: dataEtagOf(target),
      },
      'Merge',
      { etag: target.etag },
    ));
  } catch (error) {
    if (isPreconditionFailed(error)) throw targetChanged(move);
    throw toDomainError(error);
  }
  const updated = await updateEmployee(
    context,
    move.toDepartment,
    move.employeeId,
    {
      firstName: data.firstName,
      lastName: data.lastName,
      email: data.email,
      age: data.age ?? null,
      photoUrl: data.photoUrl ?? null,
    },
    { ifMatch: etag },
  ).catch((error: unknown) => {
    if (error instanceof PreconditionFailedError) throw targetChanged(move);
    throw error;
  });
  return { copied: true, targetEtag: updated.etag };
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
