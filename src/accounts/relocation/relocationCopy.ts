/**
 * Step 2 of a relocation (relocationSteps.ts): the department's partitions fenced for the copy,
 * the target's leftovers removed, then its rows and photos copied page by page.
 */
import { relocationLost } from '../accountErrors';
import { registeredPartitions } from '../departmentData';
import { advanceFence, readFenceEpoch, type FenceEpoch } from '../fenceEpoch';
import { readEntity } from '../../storage/tables/entities';
import { mapBounded } from '../../storage/parallel';
import { withStorageErrors } from '../../storage/storageFaults';
import { whileBusy } from '../../storage/busyRetry';
import { copyBlobs, deleteBlobAsListed, readBlobPage } from './relocationBlobs';
import { deleteRowsWhileFenced } from './fencedDelete';
import {
  photoUrlRewrite,
  readRowPage,
  relocationSources,
  targetRow,
  upsertRows,
} from './relocationRows';
import {
  account,
  ownPlacement,
  type ChunkStep,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from './relocationSteps';

/**
 * Brings the department's partitions in the source to the copying version (so every later write
 * records its keys), the fixed ones and every registered per-employee partition; and those the
 * department occupied in the target before (an earlier relocation's) to the copying version,
 * closed: a deletion of that relocation still under way then stops before it reaches a copied row
 * (relocationDelete.ts).
 */
async function fenceForCopying(deps: RelocationDeps, plan: RelocationPlan): Promise<void> {
  const source = account(deps, plan.from).clients;
  const target = account(deps, plan.to).clients;
  const open = { version: plan.version, open: true };
  const closed = { version: plan.version, open: false };
  const fence = async (table: string, partitionKey: string): Promise<void> => {
    await advanceFence(source.table(table), partitionKey, open, plan.department);
    if (await readFenceEpoch(target.table(table), partitionKey)) {
      await advanceFence(target.table(table), partitionKey, closed, plan.department);
    }
  };
  for (const s of relocationSources(deps.tables, plan.department)) {
    if (s.kind !== 'partition') continue;
    await fence(s.table, s.partitionKey);
  }
  const employees = source.table(deps.tables.employees);
  const registered = await registeredPartitions(deps.tables, employees, plan.department);
  await mapBounded(registered, 8, (p) => fence(p.table, p.partitionKey));
}

/**
 * One bounded pass, from `cursor`, over what the target holds of the department: rows and photos
 * the source lacks (leftovers of an earlier relocation whose deletion gave up, or stale copies)
 * are removed, so the copy leaves the target holding exactly the source's rows. Rows go only while
 * their target partition stays fenced for this copy (a late run after the switch deletes nothing),
 * photos only as listed (a photo uploaded since is kept). Running it again is harmless.
 *
 * @returns where the next pass resumes, or the copy's start once the target is clear.
 * @throws {ConflictError} `RelocationLost` when a target partition moved past the copy.
 */
async function clearTarget(
  deps: RelocationDeps,
  plan: RelocationPlan,
  cursor: RelocationCursor,
): Promise<RelocationCursor> {
  const from = account(deps, plan.from).clients;
  const to = account(deps, plan.to).clients;
  const sources = relocationSources(deps.tables, plan.department);
  const closed: FenceEpoch = { version: plan.version, open: false };
  let at: { source: number; token?: string } = { source: cursor.source, token: cursor.token };
  // Bounded by rows; an empty source costs its one read, so an empty target clears in one pass.
  for (let budget = deps.chunkRows; budget > 0;) {
    const source = sources[at.source];
    if (!source) return { source: 0, fenced: true, cleared: true };
    let next: string | undefined;
    if (source.kind === 'photos') {
      const container = to.container(deps.photosContainer);
      const page = await readBlobPage(container, plan.department, at.token, budget);
      const there = from.container(deps.photosContainer);
      await mapBounded(page.names, 8, async (name, i) => {
        const exists = () => withStorageErrors(() => there.getBlockBlobClient(name).exists());
        if (await whileBusy(exists)) return;
        await deleteBlobAsListed(container, name, page.etags[i]);
      });
      budget -= page.names.length;
      next = page.next;
    } else {
      const page = await readRowPage(
        to.table(source.table),
        source,
        plan.department,
        at.token,
        budget,
      );
      const inSource = await mapBounded(page.rows, 16, (row) =>
        whileBusy(() =>
          readEntity(from.table(source.table), row.partitionKey, row.rowKey, ['PartitionKey']),
        ),
      );
      const byPartition = new Map<string, string[]>();
      page.rows.forEach((row, i) => {
        if (inSource[i]) return;
        byPartition.set(row.partitionKey, [
          ...(byPartition.get(row.partitionKey) ?? []),
          row.rowKey,
        ]);
      });
      const outcomes = await mapBounded([...byPartition], 8, ([partitionKey, keys]) =>
        deleteRowsWhileFenced(to.table(source.table), partitionKey, keys, closed, plan.department),
      );
      if (outcomes.includes('behind')) throw relocationLost(plan.department, plan.relocation);
      budget -= page.rows.length;
      next = page.next;
    }
    at = next === undefined ? { source: at.source + 1 } : { source: at.source, token: next };
  }
  return { ...at, fenced: true };
}

/**
 * Copies one bounded chunk of the department to the target (step 2).
 *
 * @throws {DomainError} for storage faults (the activity is retried; copying again is harmless).
 */
export const copyChunk: ChunkStep = async (deps, plan, cursor = { source: 0 }) => {
  const placement = await ownPlacement(deps, plan);
  // Only while copying: a late run after the freeze must not touch the target the sync made exact.
  if (placement.phase !== 'copying') throw relocationLost(plan.department, plan.relocation);
  if (!cursor.fenced) {
    await fenceForCopying(deps, plan);
    return { next: await clearTarget(deps, plan, { source: 0 }), rows: 0 };
  }
  if (!cursor.cleared) return { next: await clearTarget(deps, plan, cursor), rows: 0 };
  const from = account(deps, plan.from).clients;
  const to = account(deps, plan.to).clients;
  const sources = relocationSources(deps.tables, plan.department);
  const source = sources[cursor.source];
  if (!source) return { next: undefined, rows: 0 };
  const after = (token: string | undefined): RelocationCursor =>
    token === undefined
      ? { source: cursor.source + 1, fenced: true, cleared: true }
      : { source: cursor.source, token, fenced: true, cleared: true };
  if (source.kind === 'photos') {
    const max = Math.min(50, Math.max(1, Math.floor(deps.chunkRows / 10)));
    const page = await readBlobPage(
      from.container(deps.photosContainer),
      plan.department,
      cursor.token,
      max,
    );
    const copied = await copyBlobs(
      from.container(deps.photosContainer),
      to.container(deps.photosContainer),
      page.names,
    );
    return { next: page.next === undefined ? undefined : after(page.next), rows: copied };
  }
  const page = await readRowPage(
    from.table(source.table),
    source,
    plan.department,
    cursor.token,
    deps.chunkRows,
  );
  const rewrite = photoUrlRewrite(
    from.container(deps.photosContainer),
    to.container(deps.photosContainer),
  );
  await upsertRows(
    to.table(source.table),
    page.rows.map((row) => targetRow(row, rewrite)),
  );
  return { next: after(page.next), rows: page.rows.length };
};
