/**
 * Removing the photo versions nobody references: after an upload (older versions), after an
 * employee left the directory, and per employee in the daily sweep (sweepUnadopted.ts).
 */
import type { ContainerClient } from '@azure/storage-blob';
import { ConflictError, NotFoundError } from '../domainErrors';
import { PHOTO_BLOB_PROPERTY } from './photoLocator';
import { isContainerMissing } from '../storage/createOnce';
import {
  isAlreadyGone,
  isConditionNotMet,
  isNotFound,
  storageCode,
  storageStatus,
  toDomainError,
} from '../storage/storageFaults';
import { photoVersionNotDeleted } from './photoErrors';
import { archivedEmployeeRowKeyRange } from '../storage/keys/tables/archive';
import { departmentPartitionKey, employeeRowKey } from '../storage/keys/tables/employees';
import { photoBlobPrefix } from '../storage/keys/blobs/photoBlobs';
import { now, type PhotoDependencies } from './dependencies';
import { readEntity } from '../storage/tables/entities';
import { readWholeRange } from '../storage/tables/rangePages';

/**
 * How long an unreferenced version is spared by the sweeps (15 minutes): a client may be uploading
 * it through a write SAS to adopt it next.
 */
export const PHOTO_SWEEP_GRACE_MS = 15 * 60_000;

/**
 * Deletes the photo versions of an employee that are not `keep`, not referenced by the employee
 * or its archived copy, and older than the grace period. The versions are listed first; right
 * before each delete the references are read again (a version adopted while the sweep runs is seen
 * as referenced), and the delete is conditional on the ETag the listing saw (a version written
 * again since, e.g. copied back by a move, is not the one judged). With no version past the grace
 * period nothing is read. The grace period is what keeps a version a client uploaded (write SAS)
 * or a move copied, and is about to adopt, from being deleted before the employee names it.
 * Deleting a version that is already gone is not an error: sweeps may run at the same time. A
 * version storage refuses to delete does not stop the others; the first refusal is thrown after
 * (see {@link sweepPhotoVersions} for every outcome).
 *
 * @returns the names deleted.
 * @throws {ValidationError} for a bad department or employee id.
 * @throws {ConflictError} `PhotoVersionNotDeleted` when storage refused to delete a version.
 * @throws {DomainError} for storage faults.
 */
export async function sweepPhotos(
  ...args: Parameters<typeof sweepPhotoVersions>
): Promise<string[]> {
  const { deleted, refused } = await sweepPhotoVersions(...args);
  if (refused.length > 0) throw refused[0];
  return deleted;
}

/** What one employee's sweep did: the versions deleted, and storage's refusals of the others. */
export interface PhotoSweepOutcome {
  deleted: string[];
  /** `PhotoVersionNotDeleted`, one per version storage refused to delete. */
  refused: ConflictError[];
}

/**
 * {@link sweepPhotos}, answering refusals instead of throwing them (the daily sweep reports both).
 *
 * @throws {ValidationError} for a bad department or employee id.
 * @throws {DomainError} for storage faults other than a refused delete.
 */
export async function sweepPhotoVersions(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  keep: readonly string[],
  graceMs = deps.sweepGraceMs ?? PHOTO_SWEEP_GRACE_MS,
): Promise<PhotoSweepOutcome> {
  const prefix = photoBlobPrefix(department, employeeId);
  const cutoff = now(deps).getTime() - graceMs;
  const kept = new Set(keep);
  const candidates: { name: string; etag: string }[] = [];
  try {
    for await (const blob of deps.photos.listBlobsFlat({ prefix })) {
      const created = blob.properties.createdOn ?? blob.properties.lastModified;
      if (!kept.has(blob.name) && created.getTime() <= cutoff) {
        candidates.push({ name: blob.name, etag: blob.properties.etag });
      }
    }
  } catch (error) {
    // No container yet (a fresh account, no photo ever uploaded): nothing to sweep.
    if (isContainerMissing(error)) return { deleted: [], refused: [] };
    throw toDomainError(error);
  }
  const deleted: string[] = [];
  const refused: ConflictError[] = [];
  for (const { name, etag } of candidates) {
    await deps.sweepHooks?.beforeRecheck?.(name);
    const referenced = await referencedPhotos(deps, department, employeeId);
    if (referenced.has(name)) continue;
    try {
      if (await deleteBlobIfExists(deps.photos, name, etag)) deleted.push(name);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      refused.push(error);
    }
  }
  return { deleted, refused };
}

/**
 * The versions the employee entity and its archived copies name (`PhotoBlob`): every incarnation
 * of the id archived keeps its photo (docs/queues.md "Incarnations").
 */
async function referencedPhotos(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<Set<string>> {
  const [current, archived] = await Promise.all([
    readEntity(deps.employees, departmentPartitionKey(department), employeeRowKey(employeeId), [
      PHOTO_BLOB_PROPERTY,
    ]).catch(unlessTableMissing(undefined)),
    archivedPhotos(deps, department, employeeId),
  ]);
  const name = current?.[PHOTO_BLOB_PROPERTY];
  if (typeof name === 'string' && name !== '') archived.add(name);
  return archived;
}

/**
 * The versions the archived copies of every incarnation of the id name (`PhotoBlob`): they stay
 * the archive's, so no adoption takes them and no replace or sweep deletes them.
 *
 * @throws {DomainError} for storage faults (a missing archive table names nothing).
 */
export async function archivedPhotos(
  deps: Pick<PhotoDependencies, 'archive'>,
  department: string,
  employeeId: string,
): Promise<Set<string>> {
  const partitionKey = departmentPartitionKey(department);
  const archived = await readWholeRange(
    deps.archive,
    { partitionKey, ...archivedEmployeeRowKeyRange(employeeId) },
    [PHOTO_BLOB_PROPERTY],
  ).catch(unlessTableMissing([]));
  const names = new Set<string>();
  for (const entity of archived) {
    const name = entity[PHOTO_BLOB_PROPERTY];
    if (typeof name === 'string' && name !== '') names.add(name);
  }
  return names;
}

/** A catch handler: `absent` when the table does not exist (yet), else the error again. */
function unlessTableMissing<T>(absent: T): (error: unknown) => T {
  return (error) => {
    if (
      error instanceof NotFoundError ||
      isNotFound(error) ||
      (error as { code?: string }).code === 'TableNotFound'
    ) {
      return absent;
    }
    throw error;
  };
}

/**
 * After the employee left the directory (deleted or archived): removes every photo version the
 * archived copy does not name, past the grace period like every sweep — the employee may have been
 * created again (or moved back) and be about to adopt a version uploaded (or copied) just now.
 * Younger versions nobody adopts are left to the daily sweep (sweepUnadopted.ts).
 *
 * @throws {DomainError} for storage faults.
 */
export async function removePhotosOfGoneEmployee(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<string[]> {
  return sweepPhotos(deps, department, employeeId, []);
}

/**
 * Deletes a blob with its snapshots (only as it was at `etag`, when given); false when it was
 * already gone or has been written again since. A write SAS's `c` permission also takes snapshots,
 * and a blob with snapshots refuses a plain delete (409 `SnapshotsPresent`): the snapshots go too.
 *
 * @throws {ConflictError} `PhotoVersionNotDeleted` when storage refuses the delete (a lease, an
 *   immutability policy...).
 * @throws {DomainError} for other storage faults.
 */
export async function deleteBlobIfExists(
  container: ContainerClient,
  blobName: string,
  etag?: string,
): Promise<boolean> {
  try {
    await container.getBlobClient(blobName).delete({
      deleteSnapshots: 'include',
      ...(etag === undefined ? {} : { conditions: { ifMatch: etag } }),
    });
    return true;
  } catch (error) {
    // Gone already, or written again since (our If-Match): nothing of ours to delete.
    if (isAlreadyGone(error) || isConditionNotMet(error)) return false;
    const status = storageStatus(error);
    if (status === 409 || status === 412) {
      throw photoVersionNotDeleted(blobName, storageCode(error) ?? String(status), error);
    }
    throw toDomainError(error);
  }
}
