/**
 * The index audit run in-process: the audit orchestration's own activities called in the order
 * its orchestrator calls them (department pages, each department page by page carrying the step
 * each page returns, then the organisation-wide last-name index page by page), so tests check convergence with
 * the one audit the application ships.
 */
import { createContext } from '../../src/directory/context';
import type { IndexStores } from '../../src/indexing/indexStores';
import {
  auditDepartmentPageActivity,
  auditOrgLastNamesActivity,
  FIRST_AUDIT_STEP,
  listDepartmentPageActivity,
  type AuditServices,
  type DepartmentAuditStep,
  type OrgLastNameStep,
} from '../../src/orchestrations/audit/auditActivities';
import {
  addCounts,
  mergeByIndex,
  type AuditCounts,
  type CountsByIndex,
} from '../../src/orchestrations/audit/auditCounts';

/** Audits (and with `repair`, fixes) every index of the directory behind `services`. */
export async function auditIndexesInProcess(
  services: AuditServices,
  options: { repair?: boolean; pageSize?: number; orgPageSize?: number } = {},
): Promise<CountsByIndex> {
  const repair = options.repair ?? false;
  const departments: string[] = [];
  let continuationToken: string | null = null;
  do {
    const page = await listDepartmentPageActivity(services, { continuationToken });
    departments.push(...page.departments);
    continuationToken = page.continuationToken;
  } while (continuationToken);
  const reports = await Promise.all(
    departments.map(async (department) => {
      const counts: CountsByIndex[] = [];
      let step: DepartmentAuditStep | null = FIRST_AUDIT_STEP;
      while (step) {
        const input = { department, repair, step, pageSize: options.pageSize };
        const page = await auditDepartmentPageActivity(services, input);
        counts.push(page.counts);
        step = page.next;
      }
      return mergeByIndex(...counts);
    }),
  );
  return mergeByIndex(...reports, {
    orgLastNames: await auditOrgLastNamesInProcess(services, repair, options.orgPageSize),
  });
}

/** The organisation-wide last-name audit, page by page as the orchestrator runs it. */
export async function auditOrgLastNamesInProcess(
  services: AuditServices,
  repair: boolean,
  pageSize?: number,
): Promise<AuditCounts> {
  const pages: AuditCounts[] = [];
  let after: OrgLastNameStep | undefined;
  do {
    const page = await auditOrgLastNamesActivity(services, { repair, after, pageSize });
    pages.push(page.counts);
    after = page.next ?? undefined;
  } while (after !== undefined);
  return addCounts(...pages);
}

/** The audit services over a directory's `Employees` table and its index stores. */
export function auditServicesFor(stores: IndexStores): AuditServices {
  return { directory: createContext({ employees: stores.employees }), indexStores: stores };
}

/**
 * The indexes that drifted, as `kind: missing m, stale s` lines (empty when the indexes match
 * the primaries), so a failing expectation names the index.
 */
export function driftOf(report: CountsByIndex): string[] {
  return Object.entries(report)
    .filter(([, counts]) => counts.missing > 0 || counts.stale > 0)
    .map(([kind, counts]) => `${kind}: missing ${counts.missing}, stale ${counts.stale}`);
}
