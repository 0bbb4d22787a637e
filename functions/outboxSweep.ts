/**
 * Timer trigger: drains every department's index outbox (src/indexing/drain/outboxSweep.ts),
 * picking up changes whose post-commit nudge never reached `index-updates`. Schedule:
 * `INDEX_OUTBOX_SWEEP_SCHEDULE` (default every 5 minutes).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext, type Timer } from '@azure/functions';
import { settingOrDefault } from '../src/config';
import { sweepOutboxes } from '../src/indexing';
import { withServices } from './shared/services';
import { recordingRuns } from './shared/timerRuns';

/**
 * Runs one sweep.
 *
 * @throws when a department's outbox could not be drained (logged; the next run retries).
 */
export const runOutboxSweep = withServices(
  (s) => ({ drains: s.indexDrains(), samplePoisonQueues: s.samplePoisonQueues() }),
  async (
    { drains, samplePoisonQueues },
    _timer: Timer,
    context: InvocationContext,
  ): Promise<void> => {
    const report = await sweepOutboxes(drains);
    context.log(`Swept ${report.departments} department outboxes, ${report.rows} rows drained.`);
    // The poison queues' lengths, sampled here (a few reads every run), never per request.
    await samplePoisonQueues().catch((error: unknown) =>
      context.warn('Poison queue lengths not sampled', error),
    );
    if (report.failed.length > 0) {
      for (const { department, error } of report.failed) {
        context.error(`sweepIndexOutboxes: ${department} failed`, error);
      }
      throw new Error(
        `sweepIndexOutboxes could not drain ${report.failed.length} department(s); the next run retries.`,
      );
    }
  },
);

app.timer('sweepIndexOutboxes', {
  // A malformed schedule registers the default one.
  schedule: settingOrDefault((config) => config.directory.outboxSweepSchedule),
  handler: recordingRuns('sweepIndexOutboxes', runOutboxSweep),
});
