/**
 * Audit of one department's listing copy (`.departments` partition) against the department
 * entity: the listing must copy the department's current `ListingVersion` and description. A
 * listing that differs (an older copy, or content written before listings carried versions) is
 * stale; the repair is the directory's own conditional copy
 * (directory/departments/departmentListing.ts), which replaces only an older copy, so it can never
 * overwrite what a concurrent `PUT` just listed. A listing whose department does not exist is an
 * orphan, removed conditionally on the ETag read.
 *
 * The audit finds departments through the listing and, for those it misses (a creating `PUT` that
 * failed between its two writes and was not retried), through their department entities
 * (departmentPages.ts `unlistedDepartments`): such a department's listing is `missing`, and the
 * repair lists it.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import type { DepartmentSummary } from '../../directory';
import { listingNeedsUpdate, syncDepartmentListing } from '../../directory/departments';
import { tookEffect } from '../../storage/storageFaults';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  DEPARTMENT_ROW_KEY,
  departmentListRowKey,
  departmentPartitionKey,
} from '../../storage/keys/tables/employees';
import type { AuditCounts } from './auditCounts';
import { readDepartment, readListingVersion } from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';

/**
 * Compares (and with `repair`, fixes) the listing of one department.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function auditDepartmentListing(
  table: TableAccess,
  department: string,
  repair: boolean,
): Promise<AuditCounts> {
  const rowKey = departmentListRowKey(department);
  const [listing, entity] = await Promise.all([
    readEntity(table, DEPARTMENT_LIST_PARTITION_KEY, rowKey),
    readEntity(table, departmentPartitionKey(department), DEPARTMENT_ROW_KEY),
  ]);
  const counts: AuditCounts = { checked: 1, missing: 0, stale: 0, repaired: 0 };
  const current = entity && readDepartment(entity);
  if (!entity || !current) {
    if (!listing) return { ...counts, checked: 0 };
    counts.stale = 1;
    const remove = () =>
      table.deleteEntity(DEPARTMENT_LIST_PARTITION_KEY, rowKey, { etag: listing.etag });
    if (repair && (await tookEffect(remove))) counts.repaired = 1;
    return counts;
  }
  const summary: DepartmentSummary = { name: department, description: current.description };
  const version = readListingVersion(entity);
  if (!listing) counts.missing = 1;
  else if (listingNeedsUpdate(listing, summary, version) === 'replace') counts.stale = 1;
  else return counts;
  if (repair && (await syncDepartmentListing(table, summary, version)) === 'written') {
    counts.repaired = 1;
  }
  return counts;
}
