/**
 * Audit of the organisation-wide last-name index (entity or blob store, whichever
 * `LASTNAME_INDEX_MODE` configures): every employee of every department must be a member of
 * exactly its own normalised last name.
 *
 * The stored index is read first, in bounded pages ({@link LastNameStore.listPage}), then the
 * primaries; before each repair the member list is read,
 * then the employee's primary entity again, and the repair is made only if it still applies, as a
 * change conditional on the list as read ({@link LastNameStore.change}), so a change that raced
 * the audit is not undone: a valid member is never removed, a deleted employee never added.
 */
import type { TableClient } from '@azure/data-tables';
import {
  encodeMember,
  type EmployeeRef,
  type LastNameStore,
  type Membership,
} from '../../indexing/lastNameStore';
import { departmentPartitionKey, employeeRowKeyRange, normalizeLastName } from '../../storage/keys';
import type { AuditCounts } from './auditCounts';
import { byKey, diffIndex } from './indexDiff';
import {
  isPrimaryEmployee,
  readEmployeeData,
  readEmployeeState,
} from '../../directory/storedEntities';
import { readWholeRange } from '../../storage/rangePages';

/**
 * Member-list shards (entity store) or lists (blob store) read per request of the stored index:
 * every read of the audit is bounded, however large the organisation.
 */
export const ORG_LAST_NAME_PAGE = 100;

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
  hooks: { beforeRepair?: () => Promise<void> } = {},
): Promise<AuditCounts> {
  const stored: Membership[] = [];
  let after: string | undefined;
  do {
    const page = await lastNames.listPage(after, ORG_LAST_NAME_PAGE);
    stored.push(...page.memberships);
    after = page.next;
  } while (after !== undefined);
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
  // The list is read BEFORE the employee is read again, and changed only if it is still exactly
  // as read: a concurrent change of the employee reaches the list through the outbox drain, whose
  // change always writes the list, so a repair decided from the older employee then fails.
  const fix = async ({ lastName, member }: Membership, add: boolean): Promise<boolean> => {
    const snapshot = await lastNames.snapshot(lastName);
    const listed = snapshot.members.includes(encodeMember(member));
    const belongs = (await currentLastName(member)) === lastName;
    if (listed === belongs) return false;
    await hooks.beforeRepair?.();
    const changed = await lastNames.change(snapshot, add ? [member] : [], add ? [] : [member]);
    return changed !== undefined;
  };
  for (const membership of diff.missing) {
    if (await fix(membership, true)) counts.repaired++;
  }
  for (const membership of diff.orphaned) {
    if (await fix(membership, false)) counts.repaired++;
  }
  return counts;
}
