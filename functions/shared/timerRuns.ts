/**
 * Timer runs, counted (`directory.timer.runs` by timer and outcome, src/telemetry/metrics.ts) and
 * recorded as the timer's "last run" entity (src/operations/timerRuns.ts), which
 * `GET /api/operations` shows: one upsert per run, after the run, whatever its outcome.
 */
import type { InvocationContext, Timer, TimerHandler } from '@azure/functions';
import { services } from './services';

type RunHandler = (timer: Timer, context: InvocationContext) => Promise<void>;

/**
 * The handler, counting each run as `succeeded` or `failed` (a throw, which it passes on).
 *
 * @throws whatever the handler throws.
 */
export function meteredTimer(name: string, handler: RunHandler): RunHandler {
  return async (timer, context) => {
    try {
      await handler(timer, context);
      services().metrics().recordTimerRun(name, 'succeeded');
    } catch (error) {
      services().metrics().recordTimerRun(name, 'failed');
      throw error;
    }
  };
}

/**
 * Wraps a timer handler so that each run records its start, end and outcome under `name`, and
 * counts it in `directory.timer.runs` ({@link meteredTimer}).
 * Recording is best effort: a failure to record is logged and never changes the run's outcome
 * (the run's own failure is rethrown, so the host still sees it).
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
    try {
      await services()
        .timerRuns()
        .record({
          timer: name,
          startedAt,
          finishedAt: new Date(),
          outcome: failure === undefined ? 'succeeded' : 'failed',
          ...(failure === undefined
            ? {}
            : { error: failure instanceof Error ? failure.message : String(failure) }),
        });
    } catch (error) {
      context.warn(`${name}: its last run could not be recorded`, error);
    }
    if (failure !== undefined) throw failure;
  };
}
