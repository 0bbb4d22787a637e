/**
 * A later try of a move's copy, which finds the move's own earlier copy in the target: per part
 * (fields, photo) the source's version is already there, or the target still holds what the move
 * wrote (refreshed now), or both sides changed, and the copy refuses with `MoveConflict` rather
 * than lose the target's edit. "Changed" is decided on what rows hold (fields' digest, photo blob
 * names), never on ETags, which relocations rewrite. Why: docs/orchestrations.md "Move".
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import type { PhotoBlobs } from '../../photos/dependencies';
import type { DirectoryContext } from '../../directory';
import { PreconditionFailedError } from '../../domainErrors';
import { moveConflict, targetChanged, type MovedPart } from './moveErrors';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../photos/photoLocator';
import { isPreconditionFailed, toDomainError } from '../../storage/storageFaults';
import { employeeRowKey } from '../../storage/keys/tables/employees';
import {
  LEGACY_MOVED_FROM_DATA_ETAG_PROPERTY,
  MOVED_FROM_DATA_PROPERTY,
  MOVED_FROM_PHOTO_PROPERTY,
  MOVED_PHOTO_PROPERTY,
  movedDataDigest,
  recordedDataDigest,
  type MoveInput,
} from './moveRequest';
import type { StoredProperties } from '../../storage/tables/entities';
import { updateEmployee, type EmployeeChanges } from '../../directory/moveWrites';
import { DATA_ETAG_PROPERTY, type EmployeeState } from '../../directory/entities';
import type { CopiedVersion, CopyInput } from './moveRequest';
import { photoBlobOf, photoTypeOf, targetData } from './movedPhoto';

/** The copy being refreshed: source and target as read, the move, and the move's write id. */
export interface EarlierCopy {
  source: EmployeeState;
  target: EmployeeState;
  move: CopyInput;
  marker: string;
}

/**
 * Decides per part what the move still owns in its earlier copy and refreshes those parts.
 *
 * @returns whether anything was rewritten, and the target's data version when the move owns it.
 * @throws {ConflictError} `MoveConflict` when source and target both changed a part;
 *   `EmailTaken` when the source's new email is taken in the target.
 * @throws {ThrottledError} when the target copy changed meanwhile (the activity retries).
 */
export async function refreshCopy(
  context: DirectoryContext,
  photos: PhotoBlobs,
  table: TableAccess,
  copy: EarlierCopy,
): Promise<CopiedVersion> {
  const { source, target, move, marker } = copy;
  const dataOwned = ownsTargetData(target, move, marker);
  // (A copy written before the move recorded its photo: the photo goes with the data, as then.)
  const movedPhoto = target.entity[MOVED_PHOTO_PROPERTY];
  const photoOwned = movedPhoto === undefined ? dataOwned : movedPhoto === photoBlobOf(target);
  const dataCarried = carriesSourceData(target, source);
  const photoCarried = target.entity[MOVED_FROM_PHOTO_PROPERTY] === photoBlobOf(source);
  const conflicts: MovedPart[] = [];
  if (!dataOwned && !dataCarried) conflicts.push('data');
  if (!photoOwned && !photoCarried) conflicts.push('photo');
  if (conflicts.length > 0) throw moveConflict(move, conflicts);
  const refreshed = await refreshTarget(context, photos, table, source, target, move, {
    data: dataOwned && !dataCarried,
    photo: photoOwned && !photoCarried,
  });
  return { copied: refreshed.copied, targetEtag: dataOwned ? refreshed.dataEtag : undefined };
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
  photos: PhotoBlobs,
  table: TableAccess,
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
