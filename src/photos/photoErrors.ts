/**
 * The photo capability's errors, phrased once.
 */
import {
  ConflictError,
  NotFoundError,
  TooLargeError,
  ValidationError,
  type ContentionError,
} from '../domainErrors';
import { contended } from '../storage/storageErrors';

/** 400: the declared content type or the bytes are not a photo type (`target` names which). */
export function unsupportedPhotoType(message: string, target: string): ValidationError {
  return new ValidationError(message, target, 'UnsupportedPhotoType');
}

/** 413: a photo over `maxBytes`. */
export function photoTooLarge(maxBytes: number): TooLargeError {
  return new TooLargeError(`A photo may be at most ${maxBytes} bytes.`, 'PhotoTooLarge');
}

/** 400: an empty photo (`target`: the body, or the uploaded blob). */
export function emptyPhoto(target: 'body' | 'blobName'): ValidationError {
  return new ValidationError('The photo is empty.', target, 'EmptyPhoto');
}

/** 400: a blob name that is not a photo version of this employee. */
export function notAPhotoVersionOf(
  blobName: string,
  department: string,
  employeeId: string,
): ValidationError {
  return new ValidationError(
    `"${blobName}" is not a photo version of employee ${employeeId} in "${department}".`,
    'blobName',
    'InvalidPhotoBlob',
  );
}

/** 404: nothing was uploaded to the version blob being adopted. */
export function photoBlobNotFound(blobName: string): NotFoundError {
  return new NotFoundError('PhotoBlobNotFound', `Nothing was uploaded to "${blobName}".`);
}

/** 409: the uploaded blob changed while it was checked. */
export function photoBlobChanged(blobName: string): ConflictError {
  return new ConflictError(
    'PhotoBlobChanged',
    `"${blobName}" changed while it was checked; upload the photo to a new version.`,
  );
}

/**
 * 409: storage refused to delete a photo version (`code`: a lease on it, an immutability
 * policy...); it stays until a later sweep can delete it.
 */
export function photoVersionNotDeleted(
  blobName: string,
  code: string,
  cause: unknown,
): ConflictError {
  return new ConflictError(
    'PhotoVersionNotDeleted',
    `Storage refused to delete photo version "${blobName}" (${code}); it stays until a later sweep can delete it.`,
    { cause },
  );
}

/** 409: the blob is the photo of an archived record of the employee id; it stays the archive's. */
export function photoBlobArchived(
  blobName: string,
  department: string,
  employeeId: string,
): ConflictError {
  return new ConflictError(
    'PhotoBlobArchived',
    `"${blobName}" is the photo of an archived record of employee ${employeeId} in "${department}" and stays with the archive; upload a new version instead.`,
  );
}

/** 404: the error both photo paths answer for an employee without a (usable) photo. */
export function photoNotFound(department: string, employeeId: string): NotFoundError {
  return new NotFoundError(
    'PhotoNotFound',
    `Employee ${employeeId} in "${department}" has no photo.`,
  );
}

/** 503: the employee kept changing while its photo was set (`'set'`) or removed (`'removed'`). */
export function photoWriteContended(
  employeeId: string,
  change: 'set' | 'removed',
  attempts: number,
): ContentionError {
  return contended(
    `Employee ${employeeId} kept changing while its photo was ${change}.`,
    attempts,
    5,
  );
}

/** A sweep concurrency or page size below 1 (a bug in the caller). */
export function invalidSweepOptions(): RangeError {
  return new RangeError('The sweep needs a concurrency and a page size of at least 1.');
}
