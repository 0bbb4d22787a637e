/**
 * The relocation case's steps (bench/cases/targetsRelocation.ts) in the orchestrator's order —
 * start, copy, freeze, sync, switch, delete — with its waits for the placement cache, each step
 * retried on a 503 as its activity is, so the case measures the relocation the orchestrator runs
 * without the Durable runtime in the way.
 */
import { randomUUID } from 'node:crypto';
import { copyChunk } from '../../src/accounts/relocation/relocationCopy';
import { deleteChunk } from '../../src/accounts/relocation/relocationDelete';
import {
  freezeDepartment,
  startRelocation,
  switchDepartment,
  type ChunkStep,
  type RelocationCursor,
  type RelocationDeps,
  type RelocationPlan,
} from '../../src/accounts/relocation/relocationSteps';
import { syncChunk } from '../../src/accounts/relocation/relocationSync';
import { ThrottledError } from '../../src/domainErrors';
import { progress } from '../targetsFronts';

const ATTEMPTS = 6;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a relocation step as the orchestrator runs its activity (`activityRetryOptions`): a 503
 * tried again after 1 s, doubling, up to {@link ATTEMPTS} attempts (about 31 s).
 */
async function asActivity<T>(step: () => Promise<T>, throttled: { count: number }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ThrottledError) || attempt >= ATTEMPTS) throw error;
      throttled.count++;
      await sleep(1_000 * 2 ** (attempt - 1));
    }
  }
}

/**
 * Moves `department` to account `to`: the relocation's steps in the orchestrator's order, with
 * its waits for the placement cache (`cacheMs`); each step's time and the steps' 503 retries.
 */
export async function relocate(
  deps: RelocationDeps,
  department: string,
  to: string,
  cacheMs: number,
) {
  const throttled = { count: 0 };
  const plan = await asActivity(
    () => startRelocation(deps, department, to, randomUUID().replace(/-/g, '')),
    throttled,
  );
  const run = async (step: ChunkStep, p: RelocationPlan) => {
    let cursor: RelocationCursor | undefined;
    let rows = 0;
    do {
      const at = cursor;
      const result = await asActivity(() => step(deps, p, at), throttled);
      rows += result.rows;
      cursor = result.next;
    } while (cursor);
    return rows;
  };
  const started = now();
  const copied = await run(copyChunk, plan);
  const copyMs = now() - started;
  progress(`copied ${copied} rows and blobs in ${(copyMs / 1000).toFixed(1)} s`);
  const freezing = now();
  await asActivity(() => freezeDepartment(deps, plan), throttled);
  const frozenAt = now();
  const synced = await run(syncChunk, plan);
  const syncMs = now() - frozenAt;
  await sleep(Math.max(0, frozenAt + cacheMs + 1_000 - now()));
  await asActivity(() => switchDepartment(deps, plan), throttled);
  const switchedAt = now();
  await sleep(cacheMs + 1_000);
  const deleting = now();
  await run(deleteChunk, plan);
  return {
    copied,
    synced,
    copyMs,
    syncMs,
    frozenMs: switchedAt - freezing,
    deleteMs: now() - deleting,
    throttled: throttled.count,
    // From the freeze until every placement cache has seen the switch.
    aroundSwitch: { from: freezing, to: switchedAt + cacheMs + 1_000 },
  };
}
