/**
 * The audit's activities: list departments, audit one bounded page of a department's indexes
 * (the orchestrator carries the returned step to the next call), audit the organisation-wide
 * last-name index. Each reads before it writes and repairs only with
 * conditional or idempotent writes, so running one again is safe.
 */
import {
  allDepartments,
  departmentPage,
  unlistedDepartments,
  type DepartmentPage,
} from '../departmentPages';
import type { OrchestrationServices } from '../services';
import type { AuditCounts, CountsByIndex } from './auditCounts';
import { auditDepartmentListing } from './departmentListingAudit';
import { auditManagerCopy } from './managerCopyAudit';
import { auditEmployeePage, type EmployeePagePosition } from './employeePageAudit';
import { auditOrgLastNamePage, type OrgLastNamePosition } from './orgLastNameAudit';
import {
  auditByEmailPage,
  auditEmailCopyPage,
  auditLastNameEntityPage,
  type StoredPosition,
} from './storedEntryAudit';

/** What the audit's activities use: the directory's table and the outside indexes. */
export type AuditServices = Pick<OrchestrationServices, 'directory' | 'indexStores'>;

/**
 * Activity: one page of department names; the last page also names the departments the listing
 * misses ({@link unlistedDepartments}), so the audit reaches them (and repairs their listing).
 */
export async function listDepartmentPageActivity(
  services: AuditServices,
  input: { continuationToken: string | null },
): Promise<DepartmentPage> {
  const page = await departmentPage(services.directory, input.continuationToken);
  if (page.continuationToken !== null) return page;
  const unlisted = await unlistedDepartments(services.directory);
  return { ...page, departments: [...page.departments, ...unlisted] };
}

/** Employees (or stored entries) one department audit activity reads, unless told otherwise. */
export const AUDIT_PAGE_SIZE = 1_000;

/**
 * Where a department's audit stands: its passes, in order — the forward pass over employees, then
 * the reverse passes over email copies, by-email entries and last-name index entities, then the
 * listing copy — and the position within the pass.
 */
export type DepartmentAuditStep =
  | { pass: 'employees'; position: EmployeePagePosition }
  | { pass: 'emailCopies' | 'byEmail' | 'lastNames'; position: StoredPosition }
  | { pass: 'listing' };

/** The first step of a department's audit. */
export const FIRST_AUDIT_STEP: DepartmentAuditStep = {
  pass: 'employees',
  position: { token: null, afterId: null },
};

/** Input of one page of the per-department audit. */
export interface DepartmentAuditInput {
  department: string;
  repair: boolean;
  step: DepartmentAuditStep;
  /** Page size (tests use small ones); {@link AUDIT_PAGE_SIZE} when absent. */
  pageSize?: number;
}

/** One page's counts and the department's next step (`null` when its audit is complete). */
export interface DepartmentAuditPage {
  counts: CountsByIndex;
  next: DepartmentAuditStep | null;
}

const AFTER: Record<Exclude<DepartmentAuditStep['pass'], 'listing'>, DepartmentAuditStep> = {
  employees: { pass: 'emailCopies', position: { token: null } },
  emailCopies: { pass: 'byEmail', position: { token: null } },
  byEmail: { pass: 'lastNames', position: { token: null } },
  lastNames: { pass: 'listing' },
};

/**
 * Activity: audits (and with `repair`, fixes) one bounded page of a department's indexes — at most
 * `pageSize` employees with the entries they imply, or `pageSize` stored entries with the
 * primaries they name — and says where the department's audit continues. Safe to run again.
 *
 * @throws {ValidationError} for an invalid department name or position.
 * @throws {DomainError} for storage faults.
 */
export async function auditDepartmentPageActivity(
  services: AuditServices,
  input: DepartmentAuditInput,
  hooks: { beforeRepair?: () => Promise<void> } = {},
): Promise<DepartmentAuditPage> {
  const stores = services.indexStores;
  const table = await services.directory.table();
  const options = { repair: input.repair, pageSize: input.pageSize ?? AUDIT_PAGE_SIZE };
  const { step, department } = input;
  switch (step.pass) {
    case 'employees': {
      const deps = { directory: services.directory, table, stores, ...hooks };
      const page = await auditEmployeePage(deps, department, step.position, options);
      return {
        counts: page.counts,
        next: page.next ? { pass: 'employees', position: page.next } : AFTER.employees,
      };
    }
    case 'emailCopies':
    case 'byEmail':
    case 'lastNames': {
      const at = { department, position: step.position, ...options };
      const run = {
        emailCopies: () => auditEmailCopyPage(table, at),
        byEmail: () => auditByEmailPage(stores, at),
        lastNames: () => auditLastNameEntityPage(table, at),
      }[step.pass];
      const kind =
        step.pass === 'lastNames'
          ? 'lastNameEntities'
          : step.pass === 'byEmail'
            ? 'employeeIndexByEmail'
            : 'emailCopies';
      const page = await run();
      return {
        counts: { [kind]: page.counts },
        next: page.next ? { pass: step.pass, position: page.next } : AFTER[step.pass],
      };
    }
    case 'listing':
      return {
        counts: {
          departmentListing: await auditDepartmentListing(table, department, input.repair),
          managerCopy: await auditManagerCopy(table, department, input.repair, hooks),
        },
        next: null,
      };
  }
}

/**
 * Where the organisation-wide last-name audit continues: the position in the index, and the
 * departments the listing misses, found once by the first page (a scan of the table) and carried,
 * so every later page reads only the listing.
 */
export interface OrgLastNameStep {
  position: OrgLastNamePosition;
  unlisted: string[];
}

/** Input of one page of the organisation-wide last-name audit. */
export interface OrgLastNameAuditInput {
  repair: boolean;
  /** Where the previous page ended (its `next`); the first page when absent. */
  after?: OrgLastNameStep;
  /** Stored units per page (tests use small ones); `ORG_LAST_NAME_PAGE` when absent. */
  pageSize?: number;
}

/** One page's counts and where the audit continues (`null`: audited to the end). */
export interface OrgLastNameAuditPage {
  counts: AuditCounts;
  next: OrgLastNameStep | null;
}

/**
 * Activity: audits (and with `repair`, fixes) one bounded page of the organisation-wide last-name
 * index — the names of one page of the store, and those the departments hold in its key range —
 * and says where the audit continues. Safe to run again.
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when a member list kept
 *   changing.
 */
export async function auditOrgLastNamesActivity(
  services: AuditServices,
  input: OrgLastNameAuditInput,
  hooks: { beforeRepair?: () => Promise<void> } = {},
): Promise<OrgLastNameAuditPage> {
  // Every department, listed or not: members of one the listing misses are not orphans.
  const unlisted = input.after?.unlisted ?? (await unlistedDepartments(services.directory));
  const departments = [...(await allDepartments(services.directory)), ...unlisted];
  const page = await auditOrgLastNamePage(
    await services.directory.table(),
    services.indexStores.lastNames,
    departments,
    {
      repair: input.repair,
      ...(input.after === undefined ? {} : { after: input.after.position }),
      ...(input.pageSize === undefined ? {} : { pageSize: input.pageSize }),
    },
    hooks,
  );
  return { counts: page.counts, next: page.next && { position: page.next, unlisted } };
}
