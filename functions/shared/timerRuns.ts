/**
 * Records each timer run's outcome as the timer's "last run" entity (src/operations/timerRuns.ts),
 * which `GET /api/operations` shows: one upsert per run, after the run, whatever its outcome.
 */
import type { InvocationContext, Timer, TimerHandler } from '@azure/functions';
import { services } from './services';
import { meteredTimer } from './timers';

/**
 * Wraps a timer handler so that each run records its start, end and outcome under `name`, and
 * counts it in `directory.timer.runs` ({@link meteredTimer}).
 * Recording is best effort: a failure to record is logged and never changes the run's outcome
 * (the run's own failure is rethrown, so the host still sees it).
 */
export function recordingRuns(
  name: string,
  handler: (timer: Timer, context: InvocationContext) => Promise<void>,
): TimerHandler {
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
