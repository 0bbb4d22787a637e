/**
 * Queue trigger on `log-batches`: buffers accepted log batches into hour-prefixed blobs. Each
 * invocation drains more messages from the queue and writes them together
 * (src/logs/flush/logFlusher.ts); a pointer message's batch is read from its staging blob
 * (src/logs/ingest/stagedBatch.ts).
 * Throwing makes the host retry the triggering message and, after `maxDequeueCount` attempts,
 * move it to `log-batches-poison`; a write busy storage refused is deferred instead (a copy for
 * after the wait), so throttling slows the log down rather than poisoning it.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext } from '@azure/functions';
import { settingOrDefault } from '../src/config';
import { delivery, inMessageTrace } from './shared/queuePayload';
import { withServices } from './shared/services';

/**
 * Flushes the triggering message together with up to `LOG_FLUSH_MAX_MESSAGES` drained ones.
 *
 * @throws the triggering message's write failure (not a throttle), so the host retries (and
 *   finally poisons) it.
 */
export const flushLogBatches = withServices(
  (s) => ({
    queueName: s.config().queues.logBatches,
    flusher: s.logFlusher(),
    metrics: s.metrics(),
  }),
  async (
    { queueName, flusher, metrics },
    queueEntry: unknown,
    context: InvocationContext,
  ): Promise<void> => {
    const { result, outcome } = await inMessageTrace(queueName, queueEntry, (payload) =>
      flusher.handleTrigger(payload, delivery(context)),
    );
    if (outcome === 'deferred') {
      context.warn('Storage is busy: the batch is queued again for later.');
    }
    if (!result) return;
    context.log(
      `Flushed ${result.flushed.length} log messages (${result.drained} drained), ` +
        `${result.linesWritten} lines into ${result.hours.length} hour blobs; ${result.failed.length} failed.`,
    );
    // What this flush saw: the messages waiting besides its trigger, and the trigger's lag from
    // enqueued to stored (the host's insertionTime) — no extra storage request.
    const inserted = Date.parse(String(context.triggerMetadata?.insertionTime ?? ''));
    metrics.recordLogFlush(result.drained, result.triggerFlushed && inserted ? [inserted] : []);
  },
);

app.storageQueue('flushLogBatches', {
  queueName: settingOrDefault((config) => config.queues.logBatches),
  connection: 'AzureWebJobsStorage',
  handler: flushLogBatches,
});
