/**
 * Reads served by the asynchronous indexes:
 *
 * - by email with `consistency=eventual`: one point read of the `EmployeeIndex` email entry,
 *   which holds a copy of the employee (no second read);
 * - organisation-wide by last name: the members from the last-name index (option 1 or 3), then
 *   parallel point reads of one page of the employees (paged with an opaque continuation token). An employee whose current last name no longer matches
 *   (the index lags behind a rename) is left out, so answers are never wrong, at worst late.
 */
import type { TableClient } from '@azure/data-tables';
import {
  emailNotFound,
  pageSizeOf,
  parseEmployeeSelect,
  readEmployeeState,
  readEntity,
  toEmployee,
  withFields,
  type Employee,
  type EmployeeField,
  type Versioned,
} from '../directory';
import { ensureTable } from '../storage/createOnce';
import { mapBounded } from '../storage/parallel';
import {
  decodeContinuationToken,
  departmentPartitionKey,
  emailIndexPartitionKey,
  encodeContinuationToken,
  emailIndexRowKey,
  normalizeLastName,
} from '../storage/keys';
import { IndexEntityTypes, indexEntryToEmployee } from './indexEntities';
import type { EmployeeRef, LastNameStore } from './lastNameStore';

/**
 * The employee with this email in the department, from the inter-partition index (may lag behind
 * writes by the index lag). The ETag is the source email copy's, which `If-Match` accepts.
 *
 * @throws {NotFoundError} `EmailNotFound` when the index has no such entry.
 * @throws {DomainError} for storage faults.
 */
export async function getEmployeeByEmailEventually(
  index: TableClient,
  department: string,
  email: string,
): Promise<Versioned<Employee>> {
  await ensureTable(index);
  const entity = await readEntity(
    index,
    emailIndexPartitionKey(department),
    emailIndexRowKey(email),
  );
  const employee =
    entity?.EntityType === IndexEntityTypes.byEmail
      ? indexEntryToEmployee(department, entity)
      : undefined;
  if (!entity || !employee) throw emailNotFound(department, email);
  return {
    value: employee,
    etag: typeof entity.SourceETag === 'string' ? entity.SourceETag : entity.etag,
  };
}

/** Paging and projection of an organisation-wide last-name lookup. */
export interface OrgLastNameOptions {
  /** 1-1000, default 100. */
  pageSize?: number;
  /** From the previous page of the same lookup. */
  continuationToken?: string;
  /** API field names; all fields when omitted. `department` and `employeeId` always come back. */
  select?: readonly string[];
  /**
   * Which departments' employees the caller may see; others are left out before paging, so pages
   * stay full and tokens stay valid. Default: every department.
   */
  mayReadDepartment?: (department: string) => boolean;
}

/** The token's scope: a token only continues the lookup of the same (normalised) last name. */
function lookupScope(wanted: string): string {
  return `org-lastname|${wanted}`;
}

function compareMembers(a: EmployeeRef, b: EmployeeRef): number {
  if (a.department !== b.department) return a.department < b.department ? -1 : 1;
  return a.employeeId < b.employeeId ? -1 : a.employeeId > b.employeeId ? 1 : 0;
}

function project(employee: Employee, fields: EmployeeField[] | undefined): Record<string, unknown> {
  if (!fields) return employee as unknown as Record<string, unknown>;
  const keys = { department: employee.department, employeeId: employee.employeeId };
  return withFields(keys, fields, (field) => employee[field]);
}

/**
 * A page of the organisation's employees with this last name (case-insensitive), ordered by
 * department and id. The index gives the members; each page point-reads at most `pageSize` of
 * them (16 in parallel) and drops any whose current last name no longer matches, then reads
 * further members until the page is full or the list ends — so a page may be short only at the
 * end. The continuation token names the last member examined; members added before it while a
 * client pages are not returned by that paging run (it is a snapshot-free walk in key order).
 *
 * @throws {ValidationError} for an invalid page size, select field or continuation token.
 * @throws {DomainError} for storage faults.
 */
export async function findEmployeesAcrossOrganisation(
  employees: TableClient,
  lastNames: LastNameStore,
  lastName: string,
  options: OrgLastNameOptions = {},
): Promise<{ items: Record<string, unknown>[]; continuationToken: string | null }> {
  const pageSize = pageSizeOf(options.pageSize);
  const fields = parseEmployeeSelect(options.select);
  const wanted = normalizeLastName(lastName);
  const scope = lookupScope(wanted);
  const after = options.continuationToken
    ? decodeContinuationToken(scope, options.continuationToken)
    : undefined;
  const mayRead = options.mayReadDepartment ?? (() => true);
  const members = (await lastNames.members(wanted))
    .filter((member) => mayRead(member.department))
    .sort(compareMembers);
  let next = after
    ? members.findIndex(
        (m) =>
          compareMembers(m, {
            department: after.nextPartitionKey,
            employeeId: after.nextRowKey ?? '',
          }) > 0,
      )
    : 0;
  if (next < 0) next = members.length;

  const items: Record<string, unknown>[] = [];
  while (items.length < pageSize && next < members.length) {
    const batch = members.slice(next, next + (pageSize - items.length));
    next += batch.length;
    const found = await mapBounded(batch, 16, async (member) => {
      const state = await readEmployeeState(
        employees,
        departmentPartitionKey(member.department),
        member.employeeId,
      );
      return state && normalizeLastName(state.data.lastName) === wanted
        ? project(toEmployee(member.department, state.data), fields)
        : undefined;
    });
    for (const item of found) if (item !== undefined) items.push(item);
  }
  const last = members[next - 1];
  return {
    items,
    continuationToken:
      next < members.length && last
        ? encodeContinuationToken(scope, {
            nextPartitionKey: last.department,
            nextRowKey: last.employeeId,
          })
        : null,
  };
}
