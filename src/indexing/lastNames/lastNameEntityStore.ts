/**
 * Organisation-wide last-name index, option 3: index entities in `EmployeeIndex`. Partition
 * `lastname_<name>` holds the member list (a JSON array of `Dept/000223`) in one or more shard
 * entities `part_000`, `part_001`, ..., and the drain fence `~fence` once a write has changed the
 * name (`change`, `add`, `remove`: every write holds it); one partition query reads them all.
 *
 * Size limit: a string property holds at most 64 KiB (32 K UTF-16 characters) and an entity 1 MiB.
 * A shard is kept under `maxShardChars` (default 30,000 characters); an addition that would pass it
 * goes into the first shard with room, or a new shard. Up to 1,000 shards per name (~ 400,000
 * members) — far beyond any real last name; a change touching more than 99 shards is written in
 * chained transactions ({@link submitChained}).
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { tookEffect, withStorageErrors } from '../../storage/storageFaults';
import {
  isIndexFenceRowKey,
  orgLastNamePartitionKey,
  orgLastNamePartitionKeyRange,
  orgLastNameShardRowKey,
  parseOrgLastNamePartitionKey,
  parseOrgLastNameShardRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import {
  decodeMember,
  encodeMember,
  parseMemberList,
  changeMember,
  encodeMemberPosition,
  parseMemberPosition,
  toRefs,
  type MemberPosition,
  type EmployeeRef,
  type LastNameStore,
  type Membership,
} from './lastNameStore';
import { indexFenceEntity } from '../employeeIndex/indexEntities';
import { RETRY, type Retry } from '../../storage/optimisticRetry';

/** Entity type of a shard. */
export const LAST_NAME_SHARD_TYPE = 'OrgLastNameIndex.v1';

/** Default characters of member list per shard (a string property holds 32 K characters). */
export const DEFAULT_MAX_SHARD_CHARS = 30_000;

/** Highest shard number ({@link orgLastNameShardRowKey}). */
const MAX_SHARD = 999;
/** Shards one {@link LastNameStore.membersPage} call reads at most (~1,500 members each). */
const MAX_SHARD_READS = 4;

interface Shard {
  number: number;
  members: string[];
  etag: string;
}

/** What a snapshot of one name holds: its shards and its partition's drain fence, as read. */
interface ListVersion {
  shards: Shard[];
  /** ETag of the fence entity; `undefined` when no drain has written the name yet. */
  fence: string | undefined;
}

/** Options of {@link entityLastNameStore}. */
export interface EntityLastNameStoreOptions {
  /** Most characters of one shard's member list (tests use a small value to force sharding). */
  maxShardChars?: number;
}

/** Operations of one entity group transaction at most (the service answers 400 above). */
export const MAX_TRANSACTION_OPERATIONS = 100;

/**
 * Submits the shard writes of one list change with the partition's fence, in chained transactions
 * of at most {@link MAX_TRANSACTION_OPERATIONS} operations (the fence and 99 shard writes): the
 * first conditional on the fence as the snapshot read it (or creating it), each next on the ETag
 * the previous one gave the fence. So the chain is one writer's: another change that reads the list
 * between two of them writes the fence, and the rest of the chain fails.
 *
 * What a reader sees between two transactions: some of the change's additions and removals and not
 * the others — each member is written by one action only (added to one shard, or removed from the
 * shards holding it), so never twice and never lost for good. What a crash (or a lost race) between
 * two leaves: the same partial list, and the round is lost; its outbox rows are still there (they
 * are deleted after every write of the round), and the round that drains them reads the list after
 * the fence and writes what is still missing.
 *
 * @returns the ETags the shard writes gave (by action) and the fence's last ETag; `undefined` when
 *   a transaction lost its condition, or a fence ETag to chain on was not returned.
 * @throws {DomainError} for storage faults.
 */
async function submitChained(
  table: TableClient,
  partitionKey: string,
  fence: string | undefined,
  actions: EntityGroupAction[],
): Promise<{ etags: (string | undefined)[]; fence: string | undefined } | undefined> {
  const perTransaction = MAX_TRANSACTION_OPERATIONS - 1;
  const etags: (string | undefined)[] = [];
  let fenceEtag = fence;
  for (let start = 0; start === 0 || start < actions.length; start += perTransaction) {
    if (start > 0 && fenceEtag === undefined) return undefined;
    const fenceEntity = indexFenceEntity(partitionKey);
    const chunk: EntityGroupAction[] = [
      fenceEtag === undefined
        ? ['create', fenceEntity]
        : ['update', fenceEntity, 'Replace', { etag: fenceEtag }],
      ...actions.slice(start, start + perTransaction),
    ];
    let responses: (string | undefined)[] = [];
    const applied = await tookEffect(async () => {
      const response = await submitEntityGroupTransaction(table, chunk);
      responses = chunk.map((_, i) => response.subResponses[i]?.etag);
    });
    if (!applied) return undefined;
    fenceEtag = responses[0];
    etags.push(...responses.slice(1));
  }
  return { etags, fence: fenceEtag };
}

/** Builds the option-3 store over the `EmployeeIndex` table client. */
export function entityLastNameStore(
  table: TableClient,
  options: EntityLastNameStoreOptions = {},
): LastNameStore {
  const maxChars = options.maxShardChars ?? DEFAULT_MAX_SHARD_CHARS;

  /** A name's shards and the drain fence of its partition (see `change`). */
  const readList = async (partitionKey: string): Promise<ListVersion> => {
    await ensureTable(table);
    return withStorageErrors(async () => {
      const list: ListVersion = { shards: [], fence: undefined };
      for await (const entity of table.listEntities<Record<string, unknown>>({
        queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
      })) {
        if (isIndexFenceRowKey(entity.rowKey ?? '')) list.fence = entity.etag;
        const number = parseOrgLastNameShardRowKey(entity.rowKey ?? '');
        if (number === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
        list.shards.push({ number, members: parseMemberList(entity.Members), etag: entity.etag });
      }
      return list;
    });
  };
  const readShards = async (partitionKey: string): Promise<Shard[]> =>
    (await readList(partitionKey)).shards;

  /** One shard write with the fence, as read (true), or `RETRY` when either changed since. */
  const writeFenced = async (
    partitionKey: string,
    fence: string | undefined,
    action: EntityGroupAction,
  ): Promise<true | Retry> =>
    (await submitChained(table, partitionKey, fence, [action])) === undefined ? RETRY : true;

  const shardEntity = (
    partitionKey: string,
    lastName: string,
    number: number,
    members: string[],
  ) => ({
    partitionKey,
    rowKey: orgLastNameShardRowKey(number),
    EntityType: LAST_NAME_SHARD_TYPE,
    LastName: lastName,
    Members: JSON.stringify(members),
  });

  const store: LastNameStore = {
    snapshot: async (lastName) => {
      const name = normalizeLastName(lastName);
      const list = await readList(orgLastNamePartitionKey(name));
      return { lastName: name, members: list.shards.flatMap((s) => s.members), version: list };
    },

    change: async (snapshot, add, remove) => {
      const name = snapshot.lastName;
      const partitionKey = orgLastNamePartitionKey(name);
      const { shards: read, fence } = snapshot.version as ListVersion;
      const removed = new Set(remove.map(encodeMember));
      const present = new Set(read.flatMap((s) => s.members).filter((m) => !removed.has(m)));
      const next = read.map((s) => ({ ...s, members: s.members.filter((m) => !removed.has(m)) }));
      const created: Shard[] = [];
      for (const member of add.map(encodeMember)) {
        if (present.has(member)) continue;
        present.add(member);
        const all = [...next, ...created];
        const fits = all.find((s) => JSON.stringify([...s.members, member]).length <= maxChars);
        if (fits) fits.members = [...fits.members, member].sort();
        else {
          const used = new Set(all.map((s) => s.number));
          let number = 0;
          while (used.has(number)) number++;
          created.push({ number, members: [member], etag: '' });
        }
      }
      // The partition's fence is written whatever else is (created once, never deleted): so the
      // change is conditional on the whole list as read, and a later change from an older
      // snapshot fails even when this one changed nothing (see LastNameStore.change).
      /** The shard writes; `after` refers to them by index. */
      const actions: EntityGroupAction[] = [];
      /** The shards after the change, with the action that wrote each (none: unchanged). */
      const after: { shard: Shard; action?: number }[] = [];
      next.forEach((shard, i) => {
        const before = read[i]!.members;
        const unchanged =
          shard.members.length === before.length && shard.members.every((m, j) => m === before[j]);
        if (unchanged) {
          after.push({ shard });
          return;
        }
        const key = { partitionKey, rowKey: orgLastNameShardRowKey(shard.number) };
        if (shard.members.length === 0) {
          actions.push(['delete', key, { etag: shard.etag }]);
          return;
        }
        const entity = shardEntity(partitionKey, name, shard.number, shard.members);
        after.push({
          shard,
          action: actions.push(['update', entity, 'Replace', { etag: shard.etag }]) - 1,
        });
      });
      for (const shard of created) {
        const entity = shardEntity(partitionKey, name, shard.number, shard.members);
        after.push({ shard, action: actions.push(['create', entity]) - 1 });
      }
      await ensureTable(table);
      const written = await submitChained(table, partitionKey, fence, actions);
      if (written === undefined) return undefined;
      // The ETags each write gave (a service that leaves one out: read the list instead).
      const shards: Shard[] = [];
      for (const { shard, action } of after) {
        const etag = action === undefined ? shard.etag : written.etags[action];
        if (etag === undefined) return store.snapshot(name);
        shards.push({ ...shard, etag });
      }
      if (written.fence === undefined) return store.snapshot(name);
      const version: ListVersion = { shards, fence: written.fence };
      return { lastName: name, members: version.shards.flatMap((s) => s.members), version };
    },

    // One member at a time (the v1 reconcile, the audit's repairs): the shard's write and the
    // partition's fence in one transaction, conditional on both as read (creating the fence when
    // the list has none), as `change` writes them. So the member list is one version, as the blob
    // store's blob is: an add or a remove fails when anything in the list changed since its read,
    // and a `change` from a snapshot older than it fails too, whichever shard it wrote.
    add: (lastName, member) =>
      changeMember('Last-name index', lastName, member, async (name, encoded) => {
        const partitionKey = orgLastNamePartitionKey(name);
        const { shards, fence } = await readList(partitionKey);
        if (shards.some((s) => s.members.includes(encoded))) return false;
        const fits = shards.find((s) => JSON.stringify([...s.members, encoded]).length <= maxChars);
        if (fits) {
          const members = [...fits.members, encoded].sort();
          const entity = shardEntity(partitionKey, name, fits.number, members);
          return writeFenced(partitionKey, fence, [
            'update',
            entity,
            'Replace',
            { etag: fits.etag },
          ]);
        }
        const used = new Set(shards.map((s) => s.number));
        let number = 0;
        while (used.has(number)) number++;
        const entity = shardEntity(partitionKey, name, number, [encoded]);
        return writeFenced(partitionKey, fence, ['create', entity]);
      }),

    remove: (lastName, member) =>
      changeMember('Last-name index', lastName, member, async (name, encoded) => {
        const partitionKey = orgLastNamePartitionKey(name);
        const { shards, fence } = await readList(partitionKey);
        const holding = shards.find((s) => s.members.includes(encoded));
        if (!holding) return false;
        // An emptied shard is kept (listing nobody), never deleted: with the fence, the list never
        // goes back to absent (see LastNameStore.change).
        const members = holding.members.filter((m) => m !== encoded);
        const entity = shardEntity(partitionKey, name, holding.number, members);
        return writeFenced(partitionKey, fence, [
          'update',
          entity,
          'Replace',
          { etag: holding.etag },
        ]);
      }),

    members: async (lastName) => {
      const shards = await readShards(orgLastNamePartitionKey(normalizeLastName(lastName)));
      return [...new Set(shards.flatMap((s) => s.members))]
        .sort()
        .map((m) => decodeMember(m))
        .filter((m): m is EmployeeRef => m !== undefined);
    },

    membersPage: async (lastName, after, limit) => {
      const partitionKey = orgLastNamePartitionKey(normalizeLastName(lastName));
      const start = after === undefined ? { number: 0, member: '' } : parseMemberPosition(after, 3);
      await ensureTable(table);
      return withStorageErrors(async () => {
        // One shard per request, from the position's shard on (the fence row sorts after them).
        const pages = table
          .listEntities<Record<string, unknown>>({
            queryOptions: {
              filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${orgLastNameShardRowKey(start.number)} and RowKey le ${orgLastNameShardRowKey(MAX_SHARD)}`,
            },
          })
          .byPage({ maxPageSize: 1 });
        const members: EmployeeRef[] = [];
        let position: MemberPosition | undefined = start;
        let reads = 0;
        for await (const page of pages) {
          reads++;
          for (const entity of page) {
            const number = parseOrgLastNameShardRowKey(entity.rowKey ?? '');
            if (number === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
            const from = number === start.number ? start.member : '';
            const rest = parseMemberList(entity.Members)
              .sort()
              .filter((m) => m > from);
            const taken = rest.slice(0, limit - members.length);
            members.push(...toRefs(taken));
            if (taken.length < rest.length) {
              return {
                members,
                next: encodeMemberPosition({ number, member: taken.at(-1) ?? from }),
              };
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
    },

    listPage: async (after, limit) => {
      await ensureTable(table);
      const range = orgLastNamePartitionKeyRange();
      return withStorageErrors(async () => {
        // One page of the SDK's own listing; its continuation token is the position.
        const pages = table
          .listEntities<Record<string, unknown>>({
            queryOptions: {
              filter: odata`PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}`,
            },
          })
          .byPage({ maxPageSize: limit, continuationToken: after });
        const memberships: Membership[] = [];
        for await (const page of pages) {
          for (const entity of page) {
            const lastName = parseOrgLastNamePartitionKey(entity.partitionKey ?? '');
            if (lastName === undefined || entity.EntityType !== LAST_NAME_SHARD_TYPE) continue;
            for (const member of toRefs(parseMemberList(entity.Members))) {
              memberships.push({ lastName, member });
            }
          }
          return { memberships, next: page.continuationToken };
        }
        return { memberships, next: undefined };
      });
    },

    all: async () => {
      await ensureTable(table);
      const range = orgLastNamePartitionKeyRange();
      const byName = new Map<string, EmployeeRef[]>();
      await withStorageErrors(async () => {
        for await (const entity of table.listEntities<Record<string, unknown>>({
          queryOptions: {
            filter: odata`PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}`,
          },
        })) {
          const name = parseOrgLastNamePartitionKey(entity.partitionKey ?? '');
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
    },
  };
  return store;
}
