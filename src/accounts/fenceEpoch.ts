/**
 * The fence rows of one partition (docs/accounts.md "The fence"):
 *
 * - the epoch row `~placement`: the placement version the partition was last brought to, and
 *   whether it is open for writes at that version — changed only conditionally on its ETag, so its
 *   version only ever rises, whoever brings it up (a writer that found no fence, or a relocation);
 * - the open row `~placement_open_<version>`, present exactly while the epoch says open: every
 *   fenced write merges it with `If-Match: *` in its own transaction, so a write fails, whole,
 *   once the partition is closed or moved to a newer version, without any extra request while it
 *   is open.
 * Glossary: "epoch" (docs/glossary.md).
 */
import type { TableClient } from '@azure/data-tables';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../storage/tables/entityGroupTransaction';
import { readEntity } from '../storage/tables/entities';
import { tookEffect } from '../storage/storageFaults';
import { ensureTable } from '../storage/createOnce';
import { FENCE_EPOCH_ROW_KEY, fenceOpenRowKey } from '../storage/keys/tables/placement';
import { fenceContended } from './accountErrors';
import { RETRY, retryOptimistically } from '../storage/optimisticRetry';

/** The entity type of every fence row. */
export const FENCE_ENTITY_TYPE = 'PartitionFence.v1';

/** Rounds against other advancers of one partition before giving up. */
const MAX_ROUNDS = 10;

/** A partition's fence as stored. */
export interface FenceEpoch {
  version: number;
  open: boolean;
}

/**
 * The epoch of a partition, or `undefined` when it has none (never fenced).
 *
 * @throws {DomainError} for storage faults.
 */
export async function readFenceEpoch(
  table: TableClient,
  partitionKey: string,
): Promise<(FenceEpoch & { etag: string }) | undefined> {
  const entity = await readEntity(table, partitionKey, FENCE_EPOCH_ROW_KEY);
  if (!entity) return undefined;
  return { version: Number(entity.Version), open: entity.Open === true, etag: entity.etag };
}

/**
 * Brings a partition's fence to `target` (open or closed at that version): the epoch row and the
 * open rows change in one transaction, conditional on the epoch as read.
 *
 * @param department - for the error message.
 * @returns `'done'` when the partition is at `target.version` (whoever brought it there), or
 *   `'behind'` when it is already at a newer version: the caller's placement is out of date.
 * @throws {ThrottledError} `Relocating` when other advancers kept winning.
 * @throws {DomainError} for storage faults.
 */
export async function advanceFence(
  table: TableClient,
  partitionKey: string,
  target: FenceEpoch,
  department: string,
): Promise<'done' | 'behind'> {
  return (await advanceFenceEpoch(table, partitionKey, target, department)).outcome;
}

/**
 * {@link advanceFence}, answering also the epoch row's ETag once it is at `target.version`: a
 * transaction that carries a conditional rewrite of the epoch with it applies only while the
 * partition stays there (the relocation's deletions, fencedDelete.ts).
 *
 * @throws {ThrottledError} `Relocating` when other advancers kept winning.
 * @throws {DomainError} for storage faults.
 */
export async function advanceFenceEpoch(
  table: TableClient,
  partitionKey: string,
  target: FenceEpoch,
  department: string,
): Promise<{ outcome: 'done'; etag: string } | { outcome: 'behind' }> {
  await ensureTable(table);
  const retry = { maxAttempts: MAX_ROUNDS, giveUp: (n: number) => fenceContended(department, n) };
  return retryOptimistically(retry, async () => {
    const epoch = await readFenceEpoch(table, partitionKey);
    if (epoch && epoch.version > target.version) return { outcome: 'behind' as const };
    if (epoch && epoch.version === target.version) {
      return { outcome: 'done' as const, etag: epoch.etag };
    }
    const row = {
      partitionKey,
      rowKey: FENCE_EPOCH_ROW_KEY,
      EntityType: FENCE_ENTITY_TYPE,
      Version: target.version,
      Open: target.open,
    };
    const actions: EntityGroupAction[] = [
      epoch ? ['update', row, 'Replace', { etag: epoch.etag }] : ['create', row],
    ];
    if (epoch?.open) {
      actions.push(['delete', { partitionKey, rowKey: fenceOpenRowKey(epoch.version) }]);
    }
    if (target.open) {
      actions.push([
        'create',
        { partitionKey, rowKey: fenceOpenRowKey(target.version), EntityType: FENCE_ENTITY_TYPE },
      ]);
    }
    let etag: string | undefined;
    const applied = await tookEffect(async () => {
      etag = (await submitEntityGroupTransaction(table, actions)).subResponses[0]?.etag;
    });
    // Without an ETag in the answer, the next round reads it.
    if (applied && etag) return { outcome: 'done' as const, etag };
    return RETRY;
  });
}
