/**
 * Audit of the organisation-wide last-name index (entity or blob store, whichever
 * `LASTNAME_INDEX_MODE` configures), one bounded page per activity: every employee of every
 * department must be a member of exactly its own normalised last name.
 *
 * The names are audited in consecutive ranges of their key text (`lastNameRowKey`): a page lists
 * one page of the store ({@link LastNameStore.listPage}), whose largest name closes the range, and
 * reads each department's index entities in that range (at most {@link ORG_LAST_NAME_PAGE} each;
 * a department with more closes the range earlier). Every membership found on either side is
 * checked against the employee's primary entity. A repair is a change conditional on the member
 * list as read ({@link LastNameStore.change}), decided after the employee is read again, so a
 * valid member is never removed, a deleted employee never added.
 * Why: docs/orchestrations.md "Index audit and repair".
 */
import { odata } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { currentLastName, readLastNameIndex } from '../../directory/entities';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import { encodeMember, toRefs, type LastNameStore, type Membership } from '../../indexing';
import { withStorageErrors } from '../../storage/storageFaults';
import {
  departmentPartitionKey,
  lastNameRowKey,
  lastNameRowKeyRange,
  parseLastNameRowKey,
} from '../../storage/keys/tables/employees';
import { mapBounded } from '../../storage/parallel';
import { noCounts, type AuditCounts } from './auditCounts';

/**
 * Stored units (member-list shards or lists) one page lists, and index entities one page reads
 * per department: every read of the audit is bounded, however large the organisation.
 */
export const ORG_LAST_NAME_PAGE = 100;

/** Point reads of primaries in flight at once. */
const PRIMARY_READS_IN_FLIGHT = 16;

/** Where the org-wide audit continues (the orchestrator carries it from page to page). */
export interface OrgLastNamePosition {
  /** Normalised last name: every name whose key sorts at or before it has been audited. */
  after: string;
  /** The store's listing position of the next page (`listPage`'s `after`); absent: the start. */
  cursor?: string;
  /**
   * The next page lists the same store page again (this one closed its range early): the names it
   * lists at or before `after` were audited already.
   */
  relist?: boolean;
}

/** One page's counts and where the audit continues (`null`: the index is audited to its end). */
export interface OrgLastNamePage {
  counts: AuditCounts;
  next: OrgLastNamePosition | null;
}

/** Options of one page. */
export interface OrgLastNamePageOptions {
  repair: boolean;
  /** Where to start; the first page when absent. */
  after?: OrgLastNamePosition;
  /** Units per page ({@link ORG_LAST_NAME_PAGE} when absent; tests use small ones). */
  pageSize?: number;
}

const keyOf = (name: string): string => lastNameRowKey(name);

/** Members (encoded) by normalised last name. */
type MembersByName = Map<string, Set<string>>;

function addMember(map: MembersByName, lastName: string, encoded: string): void {
  const members = map.get(lastName) ?? new Set<string>();
  members.add(encoded);
  map.set(lastName, members);
}

/**
 * One department's same-partition last-name index entities with keys in `(after, through]`
 * (open ends when absent), at most `limit`; `more` when the range holds more.
 *
 * @throws {DomainError} for storage faults.
 */
async function readDepartmentNames(
  table: TableAccess,
  department: string,
  range: { after?: string; through?: string },
  limit: number,
): Promise<{ entities: StoredEntity[]; more: boolean }> {
  const all = lastNameRowKeyRange();
  const partitionKey = departmentPartitionKey(department);
  let filter = odata`PartitionKey eq ${partitionKey} and RowKey ge ${all.ge} and RowKey lt ${all.lt}`;
  if (range.after !== undefined) filter += ` and ${odata`RowKey gt ${keyOf(range.after)}`}`;
  if (range.through !== undefined) filter += ` and ${odata`RowKey le ${keyOf(range.through)}`}`;
  return withStorageErrors(async () => {
    const pages = table
      .listEntities<Record<string, unknown>>({ queryOptions: { filter } })
      .byPage({ maxPageSize: limit });
    // The service may end a page early, even empty, with a continuation: read on until it returns
    // something or says there is nothing more.
    for await (const page of pages) {
      if (page.length === 0 && page.continuationToken) continue;
      return { entities: [...page] as unknown as StoredEntity[], more: !!page.continuationToken };
    }
    return { entities: [], more: false };
  });
}

/**
 * Audits (and with `repair`, fixes) one bounded page of the organisation-wide last-name index
 * against the departments' last-name index entities and the primaries they name.
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when a member list kept
 *   changing.
 */
export async function auditOrgLastNamePage(
  employees: TableAccess,
  lastNames: LastNameStore,
  departments: readonly string[],
  options: OrgLastNamePageOptions,
  hooks: { beforeRepair?: () => Promise<void> } = {},
): Promise<OrgLastNamePage> {
  const limit = options.pageSize ?? ORG_LAST_NAME_PAGE;
  const start = options.after;
  // '' sorts before every name: nothing is audited yet.
  const after = start?.after ?? '';
  const low = keyOf(after);
  const page = await lastNames.listPage(start?.cursor, limit);
  const listed: MembersByName = new Map();
  for (const { lastName, member } of page.memberships) {
    addMember(listed, lastName, encodeMember(member));
  }
  // The range closes at the largest name listed (that name may continue on the next page: it is
  // read whole below), or stays open (`undefined`) on the store's last page.
  const names = [...listed.keys()];
  const largest = names.reduce((max, n) => (keyOf(n) > keyOf(max) ? n : max), after);
  let through: string | undefined = page.next === undefined ? undefined : largest;
  let closedEarly = false;

  const expected: MembersByName = new Map();
  if (through === undefined || keyOf(through) > low) {
    for (const department of departments) {
      const read = await readDepartmentNames(employees, department, { after, through }, limit);
      for (const entity of read.entities) {
        const index = readLastNameIndex(entity);
        if (index === undefined) continue;
        for (const employeeId of index.ids) {
          addMember(expected, index.lastName, encodeMember({ department, employeeId }));
        }
      }
      const last = parseLastNameRowKey(read.entities.at(-1)?.rowKey ?? '');
      if (read.more && last !== undefined) {
        through = last;
        closedEarly = true;
      }
    }
  }
  const inRange = (name: string): boolean =>
    keyOf(name) > low && (through === undefined || keyOf(name) <= keyOf(through));
  for (const name of expected.keys()) if (!inRange(name)) expected.delete(name);

  // What the store holds for each name of the range: as listed, or read whole for a name the
  // listing may have cut (the largest, when more pages follow) or did not list.
  const stored: MembersByName = new Map();
  const partial = page.next === undefined ? undefined : largest;
  for (const name of new Set([...names.filter(inRange), ...expected.keys()])) {
    const members =
      listed.has(name) && name !== partial
        ? [...listed.get(name)!]
        : (await lastNames.snapshot(name)).members;
    stored.set(name, new Set(members));
  }
  // A name listed before the range (out of key order), on a page listed for the first time: its
  // own range audited it if a department holds it; otherwise it is audited here.
  if (!start?.relist) {
    for (const name of names.filter((n) => keyOf(n) < low)) {
      const held = await mapBounded(departments, PRIMARY_READS_IN_FLIGHT, (department) =>
        readEntity(employees, departmentPartitionKey(department), keyOf(name)),
      );
      const holds = (e: StoredEntity | undefined) => !!e && !!readLastNameIndex(e)?.ids.length;
      if (!held.some(holds)) stored.set(name, listed.get(name)!);
    }
  }

  const counts = await checkMemberships(employees, lastNames, stored, expected, options, hooks);
  // The next range starts after this one (never before where this page started).
  const end = through === undefined || keyOf(through) < low ? after : through;
  const cursor = closedEarly ? start?.cursor : page.next;
  const next: OrgLastNamePosition | null =
    !closedEarly && page.next === undefined
      ? null
      : {
          after: end,
          ...(cursor === undefined ? {} : { cursor }),
          ...(closedEarly ? { relist: true } : {}),
        };
  return { counts, next };
}

/**
 * Checks every (name, member) pair either side holds against the employee's primary, counts what
 * is missing or stale, and with `repair` fixes it (see the module comment).
 */
async function checkMemberships(
  employees: TableAccess,
  lastNames: LastNameStore,
  stored: MembersByName,
  expected: MembersByName,
  options: OrgLastNamePageOptions,
  hooks: { beforeRepair?: () => Promise<void> },
): Promise<AuditCounts> {
  const pairs: { membership: Membership; listed: boolean }[] = [];
  for (const name of new Set([...stored.keys(), ...expected.keys()])) {
    const onList = stored.get(name) ?? new Set<string>();
    for (const encoded of new Set([...onList, ...(expected.get(name) ?? [])])) {
      const [member] = toRefs([encoded]);
      if (member)
        pairs.push({ membership: { lastName: name, member }, listed: onList.has(encoded) });
    }
  }
  const belongs = await mapBounded(
    pairs,
    PRIMARY_READS_IN_FLIGHT,
    async ({ membership }) =>
      (await currentLastName(
        employees,
        membership.member.department,
        membership.member.employeeId,
      )) === membership.lastName,
  );
  const counts = noCounts();
  const drift: { membership: Membership; add: boolean }[] = [];
  pairs.forEach(({ membership, listed }, i) => {
    // A pair only a department's index entity names, of no such employee: not the org index's.
    if (!listed && !belongs[i]) return;
    counts.checked++;
    if (listed === belongs[i]) return;
    if (listed) counts.stale++;
    else counts.missing++;
    drift.push({ membership, add: !listed });
  });
  if (!options.repair) return counts;
  // The list is read BEFORE the employee is read again, and changed only if it is still exactly
  // as read: a concurrent change of the employee reaches the list through the outbox drain, whose
  // change always writes the list, so a repair decided from the older employee then fails.
  const fix = async ({ lastName, member }: Membership, add: boolean): Promise<boolean> => {
    const snapshot = await lastNames.snapshot(lastName);
    const onList = snapshot.members.includes(encodeMember(member));
    if (
      onList ===
      ((await currentLastName(employees, member.department, member.employeeId)) === lastName)
    )
      return false;
    await hooks.beforeRepair?.();
    const changed = await lastNames.change(snapshot, add ? [member] : [], add ? [] : [member]);
    return changed !== undefined;
  };
  for (const { membership, add } of drift.sort((a, b) => Number(b.add) - Number(a.add))) {
    if (await fix(membership, add)) counts.repaired++;
  }
  return counts;
}
