/**
 * Removing the photo versions nobody references: after an upload (older versions), after an
 * employee left the directory, and per employee in the daily sweep (sweepUnadopted.ts).
 */
import type { ContainerClient } from '@azure/storage-blob';
import { readEntity, readWholeRange } from '../directory';
import { NotFoundError } from '../errors';
import { PHOTO_BLOB_PROPERTY } from '../sas/photoLocator';
import { ensureContainer } from '../storage/createOnce';
import { isNotFound, withStorageErrors } from '../storage/errors';
import {
  archivedEmployeeRowKeyRange,
  departmentPartitionKey,
  employeeRowKey,
  photoBlobPrefix,
} from '../storage/keys';
import { now, type PhotoDependencies } from './dependencies';

/**
 * How long an unreferenced version is spared by the sweeps (15 minutes): a client may be uploading
 * it through a write SAS to adopt it next.
 */
export const PHOTO_SWEEP_GRACE_MS = 15 * 60_000;

/**
 * Deletes the photo versions of an employee that are not `keep`, not referenced by the employee
 * or its archived copy, and older than the grace period. The versions are listed first and the
 * references read after the listing, right before the deletes, so a version adopted while the
 * sweep runs is seen as referenced; with no version past the grace period nothing is read.
 * Deleting a version that is already gone is not an error: sweeps may run at the same time.
 *
 * @returns the names deleted.
 * @throws {ValidationError} for a bad department or employee id.
 * @throws {DomainError} for storage faults.
 */
export async function sweepPhotos(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  keep: readonly string[],
  graceMs = deps.sweepGraceMs ?? PHOTO_SWEEP_GRACE_MS,
): Promise<string[]> {
  const prefix = photoBlobPrefix(department, employeeId);
  await ensureContainer(deps.photos);
  const cutoff = now(deps).getTime() - graceMs;
  const kept = new Set(keep);
  const candidates: string[] = [];
  await withStorageErrors(async () => {
    for await (const blob of deps.photos.listBlobsFlat({ prefix })) {
      const created = blob.properties.createdOn ?? blob.properties.lastModified;
      if (!kept.has(blob.name) && created.getTime() <= cutoff) candidates.push(blob.name);
    }
  });
  if (candidates.length === 0) return [];
  const referenced = await referencedPhotos(deps, department, employeeId);
  const deleted: string[] = [];
  for (const name of candidates) {
    if (referenced.has(name)) continue;
    if (await deleteBlobIfExists(deps.photos, name)) deleted.push(name);
  }
  return deleted;
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
  const partitionKey = departmentPartitionKey(department);
  const [current, archived] = await Promise.all([
    readEntity(deps.employees, partitionKey, employeeRowKey(employeeId), [
      PHOTO_BLOB_PROPERTY,
    ]).catch(unlessTableMissing(undefined)),
    readWholeRange(deps.archive, { partitionKey, ...archivedEmployeeRowKeyRange(employeeId) }, [
      PHOTO_BLOB_PROPERTY,
    ]).catch(unlessTableMissing([])),
  ]);
  const referenced = new Set<string>();
  for (const entity of [current, ...archived]) {
    const name = entity?.[PHOTO_BLOB_PROPERTY];
    if (typeof name === 'string' && name !== '') referenced.add(name);
  }
  return referenced;
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
 * archived copy does not name.
 *
 * @throws {DomainError} for storage faults.
 */
export async function removePhotosOfGoneEmployee(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<string[]> {
  return sweepPhotos(deps, department, employeeId, [], 0);
}

/**
 * Deletes a blob; false when it was already gone.
 *
 * @throws {DomainError} for storage faults.
 */
export async function deleteBlobIfExists(
  container: ContainerClient,
  blobName: string,
): Promise<boolean> {
  const response = await withStorageErrors(() =>
    container.getBlockBlobClient(blobName).deleteIfExists(),
  );
  return response.succeeded;
}
