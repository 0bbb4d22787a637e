/** Step 6 of a relocation (relocationSteps.ts): the source's rows and photos go. */
import { relocationLost } from '../accountErrors';
import { advanceFence } from '../fenceEpoch';
import { withStorageErrors } from '../../storage/storageFaults';
import { drainLeasePartitionKey } from '../../storage/keys/tables/employeeIndex';
import { mapBounded } from '../../storage/parallel';
import { readWholeRange } from '../../storage/tables/rangePages';
import { deleteRows, readBlobPage, readRowPage, relocationSources } from './relocationRows';
import {
  account,
  ownPlacement,
  type ChunkResult,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from './relocationSteps';

/**
 * Deletes one bounded chunk of the department from the source (step 6): rows (each partition
 * closed first, its fence epoch kept as a tombstone), then photos, then its drain lease.
 *
 * @throws {DomainError} for storage faults (the activity is retried; deleting again is harmless).
 */
export async function deleteChunk(
  deps: RelocationDeps,
  plan: RelocationPlan,
  cursor: RelocationCursor = { source: 0 },
): Promise<ChunkResult> {
  const placement = await ownPlacement(deps, plan);
  if (placement.account !== plan.to) throw relocationLost(plan.department, plan.relocation);
  const from = account(deps, plan.from).clients;
  const sources = relocationSources(deps.tables, plan.department);
  const source = sources[cursor.source];
  const after = (token: string | undefined): RelocationCursor | undefined =>
    token !== undefined
      ? { source: cursor.source, token }
      : cursor.source + 1 <= sources.length
        ? { source: cursor.source + 1 }
        : undefined;
  if (!source) {
    // Last: the department's drain lease (coordination only, never copied).
    const lease = from.table(deps.tables.employeeIndex);
    const rows = await readWholeRange(lease, {
      partitionKey: drainLeasePartitionKey(plan.department),
      ge: '',
      lt: '\uffff',
    }).catch(() => []);
    await deleteRows(lease, rows);
    return { next: undefined, rows: rows.length };
  }
  if (source.kind === 'photos') {
    const container = from.container(deps.photosContainer);
    const page = await readBlobPage(container, plan.department, cursor.token, deps.chunkRows);
    await mapBounded(page.names, 8, (name) =>
      withStorageErrors(() => container.getBlockBlobClient(name).deleteIfExists()),
    );
    return { next: after(page.next), rows: page.names.length };
  }
  const client = from.table(source.table);
  const page = await readRowPage(client, source, plan.department, cursor.token, deps.chunkRows, {
    withFenceRows: true,
  });
  const closed = { version: plan.version + 2, open: false };
  const partitions = [...new Set(page.rows.map((row) => row.partitionKey))];
  await mapBounded(partitions, 8, (partitionKey) =>
    advanceFence(client, partitionKey, closed, plan.department),
  );
  await deleteRows(client, page.rows);
  return { next: after(page.next), rows: page.rows.length };
}
