/**
 * The photo part of a move's copy: which blob a stored employee names, its checked content type,
 * and the copy of the source's blob to the target department's name. Shared by the first copy
 * (copyToTarget.ts) and its refresh (refreshCopy.ts).
 */
import type { PhotoBlobs } from '../../photos/dependencies';
import type { EmployeeData } from '../../directory';
import type { EmployeeState } from '../../directory/entities';
import { copyPhotoToDepartment } from '../../photos/photos';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../photos/photoLocator';
import type { MoveInput } from './moveRequest';

/** The photo blob a stored employee names (`''` for none). */
export function photoBlobOf(employee: EmployeeState): string {
  const blob = employee.entity[PHOTO_BLOB_PROPERTY];
  return typeof blob === 'string' ? blob : '';
}

/** The photo's checked content type on a stored employee. */
export function photoTypeOf(employee: EmployeeState): string {
  const type = employee.entity[PHOTO_TYPE_PROPERTY];
  return typeof type === 'string' ? type : '';
}

/** The employee data for the target, with its photo copied to the target department's name. */
export async function targetData(
  photos: PhotoBlobs,
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
