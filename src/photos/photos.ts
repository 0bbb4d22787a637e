/**
 * Employee photos (guide: "Large entities pattern"). An entity holds at most 1 MiB, so the bytes
 * live in the `photos` container and the employee entity names them: `PhotoBlob` (the blob name,
 * the contract SAS issuance reads) and `PhotoUrl` (its URL, in the API JSON).
 *
 * Every upload goes to a NEW versioned blob, written first; only then does the entity point at it
 * (ETag-conditional), so a failure leaves an unreferenced blob, never a URL to nothing. A photo is
 * a PNG, JPEG, GIF or WebP image decided from its bytes (`imageType.ts`), recorded as `PhotoType`
 * and pinned by every read token (`rsct`). Versions nobody references are swept once older than a
 * grace period; archiving keeps the blob, deleting an employee removes its blobs
 * ({@link removePhotosOfGoneEmployee}), the daily sweep (`sweepUnadopted.ts`) catches the rest.
 * Why: docs/queues.md "Photos (large entities pattern)"; docs/sas.md "Photos".
 */
import type { ContainerClient } from '@azure/storage-blob';
import { employeeNotFound } from '../directory';
import { ConflictError, DomainError, NotFoundError } from '../domainErrors';
import {
  emptyPhoto,
  notAPhotoVersionOf,
  photoBlobArchived,
  photoBlobChanged,
  photoBlobNotFound,
  photoTooLarge,
  photoWriteContended,
  unsupportedPhotoType,
} from './photoErrors';
import { creatingOnMissing, isContainerMissing } from '../storage/createOnce';
import { backdatedStart, CLOCK_SKEW_MS } from '../storage/blobSas';
import {
  employeeEntityPhotoLocator,
  PHOTO_BLOB_PROPERTY,
  PHOTO_TYPE_PROPERTY,
} from './photoLocator';
import { photoReadGrant } from './readGrant';
import {
  isNotFound,
  isPreconditionFailed,
  toDomainError,
  unlessNotFound,
} from '../storage/storageFaults';
import { departmentPartitionKey } from '../storage/keys/tables/employees';
import { parsePhotoBlobName, photoBlobName } from '../storage/keys/blobs/photoBlobs';
import {
  declaredPhotoType,
  PHOTO_CONTENT_TYPES,
  PHOTO_SNIFF_BYTES,
  sniffPhotoType,
  type PhotoContentType,
} from './imageType';
import { newPhotoVersion, now, type PhotoBlobs, type PhotoDependencies } from './dependencies';
import { archivedPhotos, deleteBlobIfExists, sweepPhotos } from './sweep';
import { copyPhotoBlob } from './blobCopy';
import { readEmployeeState } from '../directory/entities';

export { newPhotoVersion, type PhotoDependencies } from './dependencies';
export { PHOTO_SWEEP_GRACE_MS, removePhotosOfGoneEmployee, sweepPhotos } from './sweep';

/** Largest photo accepted (16 MiB). */
export const MAX_PHOTO_BYTES = 16 * 1024 * 1024;

const PHOTO_TYPES_TEXT = PHOTO_CONTENT_TYPES.join(', ');

/** A photo the employee now names: its URL, its blob, and the employee's new ETag. */
export interface AdoptedPhoto {
  photoUrl: string;
  blobName: string;
  etag: string;
}

/** Where a photo comes from: bytes sent to the API, or a version the client uploaded by SAS. */
export type PhotoSource = { bytes: Buffer; contentType: string } | { blobName: string };

/**
 * Points the employee at a new photo version: bytes sent to the API are stored first (under a
 * name nobody references yet); a version the client uploaded through a write SAS is checked as a
 * direct upload would be. Then one conditional write names blob, type and URL on the employee
 * (the directory's, which retries lost races) without touching its data version, and the version
 * it replaced goes.
 *
 * @returns the photo URL now stored on the employee.
 * @throws {ValidationError} `UnsupportedPhotoType` when the declared or sniffed type is not a
 *   photo type or they differ (SVG, HTML, a PNG declared as JPEG...); `EmptyPhoto`;
 *   `InvalidPhotoBlob` for a blob name that is not a photo version of this employee.
 * @throws {TooLargeError} `PhotoTooLarge` over {@link MAX_PHOTO_BYTES}.
 * @throws {NotFoundError} `EmployeeNotFound`; `PhotoBlobNotFound` when nothing was uploaded there.
 * @throws {ConflictError} `PhotoBlobChanged` when an uploaded blob changed while it was checked;
 *   `PhotoBlobArchived` for a version an archived record of the id names; `PhotoVersionNotDeleted`
 *   when storage refused to delete the replaced version (the new photo is named).
 * @throws {ContentionError} (503) when the employee kept changing (the directory's attempts).
 * @throws {DomainError} for storage faults (a new blob may stay behind; a later sweep removes it).
 */
export async function setEmployeePhoto(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  source: PhotoSource,
): Promise<AdoptedPhoto> {
  const { blobName, type } =
    'blobName' in source
      ? await checkAdoptedVersion(deps, department, employeeId, source.blobName)
      : await storeNewVersion(deps, department, employeeId, source);
  const photoUrl = deps.photos.getBlockBlobClient(blobName).url;
  const written = await deps.directory
    .writePhoto(
      department,
      employeeId,
      { photoUrl, photoProperties: photoProperties(blobName, type) },
      { giveUp: (attempts) => photoWriteContended(employeeId, 'set', attempts) },
    )
    .catch(forgetUnnamed(deps.photos, blobName));
  await deps.directory.publish([written.change]);
  await dropReplaced(deps, department, employeeId, blobName, written.replaced);
  return { photoUrl, blobName, etag: written.updated.etag };
}

/** {@link setEmployeePhoto} of bytes sent to the API, declared as `contentType`. */
export const uploadPhoto = (
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  bytes: Buffer,
  contentType: string,
): Promise<AdoptedPhoto> => setEmployeePhoto(deps, department, employeeId, { bytes, contentType });

/** {@link setEmployeePhoto} of a version blob the client uploaded through a write SAS. */
export const adoptUploadedPhoto = (
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  blobName: string,
): Promise<AdoptedPhoto> => setEmployeePhoto(deps, department, employeeId, { blobName });

/** Checks the bytes against their declared type and stores them as a new, unreferenced version. */
async function storeNewVersion(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  { bytes, contentType }: { bytes: Buffer; contentType: string },
): Promise<{ blobName: string; type: PhotoContentType }> {
  const declared = declaredPhotoType(contentType);
  if (!declared) {
    throw unsupportedPhotoType(
      `A photo must be sent with content-type ${PHOTO_TYPES_TEXT}, got "${contentType}".`,
      'content-type',
    );
  }
  if (bytes.length === 0) throw emptyPhoto('body');
  if (bytes.length > MAX_PHOTO_BYTES) throw photoTooLarge(MAX_PHOTO_BYTES);
  const sniffed = sniffPhotoType(bytes);
  if (sniffed !== declared) {
    throw unsupportedPhotoType(
      `The body is ${sniffed ? `an ${sniffed} image` : 'no PNG, JPEG, GIF or WebP image'}, but was sent as ${declared}.`,
      'body',
    );
  }
  const partitionKey = departmentPartitionKey(department);
  if (!(await readEmployeeState(deps.employees, partitionKey, employeeId))) {
    throw employeeNotFound(department, employeeId);
  }
  const blobName = photoBlobName(department, employeeId, newPhotoVersion(now(deps)));
  // Under a name nobody references yet, and create-only (as SAS uploads are); the container is
  // created only when a fresh account answers that it is missing.
  await creatingOnMissing(
    () =>
      deps.photos.getBlockBlobClient(blobName).uploadData(bytes, {
        blobHTTPHeaders: { blobContentType: sniffed },
        conditions: { ifNoneMatch: '*' },
      }),
    () => deps.photos.createIfNotExists(),
    isContainerMissing,
  );
  return { blobName, type: sniffed };
}

/**
 * Checks a version the client uploaded: its name must be a photo version of this employee that no
 * archived record of the id names (an earlier incarnation's photo stays the archive's: adopting it
 * would let a replace delete it), and its bytes pass the checks of a direct upload
 * ({@link checkUploadedPhoto}). The content type the client declared is ignored: the app sets the
 * sniffed type on the blob (clearing every other header the client set). A refused blob is left
 * for the sweep; no token reads it.
 */
async function checkAdoptedVersion(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  blobName: string,
): Promise<{ blobName: string; type: PhotoContentType }> {
  const owner = parsePhotoBlobName(blobName);
  if (!owner || owner.department !== department || owner.employeeId !== employeeId) {
    throw notAPhotoVersionOf(blobName, department, employeeId);
  }
  if ((await archivedPhotos(deps, department, employeeId)).has(blobName)) {
    throw photoBlobArchived(blobName, department, employeeId);
  }
  return { blobName, type: await checkUploadedPhoto(deps.photos, blobName) };
}

/**
 * Checks an uploaded version blob (size, then the type from its first bytes) and sets the sniffed
 * content type on it, all conditional on the ETag first read: bytes that change meanwhile are never
 * vouched for.
 */
async function checkUploadedPhoto(
  photos: ContainerClient,
  blobName: string,
): Promise<PhotoContentType> {
  const blob = photos.getBlockBlobClient(blobName);
  const storageFault = (error: unknown): unknown => {
    if (error instanceof DomainError) return error;
    if (isNotFound(error)) return photoBlobNotFound(blobName);
    if (isPreconditionFailed(error)) return photoBlobChanged(blobName);
    return toDomainError(error);
  };
  try {
    const properties = await blob.getProperties();
    const size = properties.contentLength ?? 0;
    if (properties.blobType !== 'BlockBlob') {
      throw unsupportedPhotoType(
        `"${blobName}" is a ${properties.blobType ?? 'unknown'} blob; upload the photo as a block blob.`,
        'blobName',
      );
    }
    if (size === 0) throw emptyPhoto('blobName');
    if (size > MAX_PHOTO_BYTES) throw photoTooLarge(MAX_PHOTO_BYTES);
    const conditions = { ifMatch: properties.etag };
    const head = await blob.downloadToBuffer(0, Math.min(size, PHOTO_SNIFF_BYTES), { conditions });
    const type = sniffPhotoType(head);
    if (!type) {
      throw unsupportedPhotoType(
        `"${blobName}" is no PNG, JPEG, GIF or WebP image (its declared type ` +
          `"${properties.contentType ?? 'none'}" does not count).`,
        'blobName',
      );
    }
    // The app, not the uploader, decides the headers storage serves with the blob.
    await blob.setHTTPHeaders(
      { blobContentType: type, blobContentMD5: properties.contentMD5 },
      { conditions },
    );
    return type;
  } catch (error) {
    throw storageFault(error);
  }
}

/** The photo feature's properties on the employee entity: the blob it names and its type. */
function photoProperties(blobName: string, type: PhotoContentType | ''): Record<string, string> {
  return { [PHOTO_BLOB_PROPERTY]: blobName, [PHOTO_TYPE_PROPERTY]: type };
}

/**
 * The failure handler of naming `blobName`: when the employee is gone, the blob nobody will name
 * goes at once (the sweep would take it later); every error is thrown on, that one included even
 * when storage refuses the delete (the daily sweep then reports the blob).
 */
function forgetUnnamed(photos: ContainerClient, blobName: string) {
  return async (error: unknown): Promise<never> => {
    if (error instanceof NotFoundError && error.code === 'EmployeeNotFound') {
      await deleteBlobIfExists(photos, blobName).catch((refused: unknown) => {
        if (!(refused instanceof ConflictError)) throw refused;
      });
    }
    throw error;
  };
}

/**
 * After the employee names `blobName` (nothing is retried after that): the version it replaced
 * goes at once unless an archived record names it (read right before the delete), other
 * unreferenced ones once past the grace period.
 */
async function dropReplaced(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
  blobName: string,
  replaced: Record<string, unknown>,
): Promise<void> {
  const previous = replaced[PHOTO_BLOB_PROPERTY];
  if (
    typeof previous === 'string' &&
    previous !== '' &&
    previous !== blobName &&
    !(await archivedPhotos(deps, department, employeeId)).has(previous)
  ) {
    await deleteBlobIfExists(deps.photos, previous);
  }
  await sweepPhotos(deps, department, employeeId, [blobName]);
}

/**
 * A short-lived read URL (SAS) for the employee's current photo, valid for `readSasSeconds` (see
 * {@link photoReadGrant}, which the SAS service's photo grant uses too).
 *
 * @throws {NotFoundError} `PhotoNotFound` when the employee (or its photo) does not exist.
 * @throws {DomainError} for storage faults (user delegation key).
 */
export async function photoReadUrl(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<{ url: string; expiresOn: Date }> {
  const at = now(deps).getTime();
  const lifetimeMs = (deps.readSasSeconds ?? 300) * 1000;
  const expiresOn = new Date(Math.floor((at + lifetimeMs) / 1000) * 1000);
  // Backdated for clock skew, but never past the cap the account's SAS policy measures.
  const startsOn = backdatedStart(
    at,
    expiresOn.getTime(),
    deps.maxSasSeconds === undefined ? lifetimeMs + CLOCK_SKEW_MS : deps.maxSasSeconds * 1000,
  );
  const { url } = await photoReadGrant(
    {
      locator: employeeEntityPhotoLocator(deps.employees),
      photos: deps.photos,
      signer: deps.signer,
      allowHttp: deps.allowHttp,
    },
    department,
    employeeId,
    { startsOn, expiresOn },
  );
  return { url, expiresOn };
}

/**
 * Removes the employee's photo: the entity stops naming it, then the blobs go.
 *
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {ContentionError} (503) when the employee kept changing (the directory's attempts).
 * @throws {DomainError} for storage faults.
 */
export async function deletePhoto(
  deps: PhotoDependencies,
  department: string,
  employeeId: string,
): Promise<void> {
  const written = await deps.directory.writePhoto(
    department,
    employeeId,
    { photoUrl: null, photoProperties: photoProperties('', '') },
    { giveUp: (attempts) => photoWriteContended(employeeId, 'removed', attempts) },
  );
  await deps.directory.publish([written.change]);
  await sweepPhotos(deps, department, employeeId, [], 0);
}

/**
 * Copies a photo version into another department's name for the same employee and version
 * (`Sales/000001/v` → `Marketing/000001/v`): server-side within an account, through the app
 * across accounts (blobCopy.ts). A move does this
 * before the target entity names the copy, so the target never points at nothing, and the
 * source's sweep (which deletes everything under the old prefix) cannot take the target's photo.
 * Copying again over an earlier copy writes the same bytes: safe to repeat.
 *
 * @returns the copy's blob name and URL, or `undefined` when `blobName` is not a photo version of
 *   `employeeId` or no longer exists (nothing to carry over).
 * @throws {DomainError} for storage faults.
 */
export async function copyPhotoToDepartment(
  photos: PhotoBlobs,
  blobName: string,
  employeeId: string,
  toDepartment: string,
): Promise<{ blobName: string; photoUrl: string } | undefined> {
  const owner = parsePhotoBlobName(blobName);
  if (!owner || owner.employeeId !== employeeId) return undefined;
  const copyName = photoBlobName(toDepartment, employeeId, owner.version);
  const copy = photos.getBlockBlobClient(copyName);
  if (owner.department !== toDepartment) {
    const source = photos.getBlockBlobClient(blobName);
    const copied = await unlessNotFound(async () => {
      await copyPhotoBlob(photos, source, copy);
      return true;
    });
    if (!copied) return undefined;
  }
  return { blobName: copyName, photoUrl: copy.url };
}
