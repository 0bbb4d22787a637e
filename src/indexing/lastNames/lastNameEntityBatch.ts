/**
 * Many names at once in the entity store (option 3): the snapshots of a drain round's names in a
 * few queries, and their changes in one entity group transaction per partition of names
 * (src/storage/keys/tables/employeeIndex.ts) instead of one per name. Each name's actions in such
 * a transaction are conditional on its own rows as read (its fence, its shards), so the batch
 * takes effect only if every name in it is still as read; when one is not, nothing is written and
 * each name of the batch is written alone, so the others do not lose for it.
 */
import type { TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';
import { orgLastNameGroupKey } from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { mapBounded } from '../../storage/parallel';
import { packTransactions } from '../../storage/tables/transactionPacking';
import type { ListChange, MemberListSnapshot } from './lastNameStore';
import {
  fenceAction,
  MAX_TRANSACTION_OPERATIONS,
  readLists,
  submitOrLose,
  type ListVersion,
} from './lastNameEntityShards';
import { changeList, planChange, writtenList, type ShardWrites } from './lastNameEntityChange';

/** Transactions (or single-name writes) in flight at once. */
const WRITES_IN_FLIGHT = 8;

/**
 * {@link LastNameStore.snapshots} of the entity store.
 *
 * @throws {DomainError} for storage faults.
 */
export async function snapshotLists(
  table: TableClient,
  names: readonly string[],
): Promise<MemberListSnapshot[]> {
  const lists = await readLists(table, names);
  return names.map((lastName) => {
    const name = normalizeLastName(lastName);
    const version = lists.get(name)!;
    return { lastName: name, members: version.shards.flatMap((s) => s.members), version };
  });
}

/** One name's planned writes within a batch. */
interface Planned {
  index: number;
  change: ListChange;
  writes: ShardWrites;
}

/**
 * {@link LastNameStore.changes} of the entity store: the names of one partition in shared
 * transactions (a name too large for one goes alone, chained). A batch that loses a condition
 * wrote nothing: its names are then written one by one, each conditional on its own snapshot.
 *
 * @returns each list as written, or `undefined` where it changed since its snapshot (by index).
 * @throws {DomainError} for storage faults.
 */
export async function changeLists(
  table: TableClient,
  maxChars: number,
  changes: readonly ListChange[],
): Promise<(MemberListSnapshot | undefined)[]> {
  await ensureTable(table);
  const results = new Array<MemberListSnapshot | undefined>(changes.length);
  const grouped: Planned[] = [];
  const alone: Planned[] = [];
  const seen = new Set<string>();
  changes.forEach((change, index) => {
    const { snapshot, add, remove } = change;
    const planned = { index, change, writes: planChange(maxChars, snapshot, add, remove) };
    // A name twice in one batch could not share a transaction (one action per row): alone.
    const twice = seen.has(snapshot.lastName) || !seen.add(snapshot.lastName);
    if (twice || planned.writes.actions.length + 1 > MAX_TRANSACTION_OPERATIONS) {
      alone.push(planned);
    } else {
      grouped.push(planned);
    }
  });
  const writeAlone = async ({ index, change }: Planned): Promise<void> => {
    results[index] = await changeList(table, maxChars, change.snapshot, change.add, change.remove);
  };
  // Per partition of names, each name with its fence check.
  const batches = packTransactions(grouped, {
    operations: ({ writes }) => writes.actions.length + 1,
    partition: ({ change }) => orgLastNameGroupKey(change.snapshot.lastName),
  });
  await mapBounded([...batches, ...alone.map((p) => [p])], WRITES_IN_FLIGHT, async (batch) => {
    if (batch.length === 1) return writeAlone(batch[0]!);
    const actions: EntityGroupAction[] = [];
    const starts = batch.map(({ change, writes }) => {
      const { fence } = change.snapshot.version as ListVersion;
      const start = actions.length;
      actions.push(fenceAction(change.snapshot.lastName, fence), ...writes.actions);
      return start;
    });
    const etags = await submitOrLose(table, actions);
    if (!etags) {
      // Some name of the batch changed since its snapshot: nothing was written; each alone.
      for (const planned of batch) await writeAlone(planned);
      return;
    }
    for (const [i, { index, change, writes }] of batch.entries()) {
      const start = starts[i]!;
      const own = etags.slice(start + 1, start + 1 + writes.actions.length);
      results[index] = await writtenList(
        table,
        change.snapshot.lastName,
        writes,
        own,
        etags[start],
      );
    }
  });
  return results;
}
