/**
 * A relocation run in-process: the relocation orchestration's own steps called in the order its
 * orchestrator calls them (src/orchestrations/relocation/), with a hook before each step so a
 * test can put a write in flight exactly there, and without the orchestrator's waits for the
 * placement cache (one process: its cache never keeps a frozen placement).
 */
import { randomUUID } from 'node:crypto';
import type { Services } from '../../functions/shared/services';
import { copyChunk } from '../../src/accounts/relocation/relocationCopy';
import { deleteChunk } from '../../src/accounts/relocation/relocationDelete';
import {
  freezeDepartment,
  startRelocation,
  switchDepartment,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from '../../src/accounts/relocation/relocationSteps';
import { syncChunk } from '../../src/accounts/relocation/relocationSync';

/** Where a relocation is about to go next. */
export type RelocationStep = 'fence' | 'copy' | 'freeze' | 'sync' | 'switch' | 'delete' | 'done';

/** The relocation steps over the services' placement and configuration. */
export function relocationDeps(services: Services, chunkRows = 20): RelocationDeps {
  const config = services.config();
  return {
    placement: services.accounts()!.placement,
    tables: config.tables,
    photosContainer: config.containers.photos,
    chunkRows,
  };
}

type Chunk = { next: RelocationCursor | undefined; rows: number };

/** Runs a chunked step to its end, each chunk through `run`. */
async function chunks(
  step: (cursor: RelocationCursor | undefined) => Promise<Chunk>,
  run: (index: number, call: () => Promise<Chunk>) => Promise<Chunk>,
): Promise<number> {
  let cursor: RelocationCursor | undefined;
  let rows = 0;
  for (let index = 0; ; index++) {
    const at = cursor;
    const result = await run(index, () => step(at));
    rows += result.rows;
    if (!result.next) return rows;
    cursor = result.next;
  }
}

/** How {@link relocateInProcess} crashes a step partway (then runs it again). */
export interface CrashOptions {
  /** Which step's call crashes once. */
  crashAt?: (step: RelocationStep, chunk: number) => boolean;
  /**
   * Runs the call so that it fails partway (the caller's fault injection); the step then runs
   * again, as the orchestration retries a failed activity or replays one whose result was lost.
   */
  crash?: (call: () => Promise<unknown>) => Promise<void>;
}

/**
 * Relocates `department` to `to`, step by step.
 *
 * @param hook - called before each step (and before each chunk of a chunked step, with its index).
 */
export async function relocateInProcess(
  deps: RelocationDeps,
  department: string,
  to: string,
  hook: (
    step: RelocationStep,
    chunk: number,
    plan: RelocationPlan,
    cursor?: RelocationCursor,
  ) => Promise<void> = async () => undefined,
  options: CrashOptions = {},
): Promise<{ plan: RelocationPlan; copied: number }> {
  const plan = await startRelocation(deps, department, to, randomUUID().replace(/-/g, ''));
  const run = async <T>(
    step: RelocationStep,
    index: number,
    call: () => Promise<T>,
    cursor?: RelocationCursor,
  ) => {
    await hook(step, index, plan, cursor);
    if (options.crashAt?.(step, index) && options.crash) await options.crash(call);
    return call();
  };
  // The first copy chunk only raises the fences (the orchestrator's first activity does too).
  let copied = 0;
  let cursor: RelocationCursor | undefined;
  for (let index = 0; ; index++) {
    const at = cursor;
    const result = await run(
      index === 0 ? 'fence' : 'copy',
      index,
      () => copyChunk(deps, plan, at),
      at,
    );
    copied += result.rows;
    if (!result.next) break;
    cursor = result.next;
  }
  await run('freeze', 0, () => freezeDepartment(deps, plan));
  await chunks(
    (at) => syncChunk(deps, plan, at),
    (index, call) => run('sync', index, call),
  );
  await run('switch', 0, () => switchDepartment(deps, plan));
  await chunks(
    (at) => deleteChunk(deps, plan, at),
    (index, call) => run('delete', index, call),
  );
  await hook('done', 0, plan);
  return { plan, copied };
}
