/**
 * Step 6 of a relocation (relocationSteps.ts): the source's rows and photos go, then the
 * department is released. Every deletion holds only while the source partition stays at this
 * relocation's version: a run held anywhere (an activity executed twice, one of them late) deletes
 * nothing once another relocation has moved the department on, even back into this account.
 */
import { relocationLost } from '../accountErrors';
import { advanceFence } from '../fenceEpoch';
import { tookEffect } from '../../storage/storageFaults';
import { submitEntityGroupTransaction } from '../../storage/tables/entityGroupTransaction';
import { drainLeasePartitionKey } from '../../storage/keys/tables/employeeIndex';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import { mapBounded } from '../../storage/parallel';
import { readWholeRange } from '../../storage/tables/rangePages';
import type { DepartmentPlacement } from '../placement';
import { deleteBlobAsListed, readBlobPage } from './relocationBlobs';
import { deleteRowsWhileFenced } from './fencedDelete';
import { readRowPage, relocationSources } from './relocationRows';
import {
  account,
  ownPlacement,
  type ChunkResult,
  type ChunkStep,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from './relocationSteps';

/**
 * Deletes one bounded chunk of the department from the source (step 6): rows (each partition
 * closed first, its fence epoch kept as a tombstone), then photos, then its drain lease; the last
 * chunk releases the department (`deleting` → `stable`, same version). A source partition found
 * past this relocation's version (`'behind'`) ends the deletion where it is: nothing more is
 * deleted, the department is released if it is still this relocation's, and what is left is
 * removed by the next relocation into this account.
 *
 * @throws {ConflictError} `RelocationLost` when the placement is no longer this relocation's.
 * @throws {DomainError} for storage faults (the activity is retried; deleting again is harmless).
 */
export const deleteChunk: ChunkStep = async (deps, plan, cursor = { source: 0 }) => {
  const placement = await ownPlacement(deps, plan);
  if (placement.account !== plan.to) throw relocationLost(plan.department, plan.relocation);
  // Released already: the last chunk ran (this is it again).
  if (placement.phase !== 'deleting') return { next: undefined, rows: 0 };
  const from = account(deps, plan.from).clients;
  const sources = relocationSources(deps.tables, plan.department);
  const source = sources[cursor.source];
  const closed = { version: plan.version + 2, open: false };
  const after = (token: string | undefined): RelocationCursor | undefined =>
    token !== undefined
      ? { source: cursor.source, token }
      : cursor.source + 1 <= sources.length
        ? { source: cursor.source + 1 }
        : undefined;
  const giveUp = async (rows: number): Promise<ChunkResult> => {
    await release(deps, plan);
    return { next: undefined, rows };
  };
  // What has no fence of its own (photos, the drain lease) is listed first, then the department
  // partition's fence checked: whoever moves it on does so before writing any of them again, and
  // what is written after the listing has another ETag than the one the deletion is bound to.
  const stillHere = async () =>
    (await advanceFence(
      from.table(deps.tables.employees),
      departmentPartitionKey(plan.department),
      closed,
      plan.department,
    )) === 'done';
  if (!source) {
    // Last: the department's drain lease (coordination only, never copied).
    const lease = from.table(deps.tables.employeeIndex);
    const rows = await readWholeRange(lease, {
      partitionKey: drainLeasePartitionKey(plan.department),
      ge: '',
      lt: '\uffff',
    }).catch(() => []);
    if (!(await stillHere())) return giveUp(0);
    await mapBounded(rows, 8, (row) =>
      tookEffect(() =>
        submitEntityGroupTransaction(lease, [
          ['delete', { partitionKey: row.partitionKey, rowKey: row.rowKey }, { etag: row.etag }],
        ]),
      ),
    );
    await release(deps, plan);
    return { next: undefined, rows: rows.length };
  }
  if (source.kind === 'photos') {
    const container = from.container(deps.photosContainer);
    const page = await readBlobPage(container, plan.department, cursor.token, deps.chunkRows);
    if (!(await stillHere())) return giveUp(0);
    await mapBounded(page.names, 8, (name, i) =>
      deleteBlobAsListed(container, name, page.etags[i]),
    );
    return { next: after(page.next), rows: page.names.length };
  }
  const client = from.table(source.table);
  const page = await readRowPage(client, source, plan.department, cursor.token, deps.chunkRows, {
    withFenceRows: true,
  });
  const byPartition = new Map<string, string[]>();
  for (const row of page.rows) {
    byPartition.set(row.partitionKey, [...(byPartition.get(row.partitionKey) ?? []), row.rowKey]);
  }
  const outcomes = await mapBounded([...byPartition], 8, ([partitionKey, keys]) =>
    deleteRowsWhileFenced(client, partitionKey, keys, closed, plan.department),
  );
  if (outcomes.includes('behind')) return giveUp(0);
  return { next: after(page.next), rows: page.rows.length };
};

/**
 * Gives the department back once its source is deleted: `deleting` at this relocation's last
 * version becomes `stable` there (nothing moves, so the version stays). Anything else is left.
 */
async function release(deps: RelocationDeps, plan: RelocationPlan): Promise<void> {
  const current: DepartmentPlacement = await deps.placement.ofDepartment(plan.department, {
    fresh: true,
  });
  if (
    current.relocation !== plan.relocation ||
    current.phase !== 'deleting' ||
    current.version !== plan.version + 2
  ) {
    return;
  }
  await deps.placement.change(current, {
    account: current.account,
    version: current.version,
    phase: 'stable',
  });
}
