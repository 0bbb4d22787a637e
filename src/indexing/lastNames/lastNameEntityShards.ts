/**
 * The entity store's shards (option 3, `lastNameEntityStore.ts`), grouped layout
 * (src/storage/keys/tables/employeeIndex.ts): the layout of one shard entity, reading one name's
 * shards with its drain fence, or many names' in a few queries ({@link readLists}), and writing
 * one name's shard changes together with its fence in chained transactions ({@link submitChained}).
 * Shared by the store's reads and writes.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { tookEffect, withStorageErrors } from '../../storage/storageFaults';
import {
  orgLastNameFenceRowKey,
  orgLastNameGroupKey,
  orgLastNameRowRange,
  orgLastNameShardRowKey,
  parseOrgLastNameRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { mapBounded } from '../../storage/parallel';
import { parseMemberList } from './lastNameStore';
import { IndexEntityTypes } from '../employeeIndex/indexEntities';

/** Entity type of a shard. */
export const LAST_NAME_SHARD_TYPE = 'OrgLastNameIndex.v1';

/** Highest shard number ({@link orgLastNameShardRowKey}). */
export const MAX_SHARD = 999;

/** Operations of one entity group transaction at most (the service answers 400 above). */
export const MAX_TRANSACTION_OPERATIONS = 100;

/**
 * Names one query of {@link readLists} reads at most: Azure allows 15 comparisons in a filter; one
 * is the PartitionKey, each name's range two.
 */
const NAMES_PER_QUERY = 7;

/** Queries of {@link readLists} in flight at once. */
const QUERIES_IN_FLIGHT = 8;

/** One shard of a name's member list, as read. */
export interface Shard {
  number: number;
  members: string[];
  etag: string;
}

/** What a snapshot of one name holds: its shards and its drain fence, as read. */
export interface ListVersion {
  shards: Shard[];
  /** ETag of the name's fence entity; `undefined` when no write has changed the name yet. */
  fence: string | undefined;
}

/** Adds one grouped row as read to the lists by name (rows of other names are dropped). */
function addRow(lists: Map<string, ListVersion>, entity: Record<string, unknown>): void {
  const row = parseOrgLastNameRowKey(String(entity.rowKey ?? ''));
  const list = row && lists.get(row.lastName);
  if (!row || !list) return;
  const etag = String(entity.etag ?? '');
  if (row.shard === undefined) list.fence = etag;
  else if (entity.EntityType === LAST_NAME_SHARD_TYPE) {
    list.shards.push({ number: row.shard, members: parseMemberList(entity.Members), etag });
  }
}

/**
 * The shards and fence of each of `names` (normalised), in one query per group of names sharing a
 * partition (at most {@link NAMES_PER_QUERY} names each).
 *
 * @throws {DomainError} for storage faults.
 */
export async function readLists(
  table: TableClient,
  names: readonly string[],
): Promise<Map<string, ListVersion>> {
  await ensureTable(table);
  const lists = new Map<string, ListVersion>();
  const byGroup = new Map<string, string[]>();
  for (const name of new Set(names.map(normalizeLastName))) {
    lists.set(name, { shards: [], fence: undefined });
    const group = orgLastNameGroupKey(name);
    byGroup.set(group, [...(byGroup.get(group) ?? []), name]);
  }
  const queries: { group: string; names: string[] }[] = [];
  for (const [group, inGroup] of byGroup) {
    for (let i = 0; i < inGroup.length; i += NAMES_PER_QUERY) {
      queries.push({ group, names: inGroup.slice(i, i + NAMES_PER_QUERY) });
    }
  }
  await withStorageErrors(() =>
    mapBounded(queries, QUERIES_IN_FLIGHT, async ({ group, names: some }) => {
      const ranges = some.map((name) => {
        const range = orgLastNameRowRange(name);
        return odata`(RowKey ge ${range.ge} and RowKey lt ${range.lt})`;
      });
      const filter = `${odata`PartitionKey eq ${group}`} and (${ranges.join(' or ')})`;
      const entities = table.listEntities<Record<string, unknown>>({ queryOptions: { filter } });
      for await (const entity of entities) addRow(lists, entity);
    }),
  );
  for (const list of lists.values()) list.shards.sort((a, b) => a.number - b.number);
  return lists;
}

/**
 * One name's shards and its drain fence, in one query.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readList(table: TableClient, lastName: string): Promise<ListVersion> {
  const name = normalizeLastName(lastName);
  return (await readLists(table, [name])).get(name)!;
}

/** The entity of shard `number` of `lastName` (normalised), listing `members`. */
export function shardEntity(lastName: string, number: number, members: string[]) {
  return {
    partitionKey: orgLastNameGroupKey(lastName),
    rowKey: orgLastNameShardRowKey(lastName, number),
    EntityType: LAST_NAME_SHARD_TYPE,
    LastName: lastName,
    Members: JSON.stringify(members),
  };
}

/** The action writing a name's fence: created, or replaced under the ETag it was read with. */
export function fenceAction(lastName: string, fence: string | undefined): EntityGroupAction {
  const entity = {
    partitionKey: orgLastNameGroupKey(lastName),
    rowKey: orgLastNameFenceRowKey(lastName),
    EntityType: IndexEntityTypes.fence,
  };
  return fence === undefined ? ['create', entity] : ['update', entity, 'Replace', { etag: fence }];
}

/** The lowest shard number none of `shards` uses. */
export function freeShardNumber(shards: readonly Pick<Shard, 'number'>[]): number {
  const used = new Set(shards.map((s) => s.number));
  let number = 0;
  while (used.has(number)) number++;
  return number;
}

/**
 * Submits the shard writes of one name's list change with its fence, in chained transactions of
 * at most {@link MAX_TRANSACTION_OPERATIONS} operations (the fence and 99 shard writes): the first
 * conditional on the fence as the snapshot read it (or creating it), each next on the ETag the
 * previous one gave the fence. So the chain is one writer's: another change that reads the list
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
export async function submitChained(
  table: TableClient,
  lastName: string,
  fence: string | undefined,
  actions: EntityGroupAction[],
): Promise<{ etags: (string | undefined)[]; fence: string | undefined } | undefined> {
  const perTransaction = MAX_TRANSACTION_OPERATIONS - 1;
  const etags: (string | undefined)[] = [];
  let fenceEtag = fence;
  for (let start = 0; start === 0 || start < actions.length; start += perTransaction) {
    if (start > 0 && fenceEtag === undefined) return undefined;
    const chunk = [
      fenceAction(lastName, fenceEtag),
      ...actions.slice(start, start + perTransaction),
    ];
    const responses = await submitOrLose(table, chunk);
    if (!responses) return undefined;
    fenceEtag = responses[0];
    etags.push(...responses.slice(1));
  }
  return { etags, fence: fenceEtag };
}

/**
 * One transaction: the ETag each action gave (by action), or `undefined` when a condition failed
 * (412, 409, 404: nothing was written).
 *
 * @throws {DomainError} for other storage faults.
 */
export async function submitOrLose(
  table: TableClient,
  actions: EntityGroupAction[],
): Promise<(string | undefined)[] | undefined> {
  let responses: (string | undefined)[] = [];
  const applied = await tookEffect(async () => {
    const response = await submitEntityGroupTransaction(table, actions);
    responses = actions.map((_, i) => response.subResponses[i]?.etag);
  });
  return applied ? responses : undefined;
}
