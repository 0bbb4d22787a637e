/** Timer functions, counted: `directory.timer.runs` by timer and outcome (src/telemetry/metrics.ts). */
import type { InvocationContext, Timer } from '@azure/functions';
import { services } from './services';

type TimerHandler = (timer: Timer, context: InvocationContext) => Promise<void>;

/**
 * The handler, counting each run as `succeeded` or `failed` (a throw, which it passes on).
 *
 * @throws whatever the handler throws.
 */
export function meteredTimer(name: string, handler: TimerHandler): TimerHandler {
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
