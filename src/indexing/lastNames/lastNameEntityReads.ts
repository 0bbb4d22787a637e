/**
 * The entity store's reads (option 3, `lastNameEntityStore.ts`): one name's members, whole or in
 * bounded slices, and the whole index, whole or in bounded pages. None of them reads the fence.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { withStorageErrors } from '../../storage/storageFaults';
import {
  orgLastNameGroupKey,
  orgLastNameGroupKeyRange,
  orgLastNameShardRowKey,
  parseOrgLastNameRowKey,
} from '../../storage/keys/tables/employeeIndex';
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

/** Shards one {@link LastNameStore.membersPage} call reads at most (~1,500 members each). */
const MAX_SHARD_READS = 4;

/**
 * {@link LastNameStore.members} of the entity store.
 *
 * @throws {DomainError} for storage faults.
 */
export async function listMembers(table: TableClient, lastName: string): Promise<EmployeeRef[]> {
  const { shards } = await readList(table, lastName);
  return toRefs([...new Set(shards.flatMap((s) => s.members))].sort());
}

/**
 * {@link LastNameStore.membersPage} of the entity store: one shard per request, from the
 * position's shard on, at most {@link MAX_SHARD_READS} requests.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for an `after` this store did not produce.
 * @throws {DomainError} for storage faults.
 */
export async function membersSlice(
  table: TableClient,
  lastName: string,
  after: string | undefined,
  limit: number,
): Promise<MemberSlice> {
  const name = normalizeLastName(lastName);
  const partitionKey = orgLastNameGroupKey(name);
  const start = after === undefined ? { number: 0, member: '' } : parseMemberPosition(after, 3);
  await ensureTable(table);
  return withStorageErrors(async () => {
    // One shard per request, from the position's shard on (the name's fence sorts after them).
    const from = orgLastNameShardRowKey(name, start.number);
    const through = orgLastNameShardRowKey(name, MAX_SHARD);
    const pages = table
      .listEntities<Record<string, unknown>>({
        queryOptions: {
          filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${from} and RowKey le ${through}`,
        },
      })
      .byPage({ maxPageSize: 1 });
    const members: EmployeeRef[] = [];
    let position: MemberPosition | undefined = start;
    let reads = 0;
    for await (const page of pages) {
      reads++;
      for (const entity of page) {
        const number = parseOrgLastNameRowKey(entity.rowKey ?? '')?.shard;
        if (number === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
        const from = number === start.number ? start.member : '';
        const rest = parseMemberList(entity.Members)
          .sort()
          .filter((m) => m > from);
        const taken = rest.slice(0, limit - members.length);
        members.push(...toRefs(taken));
        if (taken.length < rest.length) {
          return { members, next: encodeMemberPosition({ number, member: taken.at(-1) ?? from }) };
        }
        position = number < MAX_SHARD ? { number: number + 1, member: '' } : undefined;
      }
      if (position === undefined) return { members, next: undefined };
      if (members.length >= limit || reads >= MAX_SHARD_READS) {
        return { members, next: encodeMemberPosition(position) };
      }
    }
    return { members, next: undefined };
  });
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
