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
import type { OrchestrationContext, RetryOptions, Task } from 'durable-functions';
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

/** Where one execution of the relocation is: its input, advanced as its activities answer. */
interface RelocationState {
  stage: RelocationStage;
  cursor: RelocationCursor | undefined;
  copied: number;
  frozenAt: number;
  failure: string | undefined;
}

/** What every step of one execution reads. */
interface Relocation {
  context: OrchestrationContext;
  plan: RelocationPlan;
  cacheMs: number;
  retry: RetryOptions;
  state: RelocationState;
}

/**
 * What a step did: ran a chunk activity (counted against {@link CHUNKS_PER_EXECUTION}), moved on
 * without one, or deleted the source's last chunk (the relocation is done).
 */
type StepOutcome = 'chunk' | 'step' | 'done';

/** A step: a generator the orchestrator delegates to (`yield*`), its yields the orchestrator's. */
type Step = Generator<Task, StepOutcome, unknown>;

/** The activity of each chunked stage. */
const CHUNK_ACTIVITIES = {
  copy: Activities.relocationCopy,
  sync: Activities.relocationSync,
  delete: Activities.relocationDelete,
} as const;

/** The relocation orchestrator (input {@link RelocateInput}). */
export function* relocateDepartmentOrchestrator(
  context: OrchestrationContext,
): Generator<Task, RelocateOutput | undefined, unknown> {
  const input = context.df.getInput<RelocateInput>();
  const { plan, cacheMs } = input;
  const state: RelocationState = {
    stage: input.stage ?? 'copy',
    cursor: input.cursor,
    copied: input.copied ?? 0,
    frozenAt: input.frozenAt ?? 0,
    failure: input.failure,
  };
  const run: Relocation = { context, plan, cacheMs, retry: activityRetryOptions(), state };
  for (let chunks = 0; chunks < CHUNKS_PER_EXECUTION;) {
    const { stage, copied, failure } = state;
    context.df.setCustomStatus({ stage, copied, ...(failure ? { failure } : {}) });
    const outcome = yield* nextStep(run);
    if (outcome === 'done') {
      return { department: plan.department, from: plan.from, to: plan.to, copied: state.copied };
    }
    if (outcome === 'chunk') chunks++;
  }
  context.df.continueAsNew({
    plan,
    cacheMs,
    stage: state.stage,
    cursor: state.cursor,
    copied: state.copied,
    frozenAt: state.frozenAt,
    ...(state.failure ? { failure: state.failure } : {}),
  } satisfies RelocateInput);
  return undefined;
}

/** The step of the relocation's stage. */
function* nextStep(run: Relocation): Step {
  const { stage } = run.state;
  if (stage === 'rollback') return yield* rollBackChunk(run);
  if (stage === 'copy' || stage === 'sync' || stage === 'delete') {
    return yield* stageChunk(run, stage);
  }
  if (stage === 'freeze') return yield* freeze(run);
  return yield* switchPlacement(run);
}

/**
 * One chunk of the rollback. Throws `RelocationRolledBack` (or the lost failure) once nothing of
 * the relocation is left to roll back.
 */
function* rollBackChunk(run: Relocation): Step {
  const { context, plan, state } = run;
  const result = (yield context.df.callActivityWithRetry(Activities.relocationRollback, run.retry, {
    plan,
    cursor: state.cursor,
  })) as RollbackResult;
  state.cursor = result.next;
  if (result.switched) {
    // The switch took effect after all: forward, once reads begun before it are done.
    yield waitPastCache(run, context.df.currentUtcDateTime.getTime());
    state.stage = 'delete';
    state.cursor = undefined;
    return 'chunk';
  }
  if (state.cursor) return 'chunk';
  // Nothing of this relocation's left to roll back: its placement is another's (or released).
  if (result.lost) throw relocationLostFailure(plan.department, state.failure ?? 'unknown');
  throw relocationRolledBack(plan.department, plan.from, state.failure ?? 'unknown');
}

/** One chunk of the copy, the last sync or the source's deletion; the next stage after the last. */
function* stageChunk(run: Relocation, stage: keyof typeof CHUNK_ACTIVITIES): Step {
  const { context, plan, state } = run;
  let result: ChunkResult;
  try {
    result = (yield context.df.callActivityWithRetry(CHUNK_ACTIVITIES[stage], run.retry, {
      plan,
      cursor: state.cursor,
    })) as ChunkResult;
  } catch (error) {
    // After the switch, forward only: the orchestration fails and a resume deletes on.
    if (stage === 'delete') throw error;
    rollBack(state, error);
    return 'step';
  }
  if (stage === 'copy') state.copied += result.rows;
  state.cursor = result.next;
  if (state.cursor) return 'chunk';
  if (stage === 'delete') return 'done';
  state.stage = stage === 'copy' ? 'freeze' : 'switch';
  return 'chunk';
}

/** Freezes the department's writes (then the last sync). */
function* freeze(run: Relocation): Step {
  const { context, plan, state } = run;
  try {
    const frozen = (yield context.df.callActivityWithRetry(Activities.relocationFreeze, run.retry, {
      plan,
    })) as { frozenAt: number };
    state.frozenAt = frozen.frozenAt;
  } catch (error) {
    rollBack(state, error);
    return 'step';
  }
  state.stage = 'sync';
  return 'step';
}

/** Switches the placement to the target, waiting out the placement cache before and after. */
function* switchPlacement(run: Relocation): Step {
  const { context, plan, state } = run;
  // No process may still trust a placement read before the freeze once the target takes over.
  yield waitPastCache(run, state.frozenAt);
  let switchedAt: number;
  try {
    ({ switchedAt } = (yield context.df.callActivityWithRetry(
      Activities.relocationSwitch,
      run.retry,
      { plan },
    )) as { switchedAt: number });
  } catch (error) {
    // The rollback finds out whether the switch took effect after all (then it goes forward).
    rollBack(state, error);
    return 'step';
  }
  // Reads that fetched the placement before the switch finish on the source first.
  yield waitPastCache(run, switchedAt);
  state.stage = 'delete';
  return 'step';
}

/** A step before the switch failed for good (its retries spent): roll back. */
function rollBack(state: RelocationState, error: unknown): void {
  state.failure = error instanceof Error ? error.message : String(error);
  state.stage = 'rollback';
  state.cursor = undefined;
}

/** A durable timer until a placement read at `since` is no longer trusted anywhere. */
function waitPastCache(run: Relocation, since: number): Task {
  return run.context.df.createTimer(new Date(since + run.cacheMs + WAIT_MARGIN_MS));
}
