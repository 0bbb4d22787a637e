/**
 * The steps of relocating a department online (docs/accounts.md "Relocating a department"), each
 * bounded and idempotent, for the Durable orchestration (src/orchestrations/relocation/); the
 * placement goes `stable` (v) → `copying` (v+1) → `frozen` (v+2) → `deleting` (v+3) → `stable`:
 *
 * 1. {@link startRelocation}: claims the department (conditional on its ETag).
 * 2. `copyChunk` (relocationCopy.ts), until done: fence, clear the target, copy.
 * 3. {@link freezeDepartment}: every partition closes (503 `Relocating`).
 * 4. `syncChunk` (relocationSync.ts), until done: the keys writes touched copied again.
 * 5. {@link switchDepartment}, a placement cache period after the freeze: the target opens.
 * 6. `deleteChunk` (relocationDelete.ts), until done, after another cache period: the source goes,
 *    then the department is released.
 */
import { advanceFence } from '../fenceEpoch';
import {
  alreadyThere,
  departmentNotPlaced,
  relocationLost,
  relocationRunning,
} from '../accountErrors';
import type { StorageAccount } from '../accounts';
import type { DepartmentTables } from '../departmentData';
import type { DepartmentPlacement, Placement } from '../placement';
import { relocationSources } from './relocationRows';

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
  // A rolled-back relocation still names itself (`stable`) until its cleanup is done.
  if (current.phase !== 'stable' || current.relocation !== undefined) {
    throw relocationRunning(department, current.relocation ?? 'unknown', relocationPhase(current));
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
    throw relocationRunning(department, now.relocation ?? 'unknown', relocationPhase(now));
  }
  return { department, relocation, from: current.account, to, version: claimed.version };
}

/** Where the relocation holding `placement` is: its phase, or `rollingBack` (rolled back). */
export function relocationPhase(placement: DepartmentPlacement): string {
  return placement.phase === 'stable' && placement.relocation !== undefined
    ? 'rollingBack'
    : placement.phase;
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
