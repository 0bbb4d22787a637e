/**
 * The department relocation orchestration (docs/accounts.md "Relocating a department"): copy in
 * bounded chunks, freeze, sync what was written meanwhile, wait until a placement cache period
 * has passed since the freeze, switch, wait again (reads in flight), delete the source in bounded
 * chunks. The HTTP starter
 * has already claimed the department (`copying`); each step is an idempotent activity, so a crash
 * anywhere resumes where the history says. A step that fails for good before the switch rolls the
 * relocation back (the department `stable` in its source again; the orchestration then fails with
 * `RelocationRolledBack`); after the switch the orchestration fails and the same `POST …/relocate`
 * resumes it forward (relocationStart.ts), as it resumes a rollback that failed itself.
 *
 * Deterministic: no I/O and no clock of its own — the wait times come from the activities'
 * recorded answers. It continues as new every {@link CHUNKS_PER_EXECUTION} chunks, so its
 * history stays bounded whatever the department's size.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import type {
  ChunkResult,
  RelocationCursor,
  RelocationPlan,
} from '../../accounts/relocation/relocationSteps';
import type { RollbackResult } from '../../accounts/relocation/relocationRollback';
import { Activities } from '../names';
import { relocationLostFailure, relocationRolledBack } from '../orchestrationErrors';
import { activityRetryOptions } from '../retryPolicy';

/** Chunk activities one execution runs before it continues as new. */
export const CHUNKS_PER_EXECUTION = 25;
/** Slack on top of the placement cache period (clock rates, a slow read). */
const WAIT_MARGIN_MS = 1_000;

/** Where a relocation is. */
export type RelocationStage = 'copy' | 'freeze' | 'sync' | 'switch' | 'delete' | 'rollback';

/** Input: the claimed relocation; a continuation also carries its stage, cursor and counts. */
export interface RelocateInput {
  plan: RelocationPlan;
  /** How long processes trust a placement they read (`PLACEMENT_CACHE_SECONDS`), ms. */
  cacheMs: number;
  stage?: RelocationStage;
  cursor?: RelocationCursor;
  copied?: number;
  /** When the freeze took effect (ms since the epoch), as its activity answered. */
  frozenAt?: number;
  /** Why a step before the switch failed (stage `rollback`). */
  failure?: string;
}

/** Output: the department, where it came from and went to, and the rows and blobs copied. */
export interface RelocateOutput {
  department: string;
  from: string;
  to: string;
  copied: number;
}

/** The relocation orchestrator (input {@link RelocateInput}). */
export function* relocateDepartmentOrchestrator(
  context: OrchestrationContext,
): Generator<Task, RelocateOutput | undefined, unknown> {
  const input = context.df.getInput<RelocateInput>();
  const { plan, cacheMs } = input;
  const retry = activityRetryOptions();
  let stage: RelocationStage = input.stage ?? 'copy';
  let cursor = input.cursor;
  let copied = input.copied ?? 0;
  let frozenAt = input.frozenAt ?? 0;
  let failure = input.failure;
  const output = (): RelocateOutput => ({
    department: plan.department,
    from: plan.from,
    to: plan.to,
    copied,
  });
  const waitUntil = (at: number): Task => context.df.createTimer(new Date(at));
  /** A step before the switch failed for good (its retries spent): roll back. */
  const rollBack = (error: unknown): void => {
    failure = error instanceof Error ? error.message : String(error);
    stage = 'rollback';
    cursor = undefined;
  };
  for (let chunks = 0; chunks < CHUNKS_PER_EXECUTION;) {
    context.df.setCustomStatus({ stage, copied, ...(failure ? { failure } : {}) });
    if (stage === 'rollback') {
      const result = (yield context.df.callActivityWithRetry(Activities.relocationRollback, retry, {
        plan,
        cursor,
      })) as RollbackResult;
      chunks++;
      cursor = result.next;
      if (result.switched) {
        // The switch took effect after all: forward, once reads begun before it are done.
        yield waitUntil(context.df.currentUtcDateTime.getTime() + cacheMs + WAIT_MARGIN_MS);
        stage = 'delete';
        cursor = undefined;
        continue;
      }
      if (cursor) continue;
      // Nothing of this relocation's left to roll back: its placement is another's (or released).
      if (result.lost) throw relocationLostFailure(plan.department, failure ?? 'unknown');
      throw relocationRolledBack(plan.department, plan.from, failure ?? 'unknown');
    }
    if (stage === 'copy' || stage === 'sync' || stage === 'delete') {
      const activity =
        stage === 'copy'
          ? Activities.relocationCopy
          : stage === 'sync'
            ? Activities.relocationSync
            : Activities.relocationDelete;
      let result: ChunkResult;
      try {
        result = (yield context.df.callActivityWithRetry(activity, retry, {
          plan,
          cursor,
        })) as ChunkResult;
      } catch (error) {
        // After the switch, forward only: the orchestration fails and a resume deletes on.
        if (stage === 'delete') throw error;
        rollBack(error);
        continue;
      }
      chunks++;
      if (stage === 'copy') copied += result.rows;
      cursor = result.next;
      if (cursor) continue;
      if (stage === 'delete') return output();
      stage = stage === 'copy' ? 'freeze' : 'switch';
      continue;
    }
    if (stage === 'freeze') {
      try {
        ({ frozenAt } = (yield context.df.callActivityWithRetry(
          Activities.relocationFreeze,
          retry,
          { plan },
        )) as { frozenAt: number });
      } catch (error) {
        rollBack(error);
        continue;
      }
      stage = 'sync';
      continue;
    }
    // No process may still trust a placement read before the freeze once the target takes over.
    yield waitUntil(frozenAt + cacheMs + WAIT_MARGIN_MS);
    let switchedAt: number;
    try {
      ({ switchedAt } = (yield context.df.callActivityWithRetry(
        Activities.relocationSwitch,
        retry,
        {
          plan,
        },
      )) as { switchedAt: number });
    } catch (error) {
      // The rollback finds out whether the switch took effect after all (then it goes forward).
      rollBack(error);
      continue;
    }
    // Reads that fetched the placement before the switch finish on the source first.
    yield waitUntil(switchedAt + cacheMs + WAIT_MARGIN_MS);
    stage = 'delete';
  }
  context.df.continueAsNew({
    plan,
    cacheMs,
    stage,
    cursor,
    copied,
    frozenAt,
    ...(failure ? { failure } : {}),
  } satisfies RelocateInput);
  return undefined;
}
