/**
 * Reads served by the asynchronous indexes:
 *
 * - by email with `consistency=eventual`: one point read of the `EmployeeIndex` email entry,
 *   which holds a copy of the employee (no second read);
 * - organisation-wide by last name: the members from the last-name index (option 1 or 3), then
 *   parallel point reads of the employees. An employee whose current last name no longer matches
 *   (the index lags behind a rename) is left out, so answers are never wrong, at worst late.
 */
import type { TableClient } from '@azure/data-tables';
import { emailNotFound } from '../directory/directoryErrors';
import { toEmployee, type Employee } from '../directory/employeeEntity';
import { readEmployeeState } from '../directory/employeeState';
import { readEntity } from '../directory/state';
import { ensureTable } from '../directory/tables';
import type { Versioned } from '../directory/versionCache';
import { mapBounded } from '../logins/mapBounded';
import {
  departmentPartitionKey,
  emailIndexPartitionKey,
  emailIndexRowKey,
  normalizeLastName,
} from '../storage/keys';
import { IndexEntityTypes, indexEntryToEmployee } from './indexEntities';
import type { LastNameStore } from './lastNameStore';

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

/** Most employees one organisation-wide last-name lookup returns. */
export const MAX_LAST_NAME_RESULTS = 1000;

/**
 * Every employee of the organisation with this last name (case-insensitive), ordered by
 * department and id; at most {@link MAX_LAST_NAME_RESULTS}.
 *
 * @throws {DomainError} for storage faults.
 */
export async function findEmployeesAcrossOrganisation(
  employees: TableClient,
  lastNames: LastNameStore,
  lastName: string,
): Promise<{ items: Employee[]; continuationToken: null }> {
  const wanted = normalizeLastName(lastName);
  const members = (await lastNames.members(wanted)).slice(0, MAX_LAST_NAME_RESULTS);
  const found = await mapBounded(members, 16, async (member) => {
    const state = await readEmployeeState(
      employees,
      departmentPartitionKey(member.department),
      member.employeeId,
    );
    return state && normalizeLastName(state.data.lastName) === wanted
      ? toEmployee(member.department, state.data)
      : undefined;
  });
  return { items: found.filter((e): e is Employee => e !== undefined), continuationToken: null };
}
