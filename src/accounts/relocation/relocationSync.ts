/** Step 4 of a relocation (relocationSteps.ts): the last sync of what writes touched meanwhile. */
import type { TableClient } from '@azure/data-tables';
import { advanceFence } from '../fenceEpoch';
import { registeredTables } from '../departmentData';
import { readChangeMarkerKeys } from '../partitionFence';
import { PHOTO_BLOB_PROPERTY } from '../../photos/photoLocator';
import type { StoredEntity } from '../../storage/tables/entities';
import { isNotFound, withStorageErrors } from '../../storage/storageFaults';
import { rowKeyRangeFilter } from '../../storage/tables/filters';
import { employeePartitionKey } from '../../storage/keys/tables/employeePartitions';
import {
  fenceChangeRowKeyRange,
  parsePartitionRegistryRowKey,
} from '../../storage/keys/tables/placement';
import { readWholeRange } from '../../storage/tables/rangePages';
import { mapBounded } from '../../storage/parallel';
import { whileBusy } from '../../storage/busyRetry';
import { copyBlobs } from './relocationBlobs';
import { photoUrlRewrite, relocationSources, syncRows } from './relocationRows';
import { account, ownPlacement, type ChunkStep, type RelocationCursor } from './relocationSteps';

/**
 * Change markers one sync chunk handles at most (each names the keys of one transaction, at most
 * 98; a write names a handful): their keys are read and written together.
 */
const MARKERS_PER_CHUNK = 100;

/** One page of a partition's change markers of `version`. */
async function readMarkerPage(
  client: TableClient,
  partitionKey: string,
  version: number,
  token: string | undefined,
  max: number,
): Promise<{ markers: StoredEntity[]; next: string | undefined }> {
  return whileBusy(() =>
    withStorageErrors(async () => {
      let page;
      try {
        page = await client
          .listEntities<Record<string, unknown>>({
            queryOptions: {
              filter: rowKeyRangeFilter(partitionKey, fenceChangeRowKeyRange(version)),
            },
          })
          .byPage({ maxPageSize: max, continuationToken: token })
          .next();
      } catch (error) {
        if (isNotFound(error)) return { markers: [], next: undefined };
        throw error;
      }
      if (page.done) return { markers: [], next: undefined };
      return {
        markers: page.value as StoredEntity[],
        next: page.value.continuationToken ?? undefined,
      };
    }),
  );
}

/**
 * Copies again, exactly, what the writes made while copying touched (step 4), one page of one
 * fixed partition's change markers per call; a registry key in the department partition's markers
 * names a per-employee partition written meanwhile, which is closed and synced on the spot.
 * Every read and write waits out a busy account (busyRetry.ts) on its own: the writes are frozen
 * meanwhile, and a chunk that failed whole would start its reads over (docs/targets.md).
 *
 * @throws {DomainError} for storage faults (the activity is retried; syncing again is harmless).
 */
export const syncChunk: ChunkStep = async (deps, plan, cursor = { source: 0 }) => {
  await ownPlacement(deps, plan);
  const from = account(deps, plan.from).clients;
  const to = account(deps, plan.to).clients;
  const fixed = relocationSources(deps.tables, plan.department).filter(
    (s): s is Extract<typeof s, { kind: 'partition' }> => s.kind === 'partition',
  );
  const source = fixed[cursor.source];
  if (!source) return { next: undefined, rows: 0 };
  const photos = {
    from: from.container(deps.photosContainer),
    to: to.container(deps.photosContainer),
  };
  const rewrite = photoUrlRewrite(photos.from, photos.to);
  const sync = async (table: string, partitionKey: string, keys: string[]): Promise<number> => {
    const rows = await syncRows(from.table(table), to.table(table), partitionKey, keys, rewrite);
    const blobs = rows
      .map((row) => row[PHOTO_BLOB_PROPERTY])
      .filter((name): name is string => typeof name === 'string' && name !== '');
    await copyBlobs(photos.from, photos.to, blobs);
    return keys.length;
  };
  const page = await readMarkerPage(
    from.table(source.table),
    source.partitionKey,
    plan.version,
    cursor.token,
    MARKERS_PER_CHUNK,
  );
  // The keys of every marker of the page at once: one read of each, writes grouped.
  const keys = [...new Set(page.markers.flatMap(readChangeMarkerKeys))];
  let rows = await sync(source.table, source.partitionKey, keys);
  const tables = registeredTables(deps.tables);
  const written = source.table === deps.tables.employees ? keys : [];
  const registered = written.flatMap((key) => parsePartitionRegistryRowKey(key) ?? []);
  const perEmployee = await mapBounded(registered, 8, async (entry) => {
    // A per-employee partition written while copying: close it, then sync what it names.
    const table = tables[entry.table];
    const partitionKey = employeePartitionKey(plan.department, entry.employeeId);
    const closed = { version: plan.version + 1, open: false };
    await whileBusy(() => advanceFence(from.table(table), partitionKey, closed, plan.department));
    const markers = await whileBusy(() =>
      readWholeRange(from.table(table), { partitionKey, ...fenceChangeRowKeyRange(plan.version) }),
    );
    return sync(table, partitionKey, [...new Set(markers.flatMap(readChangeMarkerKeys))]);
  });
  rows += perEmployee.reduce((n, count) => n + count, 0);
  const next: RelocationCursor =
    page.next === undefined
      ? { source: cursor.source + 1 }
      : { source: cursor.source, token: page.next };
  return { next: fixed[next.source] ? next : undefined, rows };
};
