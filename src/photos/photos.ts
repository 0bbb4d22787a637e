/**
 * Employee photos (guide: "Large entities pattern"). An entity holds at most 1 MiB, so the bytes
 * live in the `photos` container and the employee entity names them: `PhotoBlob` (the blob name,
 * the contract SAS issuance reads, see docs/sas.md) and `PhotoUrl` (its URL, in the API JSON).
 *
 * Every upload goes to a NEW versioned blob (`<dept>/<id>/<version>`), written first; only then
 * does the entity point at it (ETag-conditional). A failure between the two leaves an unreferenced
 * blob, never a URL to nothing. After the entity points at the new version, the versions it no
 * longer references are deleted; versions younger than a grace period are spared, because a
 * client may be uploading one through a write SAS (`POST /sas/photos/...`) to adopt it next.
 *
 * Archiving keeps the blob (the archived entity keeps `PhotoBlob`); deleting an employee removes
 * its blobs (the index worker calls {@link removePhotosOfGoneEmployee} once the employee is gone).
 */
import { randomBytes } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { BlobSASPermissions, SASProtocol, type ContainerClient } from '@azure/storage-blob';
import type { EmployeeService } from '../directory/directory';
import { employeeNotFound } from '../directory/directoryErrors';
import { readEmployeeState } from '../directory/employeeState';
import { readEntity } from '../directory/state';
import {
  NotFoundError,
  PreconditionFailedError,
  ThrottledError,
  TooLargeError,
  ValidationError,
} from '../errors';
import { ensureContainer } from '../indexing/lastNameBlobStore';
import type { BlobSasSigner } from '../sas/blobSas';
import { CLOCK_SKEW_MS } from '../sas/lifetime';
import { PHOTO_BLOB_PROPERTY } from '../sas/photoLocator';
import {
  isNotFound,
  isPreconditionFailed,
  toDomainError,
  withStorageErrors,
} from '../storage/errors';
import {
  departmentPartitionKey,
  employeeRowKey,
  parsePhotoBlobName,
  photoBlobName,
  photoBlobPrefix,
} from '../storage/keys';

/** Largest photo accepted (16 MiB). */
export const MAX_PHOTO_BYTES = 16 * 1024 * 1024;

const IMAGE_TYPE = /^image\/[a-z0-9.+-]{1,64}$/i;

/** What the photo feature works on. */
export interface PhotoDependencies {
  /** `Employees` (the entity that names the photo). */
  employees: TableClient;
  /** `EmployeesArchive` (an archived employee keeps its photo). */
  archive: TableClient;
  /** The `photos` container. */
  photos: ContainerClient;
  /** The directory's employees (sets `PhotoUrl` on the employee and its copies atomically). */
  directory: EmployeeService;
  /** Signs read SAS (service SAS with a key, user delegation otherwise). */
  signer: BlobSasSigner;
  /** Whether plain HTTP may be signed (local emulator). */
  allowHttp: boolean;
  /** Lifetime of a read SAS, seconds (default 300). */
  readSasSeconds?: number;
  /** Unreferenced versions younger than this are kept (in-flight SAS uploads; default 15 min). */
  sweepGraceMs?: number;
  now?: () => Date;
}

/** A fresh, time-ordered version name. */
function newVersion(now: Date): string {
  return `${String(now.getTime()).padStart(16, '0')}-${randomBytes(6).toString('hex')}`;
}

/**
 * Stores a new photo for an employee and points the employee at it.
 *
 * @returns the photo URL now stored on the employee.
 * @throws {ValidationError} `UnsupportedPhotoType` when the content type is not `image/*`; for an empty body.
 * @throws {TooLargeError} `PhotoTooLarge` over {@link MAX_PHOTO_BYTES}.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {DomainError} for storage faults (the new blob may stay behind; a later sweep removes it).
 */
export async function uploadPhoto(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  bytes: Buffer,
  contentType: string,
): Promise<{ photoUrl: string; blobName: string }> {
  if (!IMAGE_TYPE.test(contentType)) {
    throw new ValidationError(
      `A photo must be sent with content-type image/*, got "${contentType}".`,
      'content-type',
      'UnsupportedPhotoType',
    );
  }
  if (bytes.length === 0) throw new ValidationError('The photo is empty.', 'body', 'EmptyPhoto');
  if (bytes.length > MAX_PHOTO_BYTES) {
    throw new TooLargeError(`A photo may be at most ${MAX_PHOTO_BYTES} bytes.`, 'PhotoTooLarge');
  }
  const partitionKey = departmentPartitionKey(department);
  if (!(await readEmployeeState(deps.employees, partitionKey, employeeId))) {
    throw employeeNotFound(department, employeeId);
  }
  await ensureContainer(deps.photos);
  const blobName = photoBlobName(department, employeeId, newVersion(now(deps)));
  // 1. The bytes first, under a name nobody references yet.
  await withStorageErrors(() =>
    deps.photos.getBlockBlobClient(blobName).uploadData(bytes, {
      blobHTTPHeaders: { blobContentType: contentType },
    }),
  );
  // 2. Then the entity.
  return adopt(deps, department, employeeId, blobName);
}

/**
 * Points the employee at a version blob the client uploaded itself through a write SAS.
 *
 * @throws {ValidationError} `InvalidPhotoBlob` for a name that is not a photo version of this employee,
 *   `UnsupportedPhotoType` when the blob is not an image.
 * @throws {NotFoundError} `PhotoBlobNotFound` when nothing was uploaded there; `EmployeeNotFound`.
 * @throws {DomainError} for storage faults.
 */
export async function adoptUploadedPhoto(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  blobName: string,
): Promise<{ photoUrl: string; blobName: string }> {
  const owner = parsePhotoBlobName(blobName);
  if (!owner || owner.department !== department || owner.employeeId !== employeeId) {
    throw new ValidationError(
      `"${blobName}" is not a photo version of employee ${employeeId} in "${department}".`,
      'blobName',
      'InvalidPhotoBlob',
    );
  }
  let contentType: string | undefined;
  try {
    contentType = (await deps.photos.getBlockBlobClient(blobName).getProperties()).contentType;
  } catch (error) {
    if (isNotFound(error)) {
      throw new NotFoundError('PhotoBlobNotFound', `Nothing was uploaded to "${blobName}".`);
    }
    throw toDomainError(error);
  }
  if (!contentType || !IMAGE_TYPE.test(contentType)) {
    throw new ValidationError(
      `The uploaded blob must have content-type image/*, got "${contentType ?? 'none'}".`,
      'blobName',
      'UnsupportedPhotoType',
    );
  }
  return adopt(deps, department, employeeId, blobName);
}

const MAX_ROUNDS = 10;

async function adopt(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  blobName: string,
): Promise<{ photoUrl: string; blobName: string }> {
  const partitionKey = departmentPartitionKey(department);
  const rowKey = employeeRowKey(employeeId);
  const photoUrl = deps.photos.getBlockBlobClient(blobName).url;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const state = await readEmployeeState(deps.employees, partitionKey, employeeId);
    if (!state) {
      await deleteBlobIfExists(deps.photos, blobName);
      throw employeeNotFound(department, employeeId);
    }
    // Name the blob on the entity (conditional), then rewrite the URL on the employee and its
    // email copy in one transaction; the directory carries `PhotoBlob` over as it stands.
    let merged: { etag?: string };
    try {
      merged = await deps.employees.updateEntity(
        { partitionKey, rowKey, [PHOTO_BLOB_PROPERTY]: blobName },
        'Merge',
        { etag: state.etag },
      );
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) continue;
      throw toDomainError(error);
    }
    try {
      await deps.directory.setPhotoUrl(department, employeeId, photoUrl, { ifMatch: merged.etag });
    } catch (error) {
      if (error instanceof PreconditionFailedError) continue;
      throw error;
    }
    // The replaced version goes at once; other unreferenced ones once past the grace period.
    const previous = state.entity[PHOTO_BLOB_PROPERTY];
    if (typeof previous === 'string' && previous !== '' && previous !== blobName) {
      await deleteBlobIfExists(deps.photos, previous);
    }
    await sweepPhotos(deps, department, employeeId, [blobName]);
    return { photoUrl, blobName };
  }
  throw new ThrottledError(`Employee ${employeeId} kept changing while its photo was set.`, 5);
}

/**
 * A short-lived read URL (SAS) for the employee's current photo.
 *
 * @throws {NotFoundError} `PhotoNotFound` when the employee (or its photo) does not exist.
 * @throws {DomainError} for storage faults (user delegation key).
 */
export async function photoReadUrl(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<{ url: string; expiresOn: Date }> {
  const entity = await readEntity(
    deps.employees,
    departmentPartitionKey(department),
    employeeRowKey(employeeId),
    [PHOTO_BLOB_PROPERTY],
  );
  const blobName = entity?.[PHOTO_BLOB_PROPERTY];
  const owner = typeof blobName === 'string' ? parsePhotoBlobName(blobName) : undefined;
  if (
    typeof blobName !== 'string' ||
    owner?.department !== department ||
    owner.employeeId !== employeeId
  ) {
    throw new NotFoundError(
      'PhotoNotFound',
      `Employee ${employeeId} in "${department}" has no photo.`,
    );
  }
  const at = now(deps).getTime();
  const expiresOn = new Date(Math.floor((at + (deps.readSasSeconds ?? 300) * 1000) / 1000) * 1000);
  const sas = await deps.signer.sign({
    containerName: deps.photos.containerName,
    blobName,
    permissions: BlobSASPermissions.parse('r'),
    startsOn: new Date(at - CLOCK_SKEW_MS),
    expiresOn,
    protocol: deps.allowHttp ? SASProtocol.HttpsAndHttp : SASProtocol.Https,
  });
  return { url: `${deps.photos.getBlockBlobClient(blobName).url}?${sas}`, expiresOn };
}

/**
 * Removes the employee's photo: the entity stops naming it, then the blobs go.
 *
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {DomainError} for storage faults.
 */
export async function deletePhoto(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<void> {
  const partitionKey = departmentPartitionKey(department);
  const rowKey = employeeRowKey(employeeId);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const state = await readEmployeeState(deps.employees, partitionKey, employeeId);
    if (!state) throw employeeNotFound(department, employeeId);
    try {
      const merged = await deps.employees.updateEntity(
        { partitionKey, rowKey, [PHOTO_BLOB_PROPERTY]: '' },
        'Merge',
        { etag: state.etag },
      );
      await deps.directory.setPhotoUrl(department, employeeId, null, { ifMatch: merged.etag });
    } catch (error) {
      if (error instanceof PreconditionFailedError || isPreconditionFailed(error)) continue;
      throw toDomainError(error);
    }
    await sweepPhotos(deps, department, employeeId, [], 0);
    return;
  }
  throw new ThrottledError(`Employee ${employeeId} kept changing while its photo was removed.`, 5);
}

/**
 * Deletes the photo versions of an employee that are not `keep`, not referenced by the employee
 * or its archived copy, and older than the grace period.
 *
 * @returns the names deleted.
 * @throws {DomainError} for storage faults.
 */
export async function sweepPhotos(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  keep: readonly string[],
  graceMs = deps.sweepGraceMs ?? 15 * 60_000,
): Promise<string[]> {
  await ensureContainer(deps.photos);
  const partitionKey = departmentPartitionKey(department);
  const rowKey = employeeRowKey(employeeId);
  const referenced = new Set(keep);
  for (const table of [deps.employees, deps.archive]) {
    const entity = await readEntity(table, partitionKey, rowKey, [PHOTO_BLOB_PROPERTY]).catch(
      (error: unknown) => {
        if (isNotFound(error) || (error as { code?: string }).code === 'TableNotFound')
          return undefined;
        throw error;
      },
    );
    const name = entity?.[PHOTO_BLOB_PROPERTY];
    if (typeof name === 'string' && name !== '') referenced.add(name);
  }
  const cutoff = now(deps).getTime() - graceMs;
  const deleted: string[] = [];
  const candidates: string[] = [];
  await withStorageErrors(async () => {
    for await (const blob of deps.photos.listBlobsFlat({
      prefix: photoBlobPrefix(department, employeeId),
    })) {
      const created = blob.properties.createdOn ?? blob.properties.lastModified;
      if (!referenced.has(blob.name) && created.getTime() <= cutoff) candidates.push(blob.name);
    }
  });
  for (const name of candidates) {
    if (await deleteBlobIfExists(deps.photos, name)) deleted.push(name);
  }
  return deleted;
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

async function deleteBlobIfExists(container: ContainerClient, blobName: string): Promise<boolean> {
  const response = await withStorageErrors(() =>
    container.getBlockBlobClient(blobName).deleteIfExists(),
  );
  return response.succeeded;
}

function now(deps: PhotoDependencies): Date {
  return deps.now?.() ?? new Date();
}

/**
 * Copies a photo version into another department's name for the same employee and version
 * (`Sales/000001/v` → `Marketing/000001/v`), server-side within the account. A move does this
 * before the target entity names the copy, so the target never points at nothing, and the
 * source's sweep (which deletes everything under the old prefix) cannot take the target's photo.
 * Copying again over an earlier copy writes the same bytes: safe to repeat.
 *
 * @returns the copy's blob name and URL, or `undefined` when `blobName` is not a photo version of
 *   `employeeId` or no longer exists (nothing to carry over).
 * @throws {DomainError} for storage faults.
 */
export async function copyPhotoToDepartment(
  photos: ContainerClient,
  blobName: string,
  employeeId: string,
  toDepartment: string,
): Promise<{ blobName: string; photoUrl: string } | undefined> {
  const owner = parsePhotoBlobName(blobName);
  if (!owner || owner.employeeId !== employeeId) return undefined;
  const copyName = photoBlobName(toDepartment, employeeId, owner.version);
  const copy = photos.getBlockBlobClient(copyName);
  if (owner.department !== toDepartment) {
    try {
      const poller = await copy.beginCopyFromURL(photos.getBlockBlobClient(blobName).url);
      await poller.pollUntilDone();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw toDomainError(error);
    }
  }
  return { blobName: copyName, photoUrl: copy.url };
}
