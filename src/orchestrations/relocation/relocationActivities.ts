/**
 * The relocation's activities: each one bounded, idempotent step of src/accounts/relocation/,
 * with what it needs (placement, table names, chunk size) passed in by the composition root.
 */
import { copyChunk } from '../../accounts/relocation/relocationCopy';
import { deleteChunk } from '../../accounts/relocation/relocationDelete';
import {
  freezeDepartment,
  switchDepartment,
  type ChunkResult,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from '../../accounts/relocation/relocationSteps';
import { syncChunk } from '../../accounts/relocation/relocationSync';
import { rollbackChunk, type RollbackResult } from '../../accounts/relocation/relocationRollback';

/** Input of a chunked step: the relocation and where it resumes. */
export interface RelocationChunkInput {
  plan: RelocationPlan;
  cursor?: RelocationCursor;
}

/** Activity: one chunk of the copy (the first raises the fences). */
export function relocationCopyActivity(
  deps: RelocationDeps,
  input: RelocationChunkInput,
): Promise<ChunkResult> {
  return copyChunk(deps, input.plan, input.cursor);
}

/** Activity: the freeze; answers when it took effect (ms since the epoch) for the cache wait. */
export async function relocationFreezeActivity(
  deps: RelocationDeps,
  input: { plan: RelocationPlan },
): Promise<{ frozenAt: number }> {
  await freezeDepartment(deps, input.plan);
  return { frozenAt: Date.now() };
}

/** Activity: one chunk of the last sync. */
export function relocationSyncActivity(
  deps: RelocationDeps,
  input: RelocationChunkInput,
): Promise<ChunkResult> {
  return syncChunk(deps, input.plan, input.cursor);
}

/** Activity: the switch; answers when it took effect, for the wait before the source goes. */
export async function relocationSwitchActivity(
  deps: RelocationDeps,
  input: { plan: RelocationPlan },
): Promise<{ switchedAt: number }> {
  await switchDepartment(deps, input.plan);
  return { switchedAt: Date.now() };
}

/** Activity: one chunk of the source's deletion. */
export function relocationDeleteActivity(
  deps: RelocationDeps,
  input: RelocationChunkInput,
): Promise<ChunkResult> {
  return deleteChunk(deps, input.plan, input.cursor);
}

/** Activity: one chunk of the rollback of a relocation that failed before its switch. */
export function relocationRollbackActivity(
  deps: RelocationDeps,
  input: RelocationChunkInput,
): Promise<RollbackResult> {
  return rollbackChunk(deps, input.plan, input.cursor);
}
