/** Blob names of employee photos. */
import { assertDepartment, assertEmployeeId } from '../identifiers';
import { assertSuffix } from '../time';

/** Blob name of one version of an employee photo: `Sales/000223/<version>`. */
export function photoBlobName(department: string, employeeId: string, version: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  assertSuffix(version);
  return `${department}/${employeeId}/${version}`;
}

/** Reverses {@link photoBlobName}. */
export function parsePhotoBlobName(
  blobName: string,
): { department: string; employeeId: string; version: string } | undefined {
  const match = /^([A-Za-z0-9 _-]{1,64})\/(\d{6})\/([A-Za-z0-9-]{1,64})$/.exec(blobName);
  return match ? { department: match[1]!, employeeId: match[2]!, version: match[3]! } : undefined;
}

/** Prefix of every photo blob of one employee. */
export function photoBlobPrefix(department: string, employeeId: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  return `${department}/${employeeId}/`;
}

/**
 * URL of one blob of a container: each path segment escaped as the Blob SDK escapes it, without
 * building a client per blob (a department name may hold spaces: `Human%20Resources/000223/v`).
 */
export function blobUrl(containerUrl: string, blobName: string): string {
  return `${containerUrl}/${blobName.split('/').map(encodeURIComponent).join('/')}`;
}
