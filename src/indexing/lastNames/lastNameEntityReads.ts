/**
 * The entity store's reads (option 3, `lastNameEntityStore.ts`): one name's members, whole or in
 * bounded slices, and the whole index, whole or in bounded pages. None of them reads the fence.
 * A name's members include those an upgrade left in its old partition, until the sweep moves them
 * (legacyLastNames.ts); the whole index is the grouped one (the audit finds the rest missing).
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { withStorageErrors } from '../../storage/storageFaults';
import {
  legacyOrgLastNamePartitionKey,
  legacyOrgLastNameShardRowKey,
  orgLastNameGroupKey,
  orgLastNameGroupKeyRange,
  orgLastNameShardRowKey,
  parseLegacyOrgLastNameShardRowKey,
  parseOrgLastNameRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { foreignContinuationToken } from '../../storage/keys/keyErrors';
import { normalizeLastName } from '../../storage/keys/text';
import {
  decodeMember,
  encodeMemberPosition,
  parseMemberList,
  parseMemberPosition,
  toRefs,
  type EmployeeRef,
  type MemberPosition,
  type MemberSlice,
  type Membership,
  type MembershipPage,
} from './lastNameStore';
import { LAST_NAME_SHARD_TYPE, MAX_SHARD, readList } from './lastNameEntityShards';
import { legacyLayoutMayRemain, readLegacyList, type LegacyCheckOptions } from './legacyLastNames';

/** Shards one walk of {@link membersSlice} reads at most (~1,500 members each). */
const MAX_SHARD_READS = 4;

/** Position numbers from here on are shards of the name's old partition (legacyLastNames.ts). */
const LEGACY_POSITION = MAX_SHARD + 1;

/**
 * {@link LastNameStore.members} of the entity store: the grouped list and, while old partitions
 * may remain, the name's old one (legacyLastNames.ts), each member once.
 *
 * @throws {DomainError} for storage faults.
 */
export async function listMembers(
  table: TableClient,
  lastName: string,
  legacy: LegacyCheckOptions = {},
): Promise<EmployeeRef[]> {
  const { shards } = await readList(table, lastName);
  const members = shards.flatMap((s) => s.members);
  if (await legacyLayoutMayRemain(table, legacy)) {
    members.push(...(await readLegacyList(table, lastName)).members);
  }
  return toRefs([...new Set(members)].sort());
}

/** Where a name's shards are and how their rows are told apart. */
interface ShardWalk {
  partitionKey: string;
  /** RowKey of shard `number`. */
  rowKey: (number: number) => string;
  /** The shard number of a RowKey, `undefined` for a row that is no shard. */
  shardOf: (rowKey: string) => number | undefined;
  /**
   * Members to pass over, read once the walk meets one (in the old partition: those the grouped
   * list holds, so a member listed in both comes once).
   */
  passOver?: () => Promise<ReadonlySet<string>>;
}

/** The name's grouped shards. */
const groupedWalk = (name: string): ShardWalk => ({
  partitionKey: orgLastNameGroupKey(name),
  rowKey: (number) => orgLastNameShardRowKey(name, number),
  shardOf: (rowKey) => parseOrgLastNameRowKey(rowKey)?.shard,
});

/** The name's old partition, less what the grouped list holds. */
const legacyWalk = (table: TableClient, name: string): ShardWalk => ({
  partitionKey: legacyOrgLastNamePartitionKey(name),
  rowKey: legacyOrgLastNameShardRowKey,
  shardOf: parseLegacyOrgLastNameShardRowKey,
  passOver: async () => new Set((await readList(table, name)).shards.flatMap((s) => s.members)),
});

/**
 * At most `limit` encoded members of one walk's shards from `start` on, one shard per request, at
 * most {@link MAX_SHARD_READS} requests; `next` is `undefined` at the end of the shards.
 */
async function walkShards(
  table: TableClient,
  walk: ShardWalk,
  start: MemberPosition,
  limit: number,
): Promise<{ members: string[]; next: MemberPosition | undefined }> {
  // One shard per request, from the position's shard on (a fence sorts after them).
  const from = walk.rowKey(start.number);
  const through = walk.rowKey(MAX_SHARD);
  const pages = table
    .listEntities<Record<string, unknown>>({
      queryOptions: {
        filter: odata`PartitionKey eq ${walk.partitionKey} and RowKey ge ${from} and RowKey le ${through}`,
      },
    })
    .byPage({ maxPageSize: 1 });
  const members: string[] = [];
  let position: MemberPosition | undefined = start;
  let passOver: ReadonlySet<string> | undefined;
  let reads = 0;
  for await (const page of pages) {
    reads++;
    for (const entity of page) {
      const number = walk.shardOf(entity.rowKey ?? '');
      if (number === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
      const after = number === start.number ? start.member : '';
      let rest = parseMemberList(entity.Members)
        .sort()
        .filter((m) => m > after);
      if (walk.passOver && rest.length > 0) {
        passOver ??= await walk.passOver();
        rest = rest.filter((m) => !passOver!.has(m));
      }
      const taken = rest.slice(0, limit - members.length);
      members.push(...taken);
      if (taken.length < rest.length) {
        return { members, next: { number, member: taken.at(-1) ?? after } };
      }
      position = number < MAX_SHARD ? { number: number + 1, member: '' } : undefined;
    }
    if (position === undefined) return { members, next: undefined };
    if (members.length >= limit || reads >= MAX_SHARD_READS) return { members, next: position };
  }
  return { members, next: undefined };
}

/** A slice of the name's old partition from `start` (a position at or past LEGACY_POSITION). */
async function legacySlice(
  table: TableClient,
  name: string,
  start: MemberPosition,
  limit: number,
): Promise<MemberSlice> {
  if (limit <= 0) return { members: [], next: encodeMemberPosition(start) };
  const inner = { number: start.number - LEGACY_POSITION, member: start.member };
  const slice = await walkShards(table, legacyWalk(table, name), inner, limit);
  const next = slice.next && {
    number: slice.next.number + LEGACY_POSITION,
    member: slice.next.member,
  };
  return { members: toRefs(slice.members), next: next && encodeMemberPosition(next) };
}

/**
 * {@link LastNameStore.membersPage} of the entity store: the name's grouped shards, one per
 * request, from the position's shard on, at most {@link MAX_SHARD_READS} requests; then, while
 * old partitions may remain (legacyLastNames.ts), the name's old partition the same way (its
 * positions follow the grouped ones), less the members the grouped list holds.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for an `after` this store did not produce.
 * @throws {DomainError} for storage faults.
 */
export async function membersSlice(
  table: TableClient,
  lastName: string,
  after: string | undefined,
  limit: number,
  legacy: LegacyCheckOptions = {},
): Promise<MemberSlice> {
  const name = normalizeLastName(lastName);
  const start = after === undefined ? { number: 0, member: '' } : parsePosition(after);
  await ensureTable(table);
  if (start.number >= LEGACY_POSITION) {
    return withStorageErrors(() => legacySlice(table, name, start, limit));
  }
  const slice = await withStorageErrors(() => walkShards(table, groupedWalk(name), start, limit));
  const members = toRefs(slice.members);
  if (slice.next !== undefined) return { members, next: encodeMemberPosition(slice.next) };
  if (!(await legacyLayoutMayRemain(table, legacy))) return { members, next: undefined };
  // The grouped list is read to its end: the name's old partition follows.
  const rest = await withStorageErrors(() =>
    legacySlice(table, name, { number: LEGACY_POSITION, member: '' }, limit - members.length),
  );
  return { members: [...members, ...rest.members], next: rest.next };
}

/**
 * A slice position of {@link membersSlice}: a grouped shard (0-999) or an old one (1000-1999).
 *
 * @throws {ValidationError} `InvalidContinuationToken` for anything else.
 */
function parsePosition(after: string): MemberPosition {
  const position = parseMemberPosition(after, 4);
  if (position.number >= LEGACY_POSITION + MAX_SHARD + 1) throw foreignContinuationToken();
  return position;
}

/** The shard entities of every last name (`byPage` of it reads the index page by page). */
function listShardEntities(table: TableClient) {
  const range = orgLastNameGroupKeyRange();
  return table.listEntities<Record<string, unknown>>({
    queryOptions: { filter: odata`PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}` },
  });
}

/**
 * {@link LastNameStore.listPage} of the entity store: one page of the SDK's own listing; its
 * continuation token is the position.
 *
 * @throws {DomainError} for storage faults.
 */
export async function membershipsPage(
  table: TableClient,
  after: string | undefined,
  limit: number,
): Promise<MembershipPage> {
  await ensureTable(table);
  return withStorageErrors(async () => {
    const pages = listShardEntities(table).byPage({ maxPageSize: limit, continuationToken: after });
    const memberships: Membership[] = [];
    for await (const page of pages) {
      for (const entity of page) {
        const lastName = parseOrgLastNameRowKey(entity.rowKey ?? '')?.lastName;
        if (lastName === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
        for (const member of toRefs(parseMemberList(entity.Members))) {
          memberships.push({ lastName, member });
        }
      }
      return { memberships, next: page.continuationToken };
    }
    return { memberships, next: undefined };
  });
}

/**
 * {@link LastNameStore.all} of the entity store.
 *
 * @throws {DomainError} for storage faults.
 */
export async function allMembers(table: TableClient): Promise<Map<string, EmployeeRef[]>> {
  await ensureTable(table);
  const byName = new Map<string, EmployeeRef[]>();
  await withStorageErrors(async () => {
    for await (const entity of listShardEntities(table)) {
      const name = parseOrgLastNameRowKey(entity.rowKey ?? '')?.lastName;
      if (name === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
      const members = parseMemberList(entity.Members)
        .map((m) => decodeMember(m))
        .filter((m): m is EmployeeRef => m !== undefined);
      byName.set(name, [...(byName.get(name) ?? []), ...members]);
    }
  });
  // A list the drain emptied is kept as a fence (see `change`); it lists nobody.
  for (const [name, members] of byName) if (members.length === 0) byName.delete(name);
  return byName;
}
