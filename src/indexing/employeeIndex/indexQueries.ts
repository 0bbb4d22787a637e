/**
 * Reads served by the asynchronous indexes:
 *
 * - by email with `consistency=eventual`: one point read of the `EmployeeIndex` email entry,
 *   which holds a copy of the employee (no second read);
 * - organisation-wide by last name: the members from the last-name index (option 1 or 3), then
 *   parallel point reads of one page of the employees (paged with an opaque continuation token). An
 *   employee whose current last name no longer matches (the index lags behind a rename) is left
 *   out, so answers are never wrong, at worst late.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { emailNotFound, pageSizeOf, type Employee, type Versioned } from '../../directory';
import { ensureTable } from '../../storage/createOnce';
import { mapBounded } from '../../storage/parallel';
import { decodeContinuationToken, encodeContinuationToken } from '../../storage/keys/continuation';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import { emailIndexPartitionKey, emailIndexRowKey } from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { IndexEntityTypes, indexEntryToEmployee } from './indexEntities';
import type { LastNameStore } from '../lastNames/lastNameStore';
import {
  parseEmployeeSelect,
  readEmployeeState,
  toEmployee,
  withFields,
  type EmployeeField,
} from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';

/**
 * The employee with this email in the department, from the inter-partition index (may lag behind
 * writes by the index lag). The ETag is the source email copy's, which `If-Match` accepts.
 *
 * @throws {NotFoundError} `EmailNotFound` when the index has no such entry.
 * @throws {DomainError} for storage faults.
 */
export async function getEmployeeByEmailEventually(
  index: TableAccess,
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

/** Index slices one page reads at most (each bounded by its store, see `membersPage`). */
const MAX_SLICES_PER_PAGE = 8;

function project(employee: Employee, fields: EmployeeField[] | undefined): Record<string, unknown> {
  if (!fields) return employee as unknown as Record<string, unknown>;
  const keys = { department: employee.department, employeeId: employee.employeeId };
  return withFields(keys, fields, (field) => employee[field]);
}

/**
 * A page of the organisation's employees with this last name (case-insensitive), in the index's
 * order (encoded `Department/id`; with the entity index, shard by shard). Each page reads bounded
 * slices of the member list (`LastNameStore.membersPage`: never the whole list), point-reads at
 * most twice `pageSize` of those members (16 in parallel) and drops any whose current last name no
 * longer matches or whose department the caller may not read. It stops when the page is full,
 * the list ends, or after {@link MAX_SLICES_PER_PAGE} slices or `2 × pageSize` point reads — so a
 * page may be short, even empty, with a continuation token. The token names the position in the
 * index reached; members added before it while a client pages are not returned by that paging
 * run (a snapshot-free walk), and one whose last name changes away and back during the run may
 * come twice with the entity index (it may be re-added to another shard).
 *
 * @throws {ValidationError} for an invalid page size, select field or continuation token.
 * @throws {DomainError} for storage faults.
 */
export async function findEmployeesAcrossOrganisation(
  employees: TableAccess,
  lastNames: LastNameStore,
  lastName: string,
  options: OrgLastNameOptions = {},
): Promise<{ items: Record<string, unknown>[]; continuationToken: string | null }> {
  const pageSize = pageSizeOf(options.pageSize);
  const fields = parseEmployeeSelect(options.select);
  const wanted = normalizeLastName(lastName);
  const scope = lookupScope(wanted);
  let position = options.continuationToken
    ? decodeContinuationToken(scope, options.continuationToken).nextPartitionKey
    : undefined;
  const mayRead = options.mayReadDepartment ?? (() => true);

  const items: Record<string, unknown>[] = [];
  let pointReads = 0;
  for (let slices = 0; slices < MAX_SLICES_PER_PAGE; slices++) {
    const limit = Math.min(pageSize - items.length, 2 * pageSize - pointReads);
    if (limit <= 0) break;
    const slice = await lastNames.membersPage(wanted, position, limit);
    const readable = slice.members.filter((member) => mayRead(member.department));
    pointReads += readable.length;
    const found = await mapBounded(readable, 16, async (member) => {
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
    position = slice.next;
    if (position === undefined) break;
  }
  return {
    items,
    continuationToken:
      position === undefined
        ? null
        : encodeContinuationToken(scope, { nextPartitionKey: position }),
  };
}
