/**
 * Where an employee's current photo lives. The photo feature owns photos; SAS issuance only needs
 * to know the current photo's blob name, through this small interface, which the photo feature
 * may implement itself.
 *
 * The default implementation reads the employee entity's `PhotoBlob` property (the blob name in
 * the photos container, as built by `photoBlobName`) with a projected point read.
 */
import type { TableClient } from '@azure/data-tables';
import { isNotFound, withStorageErrors } from '../storage/errors';
import { departmentPartitionKey, employeeRowKey } from '../storage/keys';

/** Finds the blob of an employee's current photo. */
export interface PhotoLocator {
  /**
   * The blob name of the employee's current photo; `undefined` when the employee has no photo
   * (or does not exist).
   *
   * @throws {DomainError} on storage faults.
   */
  currentPhotoBlob(department: string, employeeId: string): Promise<string | undefined>;
}

/** Name of the employee entity property that holds the current photo's blob name. */
export const PHOTO_BLOB_PROPERTY = 'PhotoBlob';

/** A {@link PhotoLocator} that reads `PhotoBlob` from the employee entity in `employees`. */
export function employeeEntityPhotoLocator(employees: TableClient): PhotoLocator {
  return {
    async currentPhotoBlob(department, employeeId) {
      const partitionKey = departmentPartitionKey(department);
      const rowKey = employeeRowKey(employeeId);
      const entity = await withStorageErrors(async () => {
        try {
          return await employees.getEntity<Record<string, unknown>>(partitionKey, rowKey, {
            queryOptions: { select: [PHOTO_BLOB_PROPERTY] },
          });
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      });
      const blob = entity?.[PHOTO_BLOB_PROPERTY];
      return typeof blob === 'string' && blob !== '' ? blob : undefined;
    },
  };
}
