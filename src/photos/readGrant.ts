/**
 * The one routine that grants read access to an employee's current photo. Both photo URL paths
 * use it: `GET .../photo` (a redirect, {@link photoReadUrl} in photos.ts) and the SAS service's
 * photo grant (`POST /sas/photos/...`, src/sas/service.ts), with the one signer the composition
 * root builds. So the same photo, missing or not, answers the same way on both.
 */
import { BlobSASPermissions, SASProtocol, type ContainerClient } from '@azure/storage-blob';
import { photoNotFound } from './photoErrors';
import type { BlobSasKind, BlobSasSigner } from '../storage/blobSas';
import { parsePhotoBlobName, blobUrl } from '../storage/keys/blobs/photoBlobs';
import { servedPhotoContentType } from './imageType';
import type { PhotoLocator } from './photoLocator';

/** What granting a photo read needs. */
export interface PhotoReadDependencies {
  /** Finds the employee's current photo. */
  locator: PhotoLocator;
  /** The `photos` container. */
  photos: ContainerClient;
  /** Signs the token (service SAS with the key, user delegation otherwise). */
  signer: BlobSasSigner;
  /** Whether plain HTTP may be signed (local emulator). */
  allowHttp: boolean;
}

/** A signed read of one photo version. */
export interface PhotoReadGrant {
  /** The blob URL with the SAS appended, usable as is. */
  url: string;
  /** The SAS token (query string without `?`). */
  sas: string;
  /** The photo version's blob name in the photos container. */
  blobName: string;
  /** The credential that signed the token. */
  signedWith: BlobSasKind;
}

/** SAS permissions of a photo read: read only. */
export const PHOTO_READ_PERMISSIONS = BlobSASPermissions.from({ read: true }).toString();

/**
 * Signs a read of the employee's current photo for `window`. The token pins the response's
 * content type (`rsct`) to the type checked when the photo was adopted (`application/octet-stream`
 * for a photo adopted before types were checked), whatever the blob's own header says.
 *
 * @throws {NotFoundError} `PhotoNotFound` when the employee does not exist, has no photo, or its
 *   entity names a blob that is not a photo version of this employee (never signed: it would
 *   hand out someone else's photo).
 * @throws {DomainError} for storage faults (the entity read, a user delegation key).
 */
export async function photoReadGrant(
  deps: PhotoReadDependencies,
  department: string,
  employeeId: string,
  window: { startsOn: Date; expiresOn: Date },
): Promise<PhotoReadGrant> {
  const photo = await deps.locator.currentPhoto(department, employeeId);
  const owner = photo ? parsePhotoBlobName(photo.blobName) : undefined;
  if (!photo || owner?.department !== department || owner.employeeId !== employeeId) {
    throw photoNotFound(department, employeeId);
  }
  const sas = await deps.signer.sign({
    containerName: deps.photos.containerName,
    blobName: photo.blobName,
    permissions: BlobSASPermissions.parse(PHOTO_READ_PERMISSIONS),
    startsOn: window.startsOn,
    expiresOn: window.expiresOn,
    protocol: deps.allowHttp ? SASProtocol.HttpsAndHttp : SASProtocol.Https,
    contentType: servedPhotoContentType(photo.contentType),
  });
  return {
    url: `${blobUrl(deps.photos.url, photo.blobName)}?${sas}`,
    sas,
    blobName: photo.blobName,
    signedWith: deps.signer.kind,
  };
}
