/**
 * A relocation's deletions in a partition someone else may take over (docs/accounts.md
 * "Relocating a department"): a target's leftovers when a copy starts again, the source's rows
 * after the switch. Each transaction carries the partition's fence epoch, so the deleting stops
 * the moment anything moves the partition on, however long the caller was held in between.
 */
import type { TableClient } from '@azure/data-tables';
import {
  MAX_TRANSACTION_OPERATIONS,
  failedOperationIndex,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { isNotFound, isPreconditionFailed, toDomainError } from '../../storage/storageFaults';
import { FENCE_EPOCH_ROW_KEY } from '../../storage/keys/tables/placement';
import { whileBusy } from '../../storage/busyRetry';
import { advanceFenceEpoch, FENCE_ENTITY_TYPE, type FenceEpoch } from '../fenceEpoch';
import { fenceContended } from '../accountErrors';

/** Rounds one transaction of {@link deleteRowsWhileFenced} loses to other runs of its step. */
const MAX_FENCED_ROUNDS = 10;

/**
 * Deletes rows of one partition only while its fence stays at `fence` (brought there first, as
 * {@link advanceFenceEpoch} does): every transaction carries a rewrite of the fence epoch
 * conditional on its ETag, so once anything moves the partition on (another relocation fencing it
 * as its target, a switch opening it) nothing more is deleted, however long the caller was held
 * between its reads and its writes. A rewrite by another run of the same step (the same version)
 * is taken in stride; a row gone already is skipped. Arguments: the table client, the partition,
 * the row keys, the fence and the department (for errors), as {@link deleteFenced} takes them.
 *
 * @returns `'behind'` when the partition is past `fence.version` (what is left stays).
 * @throws {ThrottledError} `Relocating` when other runs kept winning.
 * @throws {DomainError} for storage faults.
 */
export async function deleteRowsWhileFenced(
  ...args: Parameters<typeof deleteFenced>
): Promise<'done' | 'behind'> {
  // Running it again is safe: the fence is where it was, and a row gone already is skipped.
  return whileBusy(() => deleteFenced(...args));
}

async function deleteFenced(
  client: TableClient,
  partitionKey: string,
  rowKeys: readonly string[],
  fence: FenceEpoch,
  department: string,
): Promise<'done' | 'behind'> {
  const keys = [...new Set(rowKeys)].filter((key) => key !== FENCE_EPOCH_ROW_KEY);
  const at = await advanceFenceEpoch(client, partitionKey, fence, department);
  if (at.outcome === 'behind') return 'behind';
  let etag = at.etag;
  const epoch = {
    partitionKey,
    rowKey: FENCE_EPOCH_ROW_KEY,
    EntityType: FENCE_ENTITY_TYPE,
    Version: fence.version,
    Open: fence.open,
  };
  /** One conditional transaction: applied, moved on, or a delete found its row gone. */
  const send = async (batch: readonly string[]): Promise<'done' | 'behind' | 'gone'> => {
    for (let round = 0; round < MAX_FENCED_ROUNDS; round++) {
      try {
        const response = await submitEntityGroupTransaction(client, [
          ['update', epoch, 'Replace', { etag }],
          ...batch.map((rowKey): EntityGroupAction => ['delete', { partitionKey, rowKey }]),
        ]);
        const next = response.subResponses[0]?.etag;
        if (next) etag = next;
        else {
          const now = await advanceFenceEpoch(client, partitionKey, fence, department);
          if (now.outcome === 'behind') return 'behind';
          etag = now.etag;
        }
        return 'done';
      } catch (error) {
        const index = failedOperationIndex(error);
        if (index !== undefined && index > 0 && isNotFound(error)) return 'gone';
        if (index !== 0 && !isPreconditionFailed(error)) throw toDomainError(error);
        // The epoch changed: moved on, or rewritten by another run of this step.
        const now = await advanceFenceEpoch(client, partitionKey, fence, department);
        if (now.outcome === 'behind') return 'behind';
        etag = now.etag;
      }
    }
    throw fenceContended(department, MAX_FENCED_ROUNDS);
  };
  // One operation of the budget is the epoch's: the rest are deletes.
  const size = MAX_TRANSACTION_OPERATIONS - 1;
  for (let i = 0; i < keys.length; i += size) {
    const batch = keys.slice(i, i + size);
    const outcome = await send(batch);
    if (outcome === 'behind') return 'behind';
    if (outcome === 'done') continue;
    // One of them was gone already: the others one by one.
    for (const rowKey of batch) {
      if ((await send([rowKey])) === 'behind') return 'behind';
    }
  }
  return 'done';
}
