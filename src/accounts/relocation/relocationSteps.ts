/**
 * The steps of relocating a department online (docs/accounts.md "Relocating a department"), each
 * bounded and idempotent, for the Durable orchestration (src/orchestrations/relocation/):
 *
 * 1. {@link startRelocation}: the placement goes from `stable` at version v to `copying` at v+1
 *    (conditional on its ETag: one relocation at a time).
 * 2. {@link copyChunk}, until done: partitions brought to v+1 (writers record what they touch) and
 *    the target's fenced for the copy, then the target's leftovers removed, then copied page by
 *    page, then the photos.
 * 3. {@link freezeDepartment}: `frozen` at v+2; every partition closes (503 `Relocating`).
 * 4. {@link syncChunk}, until done: the keys the change markers name are copied again.
 * 5. {@link switchDepartment}, a placement cache period after the freeze: the target's partitions
 *    open and the placement names the target (`deleting` at v+3: still this relocation's).
 * 6. {@link deleteChunk}, until done, after another cache period: the source's rows and photos go;
 *    each partition keeps only its closed fence epoch (a tombstone); then the department is
 *    released (`stable` at v+3) and may be relocated again.
 */
import { advanceFence, readFenceEpoch, type FenceEpoch } from '../fenceEpoch';
import {
  alreadyThere,
  departmentNotPlaced,
  relocationLost,
  relocationRunning,
} from '../accountErrors';
import type { StorageAccount } from '../accounts';
import { registeredTables, type DepartmentTables } from '../departmentData';
import type { DepartmentPlacement, Placement } from '../placement';
import {
  copyBlobs,
  deleteRowsWhileFenced,
  photoUrlRewrite,
  readBlobPage,
  readRowPage,
  relocationSources,
  targetRow,
  upsertRows,
} from './relocationRows';
import { isNotFound, isPreconditionFailed, withStorageErrors } from '../../storage/storageFaults';
import { readEntity } from '../../storage/tables/entities';
import { employeePartitionKey } from '../../storage/keys/tables/employeePartitions';
import {
  parsePartitionRegistryRowKey,
  partitionRegistryRowKeyRange,
} from '../../storage/keys/tables/placement';
import { readWholeRange } from '../../storage/tables/rangePages';
import { mapBounded } from '../../storage/parallel';

/** What the steps work with. */
export interface RelocationDeps {
  placement: Placement;
  tables: DepartmentTables;
  /** The photos container's name (the same in every account). */
  photosContainer: string;
  /** Rows one chunk reads at most (photos: a tenth, at most 50). */
  chunkRows: number;
}

/** Which relocation, from where to where; `version` is the copying version (v+1). */
export interface RelocationPlan {
  department: string;
  relocation: string;
  from: string;
  to: string;
  version: number;
}

/** Where a walk over the sources resumes. */
export interface RelocationCursor {
  source: number;
  token?: string;
  /** Copying: the fences of the fixed and the registered partitions are up (step 2, first part). */
  fenced?: boolean;
  /** Copying: the target holds nothing of the department that the source lacks (second part). */
  cleared?: boolean;
}

/** One chunk's outcome: the next cursor (`undefined` when done) and rows handled. */
export interface ChunkResult {
  next: RelocationCursor | undefined;
  rows: number;
}

/** A chunked step: one bounded chunk from `cursor` (the start when omitted). */
export type ChunkStep = (
  deps: RelocationDeps,
  plan: RelocationPlan,
  cursor?: RelocationCursor,
) => Promise<ChunkResult>;

/** An account of the relocation by name. */
export function account(deps: RelocationDeps, name: string): StorageAccount {
  return deps.placement.accounts.require(name);
}

/**
 * Claims the department for a relocation to `to`: `stable` → `copying` at the next version.
 *
 * @throws {ValidationError} `UnknownAccount`.
 * @throws {NotFoundError} `DepartmentNotFound` for a department that has no placement (no data).
 * @throws {ConflictError} `AlreadyThere`, `RelocationRunning`.
 */
export async function startRelocation(
  deps: RelocationDeps,
  department: string,
  to: string,
  relocation: string,
): Promise<RelocationPlan> {
  account(deps, to);
  const current = await deps.placement.ofDepartment(department, { fresh: true });
  if (!current.stored) throw departmentNotPlaced(department);
  if (current.phase !== 'stable') {
    throw relocationRunning(department, current.relocation ?? 'unknown');
  }
  if (current.account === to) throw alreadyThere(department, to);
  const claimed = await deps.placement.change(current, {
    account: current.account,
    version: current.version + 1,
    phase: 'copying',
    target: to,
    relocation,
  });
  if (!claimed) {
    const now = await deps.placement.ofDepartment(department, { fresh: true });
    throw relocationRunning(department, now.relocation ?? 'unknown');
  }
  return { department, relocation, from: current.account, to, version: claimed.version };
}

/**
 * Gives a claimed department back when its orchestration could not be started: `copying` at v+1
 * becomes `stable` at v+2 in the same account (the fences raised meanwhile, if any, are older).
 *
 * @throws {DomainError} for storage faults.
 */
export async function abandonRelocation(deps: RelocationDeps, plan: RelocationPlan): Promise<void> {
  const current = await deps.placement.ofDepartment(plan.department, { fresh: true });
  if (current.relocation !== plan.relocation || current.phase !== 'copying') return;
  await deps.placement.change(current, {
    account: plan.from,
    version: plan.version + 1,
    phase: 'stable',
  });
}

/**
 * The placement as this relocation left it: still its own (copying at v+1, frozen at v+2,
 * `deleting` at v+3), or released by it (`stable` in the target at exactly v+3). Versions only
 * rise, so a later relocation's placement is never taken for this one's.
 *
 * @throws {ConflictError} `RelocationLost` when anything else changed the placement.
 */
export async function ownPlacement(
  deps: RelocationDeps,
  plan: RelocationPlan,
): Promise<DepartmentPlacement> {
  const placement = await deps.placement.ofDepartment(plan.department, { fresh: true });
  const ours =
    placement.relocation === plan.relocation &&
    placement.version >= plan.version &&
    placement.version <= plan.version + 2;
  const released =
    placement.phase === 'stable' &&
    placement.relocation === undefined &&
    placement.account === plan.to &&
    placement.version === plan.version + 2;
  if (!ours && !released) throw relocationLost(plan.department, plan.relocation);
  return placement;
}

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
  const registry = await readWholeRange(source.table(deps.tables.employees), {
    partitionKey: plan.department,
    ...partitionRegistryRowKeyRange(),
  });
  const tables = registeredTables(deps.tables);
  await mapBounded(registry, 8, async (row) => {
    const entry = parsePartitionRegistryRowKey(row.rowKey);
    if (!entry) return;
    await fence(tables[entry.table], employeePartitionKey(plan.department, entry.employeeId));
  });
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
        if (await withStorageErrors(() => there.getBlockBlobClient(name).exists())) return;
        await withStorageErrors(async () => {
          try {
            await container
              .getBlockBlobClient(name)
              .deleteIfExists({ conditions: { ifMatch: page.etags[i] } });
          } catch (error) {
            if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
          }
        });
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
      const inSource = await mapBounded(page.rows, 32, (row) =>
        readEntity(from.table(source.table), row.partitionKey, row.rowKey, ['PartitionKey']),
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
export async function copyChunk(
  deps: RelocationDeps,
  plan: RelocationPlan,
  cursor: RelocationCursor = { source: 0 },
): Promise<ChunkResult> {
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
}

/**
 * Freezes the department (step 3): `frozen` at v+2, then every fixed partition closed; the
 * per-employee partitions written while copying close in {@link syncChunk}.
 *
 * @returns when the freeze took effect (ms since the epoch), for the cache wait.
 * @throws {Error} `RelocationLost` when another change took over the placement.
 */
export async function freezeDepartment(
  deps: RelocationDeps,
  plan: RelocationPlan,
): Promise<DepartmentPlacement> {
  let placement = await ownPlacement(deps, plan);
  if (placement.phase === 'copying' && placement.version === plan.version) {
    const frozen = await deps.placement.change(placement, {
      account: plan.from,
      version: plan.version + 1,
      phase: 'frozen',
      target: plan.to,
      relocation: plan.relocation,
    });
    placement = frozen ?? (await ownPlacement(deps, plan));
  }
  const source = account(deps, plan.from).clients;
  const closed = { version: plan.version + 1, open: false };
  for (const s of relocationSources(deps.tables, plan.department)) {
    if (s.kind !== 'partition') continue;
    await advanceFence(source.table(s.table), s.partitionKey, closed, plan.department);
  }
  return placement;
}

/**
 * Switches the department to the target (step 5): its fixed partitions there open at v+3, then
 * the placement names the target, `deleting`: the department stays this relocation's until the
 * source is deleted (a second relocation gets 409 `RelocationRunning` meanwhile). Idempotent: a
 * relocation already switched is left as it is.
 *
 * @throws {ConflictError} `RelocationLost` when another change took over the placement.
 */
export async function switchDepartment(
  deps: RelocationDeps,
  plan: RelocationPlan,
): Promise<DepartmentPlacement> {
  const placement = await ownPlacement(deps, plan);
  if (placement.account === plan.to) return placement;
  const target = account(deps, plan.to).clients;
  const open = { version: plan.version + 2, open: true };
  for (const s of relocationSources(deps.tables, plan.department)) {
    if (s.kind !== 'partition') continue;
    await advanceFence(target.table(s.table), s.partitionKey, open, plan.department);
  }
  const switched = await deps.placement.change(placement, {
    account: plan.to,
    version: plan.version + 2,
    phase: 'deleting',
    relocation: plan.relocation,
  });
  return switched ?? ownPlacement(deps, plan);
}
