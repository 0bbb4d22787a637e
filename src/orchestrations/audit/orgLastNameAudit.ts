/**
 * Audit of the organisation-wide last-name index (entity or blob store, whichever
 * `LASTNAME_INDEX_MODE` configures): every employee of every department must be a member of
 * exactly its own normalised last name.
 *
 * The stored index is read first, then the primaries; before each repair the employee's primary
 * entity is read again and the repair is made only if it still applies (the stores' own add and
 * remove are idempotent and ETag-safe), so a change that raced the audit is not undone.
 */
import type { TableClient } from '@azure/data-tables';
import {
  isPrimaryEmployee,
  readEmployeeData,
  readEmployeeState,
  readWholeRange,
} from '../../directory';
import { encodeMember, type EmployeeRef, type LastNameStore } from '../../indexing/lastNameStore';
import { departmentPartitionKey, employeeRowKeyRange, normalizeLastName } from '../../storage/keys';
import type { AuditCounts } from './auditCounts';
import { byKey, diffIndex } from './indexDiff';

/** One (last name, member) pair of the index. */
interface Membership {
  lastName: string;
  member: EmployeeRef;
}

const keyOf = (m: Membership): string => `${m.lastName}\u0001${encodeMember(m.member)}`;

/** Properties needed to decode a primary employee (the rest is not read). */
const PRIMARY_SELECT = ['EntityType', 'EmployeeId', 'FirstName', 'LastName', 'Email'];

/**
 * Compares (and with `repair`, fixes) the organisation-wide last-name index against the primary
 * employees of `departments`.
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when a member list kept changing.
 */
export async function auditOrgLastNames(
  employees: TableClient,
  lastNames: LastNameStore,
  departments: readonly string[],
  repair: boolean,
): Promise<AuditCounts> {
  const stored: Membership[] = [];
  for (const [lastName, members] of await lastNames.all()) {
    for (const member of members) stored.push({ lastName, member });
  }
  const expected: Membership[] = [];
  for (const department of departments) {
    const primaries = await readWholeRange(
      employees,
      { partitionKey: departmentPartitionKey(department), ...employeeRowKeyRange() },
      PRIMARY_SELECT,
    );
    for (const primary of primaries.filter(isPrimaryEmployee)) {
      const data = readEmployeeData(primary)!;
      expected.push({
        lastName: normalizeLastName(data.lastName),
        member: { department, employeeId: data.employeeId },
      });
    }
  }
  const diff = diffIndex(byKey(expected, keyOf), byKey(stored, keyOf), () => true);
  const counts: AuditCounts = {
    checked: diff.checked,
    missing: diff.missing.length,
    stale: diff.orphaned.length,
    repaired: 0,
  };
  if (!repair) return counts;
  const currentLastName = async (member: EmployeeRef): Promise<string | undefined> => {
    const partitionKey = departmentPartitionKey(member.department);
    const state = await readEmployeeState(employees, partitionKey, member.employeeId);
    return state && normalizeLastName(state.data.lastName);
  };
  for (const { lastName, member } of diff.missing) {
    if ((await currentLastName(member)) !== lastName) continue;
    await lastNames.add(lastName, member);
    counts.repaired++;
  }
  for (const { lastName, member } of diff.orphaned) {
    if ((await currentLastName(member)) === lastName) continue;
    await lastNames.remove(lastName, member);
    counts.repaired++;
  }
  return counts;
}
