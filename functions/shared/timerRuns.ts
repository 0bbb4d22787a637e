/**
 * Timer runs, counted (`directory.timer.runs` by timer and outcome, src/telemetry/metrics.ts) and
 * recorded as the timer's "last run" entity (src/operations/timerRuns.ts), which
 * `GET /api/operations` shows: one upsert per run, after the run, whatever its outcome. A run that
 * busy storage stopped (Azure's targets, past the retries) is `deferred`, not `failed`: the code
 * did nothing wrong and the next scheduled run picks the work up (docs/targets.md).
 */
import type { InvocationContext, Timer, TimerHandler } from '@azure/functions';
import { ThrottledError } from '../../src/domainErrors';
import { whileBusy } from '../../src/storage/busyRetry';
import { throttleWaitSeconds } from '../../src/storage/storageFaults';
import { services } from './services';

type RunHandler = (timer: Timer, context: InvocationContext) => Promise<void>;

/** How a run ended: its handler returned, threw, or was stopped by busy storage. */
type RunOutcome = 'succeeded' | 'failed' | 'deferred';

/** `deferred` when `failure` is busy storage (or another wait-and-retry refusal), else `failed`. */
function outcomeOf(failure: unknown): RunOutcome {
  return throttleWaitSeconds(failure) === undefined ? 'failed' : 'deferred';
}

/**
 * What a run that left some of its work undone throws: a `ThrottledError` (the run is deferred)
 * when every failure was busy storage or another wait-and-retry refusal, a plain failure otherwise.
 *
 * @param failures - the parts left undone, each with its error (at least one).
 */
export function unfinishedRun(message: string, failures: readonly { error: unknown }[]): Error {
  const waits = failures.map(({ error }) => throttleWaitSeconds(error));
  const cause = failures[0]?.error;
  if (waits.length > 0 && waits.every((wait) => wait !== undefined)) {
    return new ThrottledError(message, Math.max(...waits), { cause });
  }
  return new Error(message, { cause });
}

/**
 * The handler, counting each run as `succeeded`, `failed` or `deferred` (a throw, which it passes
 * on).
 *
 * @throws whatever the handler throws.
 */
export function meteredTimer(name: string, handler: RunHandler): RunHandler {
  return async (timer, context) => {
    try {
      await handler(timer, context);
      services().metrics().recordTimerRun(name, 'succeeded');
    } catch (error) {
      services().metrics().recordTimerRun(name, outcomeOf(error));
      throw error;
    }
  };
}

/**
 * Wraps a timer handler so that each run records its start, end and outcome under `name`, and
 * counts it in `directory.timer.runs` ({@link meteredTimer}).
 * Recording is best effort: a failure to record is logged and never changes the run's outcome.
 * A failed run's error is rethrown, so the host still sees it; a deferred run is logged as a
 * warning and ends normally.
 *
 * @throws the handler's failure when it is not busy storage.
 */
export function recordingRuns(name: string, handler: RunHandler): TimerHandler {
  const counted = meteredTimer(name, handler);
  return async (timer, context) => {
    const startedAt = new Date();
    let failure: unknown;
    try {
      await counted(timer, context);
    } catch (error) {
      failure = error;
    }
    const outcome: RunOutcome = failure === undefined ? 'succeeded' : outcomeOf(failure);
    const run = {
      timer: name,
      startedAt,
      finishedAt: new Date(),
      outcome,
      ...(failure === undefined
        ? {}
        : { error: failure instanceof Error ? failure.message : String(failure) }),
    };
    try {
      // No caller waits on a timer: a record refused for load is waited out, not lost.
      await whileBusy(() => services().timerRuns().record(run));
    } catch (error) {
      context.warn(`${name}: its last run could not be recorded`, error);
    }
    if (outcome === 'deferred') {
      context.warn(`${name}: storage was busy; the next scheduled run picks up the rest`, failure);
      return;
    }
    if (failure !== undefined) throw failure;
  };
}
