/**
 * The audit's activities: list departments, audit one department's indexes, audit the
 * organisation-wide last-name index. Each reads before it writes and repairs only with
 * conditional or idempotent writes, so running one again is safe.
 */
import { allDepartments, departmentPage, type DepartmentPage } from '../departmentPages';
import type { OrchestrationServices } from '../services';
import type { AuditCounts, CountsByIndex } from './auditCounts';
import { auditDepartmentListing } from './departmentListingAudit';
import { auditEmployeeIndex, readEmployeeIndexEntries } from './employeeIndexAudit';
import { auditOrphanReviews, readDepartmentReviews } from './orphanReviewAudit';
import { auditOrgLastNames } from './orgLastNameAudit';
import { auditSamePartitionIndexes } from './samePartitionAudit';

/** What the audit's activities use: the directory's table and the outside indexes. */
export type AuditServices = Pick<OrchestrationServices, 'directory' | 'indexStores'>;

/** Input of the per-department audit. */
export interface DepartmentAuditInput {
  department: string;
  repair: boolean;
}

/** Activity: one page of department names. */
export function listDepartmentPageActivity(
  services: AuditServices,
  input: { continuationToken: string | null },
): Promise<DepartmentPage> {
  return departmentPage(services.directory, input.continuationToken);
}

/**
 * Activity: audits (and with `repair`, fixes) a department's same-partition indexes, its
 * `EmployeeIndex` entries, reviews their employee does not list, and its listing copy. The
 * `EmployeeIndex` entries and the reviews are read before the primaries.
 */
export async function auditDepartmentActivity(
  services: AuditServices,
  input: DepartmentAuditInput,
): Promise<CountsByIndex> {
  const stores = services.indexStores;
  const table = await services.directory.table();
  const outside = await readEmployeeIndexEntries(stores.index, input.department);
  const reviews = await readDepartmentReviews(table, input.department);
  const samePartition = await auditSamePartitionIndexes(table, input.department, input.repair);
  const inter = await auditEmployeeIndex(
    stores,
    input.department,
    outside,
    samePartition.snapshot.primaries,
    input.repair,
  );
  const orphanReviewCounts = await auditOrphanReviews(
    table,
    reviews,
    samePartition.snapshot.primaries,
    input.repair,
  );
  const departmentListing = await auditDepartmentListing(table, input.department, input.repair);
  return {
    ...samePartition.counts,
    ...inter,
    orphanReviews: orphanReviewCounts,
    departmentListing,
  };
}

/** Activity: audits (and with `repair`, fixes) the organisation-wide last-name index. */
export async function auditOrgLastNamesActivity(
  services: AuditServices,
  input: { repair: boolean },
): Promise<AuditCounts> {
  const departments = await allDepartments(services.directory);
  return auditOrgLastNames(
    await services.directory.table(),
    services.indexStores.lastNames,
    departments,
    input.repair,
  );
}
