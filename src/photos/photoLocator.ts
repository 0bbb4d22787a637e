/**
 * Where an employee's current photo lives. The photo feature owns photos; SAS issuance only needs
 * to know the current photo's blob name and the content type the photo feature checked, through
 * this small interface, which the photo feature may implement itself.
 *
 * The default implementation reads the employee entity's `PhotoBlob` property (the blob name in
 * the photos container, as built by `photoBlobName`) and `PhotoType` (the type sniffed from the
 * blob's bytes when it was adopted) with one projected point read.
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import { isPhotoContentType, type PhotoContentType } from './imageType';
import { unlessNotFound } from '../storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../storage/keys/tables/employees';

/** An employee's current photo. */
export interface CurrentPhoto {
  /** The blob name in the photos container. */
  blobName: string;
  /**
   * The content type the photo feature checked when it adopted the blob; `undefined` for a photo
   * adopted before types were checked (read tokens then pin `application/octet-stream`).
   */
  contentType: PhotoContentType | undefined;
}

/** Finds the blob of an employee's current photo. */
export interface PhotoLocator {
  /**
   * The employee's current photo; `undefined` when the employee has no photo (or does not exist).
   *
   * @throws {DomainError} on storage faults.
   */
  currentPhoto(department: string, employeeId: string): Promise<CurrentPhoto | undefined>;
}

/** Name of the employee entity property that holds the current photo's blob name. */
export const PHOTO_BLOB_PROPERTY = 'PhotoBlob';

/**
 * Name of the employee entity property that holds the current photo's checked content type
 * (`image/png`, `image/jpeg`, `image/gif` or `image/webp`), written in the same merge as
 * {@link PHOTO_BLOB_PROPERTY}.
 */
export const PHOTO_TYPE_PROPERTY = 'PhotoType';

/** A {@link PhotoLocator} that reads `PhotoBlob` and `PhotoType` from the employee entity. */
export function employeeEntityPhotoLocator(employees: TableAccess): PhotoLocator {
  return {
    async currentPhoto(department, employeeId) {
      const partitionKey = departmentPartitionKey(department);
      const rowKey = employeeRowKey(employeeId);
      const entity = await unlessNotFound(() =>
        employees.getEntity<Record<string, unknown>>(partitionKey, rowKey, {
          queryOptions: { select: [PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY] },
        }),
      );
      const blobName = entity?.[PHOTO_BLOB_PROPERTY];
      if (typeof blobName !== 'string' || blobName === '') return undefined;
      const contentType = entity?.[PHOTO_TYPE_PROPERTY];
      return { blobName, contentType: isPhotoContentType(contentType) ? contentType : undefined };
    },
  };
}
