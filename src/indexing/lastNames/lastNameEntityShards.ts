/**
 * The entity store's shards (option 3, `lastNameEntityStore.ts`): the layout of one shard
 * entity, reading a name's shards with its partition's drain fence, and writing shard changes
 * together with the fence in chained transactions ({@link submitChained}). Shared by the store's
 * reads and writes.
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
  orgLastNameShardRowKey,
  parseOrgLastNameShardRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { parseMemberList } from './lastNameStore';
import { indexFenceEntity } from '../employeeIndex/indexEntities';

/** Entity type of a shard. */
export const LAST_NAME_SHARD_TYPE = 'OrgLastNameIndex.v1';

/** Highest shard number ({@link orgLastNameShardRowKey}). */
export const MAX_SHARD = 999;

/** Operations of one entity group transaction at most (the service answers 400 above). */
export const MAX_TRANSACTION_OPERATIONS = 100;

/** One shard of a name's member list, as read. */
export interface Shard {
  number: number;
  members: string[];
  etag: string;
}

/** What a snapshot of one name holds: its shards and its partition's drain fence, as read. */
export interface ListVersion {
  shards: Shard[];
  /** ETag of the fence entity; `undefined` when no drain has written the name yet. */
  fence: string | undefined;
}

/**
 * A name's shards and the drain fence of its partition, in one partition query.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readList(table: TableClient, partitionKey: string): Promise<ListVersion> {
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
}

/** The entity of shard `number` of `lastName`, listing `members`. */
export function shardEntity(
  partitionKey: string,
  lastName: string,
  number: number,
  members: string[],
) {
  return {
    partitionKey,
    rowKey: orgLastNameShardRowKey(number),
    EntityType: LAST_NAME_SHARD_TYPE,
    LastName: lastName,
    Members: JSON.stringify(members),
  };
}

/** The lowest shard number none of `shards` uses. */
export function freeShardNumber(shards: readonly Pick<Shard, 'number'>[]): number {
  const used = new Set(shards.map((s) => s.number));
  let number = 0;
  while (used.has(number)) number++;
  return number;
}

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
export async function submitChained(
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
