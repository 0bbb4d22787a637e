/**
 * The `log-batches` trigger's flusher: {@link LogFlusher}, built once per process by the
 * composition root with the queue, the container, the limits and the tag ledgers it keeps
 * (tagLedger.ts), so every flush of the process shares what it has read of the ledgers. Each
 * trigger drains more messages with it (logDrain.ts); the host deletes the triggering message when
 * the invocation succeeds. Busy storage defers a batch (a copy for later) instead of spending the
 * trigger's deliveries: throttling slows the log down, never poisons it (docs/logs.md).
 */
import { throttleWaitSeconds } from '../../storage/storageFaults';
import { sendJsonMessage } from '../../storage/queue';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { logBatchDeferRefused } from '../logErrors';
import { deliveredFromTrigger, type DeliveredLogMessage, type QueueDelivery } from './delivery';
import { drainAndFlush, type LogDrainOptions, type LogDrainResult } from './logDrain';

/** What one triggered flush did, and the trigger's message as delivered. */
export interface TriggeredFlush {
  trigger: DeliveredLogMessage;
  result: LogDrainResult;
}

/** See the file comment. */
export class LogFlusher {
  /** `options`: everything {@link drainAndFlush} takes but the trigger. */
  constructor(private readonly options: Omit<LogDrainOptions, 'trigger'>) {}

  /**
   * Flushes the triggering message together with the messages drained from the queue.
   *
   * @throws {ValidationError} when the payload is not a log-batches message.
   * @throws {DomainError} when the trigger's staging blob or the queue cannot be read; failures to
   * write are in the result (the caller fails the trigger when its own message failed).
   */
  async flushTrigger(payload: unknown, delivery: QueueDelivery): Promise<TriggeredFlush> {
    const trigger = await deliveredFromTrigger(this.options.container, payload, delivery);
    return { trigger, result: await drainAndFlush({ ...this.options, trigger }) };
  }

  /**
   * What becomes of the trigger's message after {@link flushTrigger}. Stored: the host deletes it.
   * Refused by busy storage (Azure's targets, past the SDK's retries): a copy is queued for after
   * the wait and the trigger completes, so the batch slows down instead of spending its
   * deliveries (`maxDequeueCount`, then the poison queue) within seconds. The copy carries the
   * same parts, so the tag ledger keeps each line from being written twice.
   *
   * @returns `'stored'`, or `'deferred'` when the copy is queued.
   * @throws the trigger's write failure when it is not a throttle, or the copy's send failure (the
   *   host then retries the trigger as usual).
   */
  async settleTrigger(payload: unknown, flushed: TriggeredFlush): Promise<'stored' | 'deferred'> {
    const { trigger, result } = flushed;
    const failure = result.failed.find((f) => trigger.parts.includes(f.message));
    if (!failure) return 'stored';
    const wait = throttleWaitSeconds(failure.error);
    if (wait === undefined) throw failure.error;
    await this.defer(payload, wait);
    return 'deferred';
  }

  /**
   * {@link flushTrigger} then {@link settleTrigger}, and a trigger whose batch busy storage would
   * not even let it read (its staging blob, the queue) deferred the same way.
   *
   * @throws as {@link flushTrigger} and {@link settleTrigger} do, throttling aside.
   */
  async handleTrigger(
    payload: unknown,
    delivery: QueueDelivery,
  ): Promise<{ result?: LogDrainResult; outcome: 'stored' | 'deferred' }> {
    let flushed: TriggeredFlush;
    try {
      flushed = await this.flushTrigger(payload, delivery);
    } catch (error) {
      const wait = throttleWaitSeconds(error);
      if (wait === undefined) throw error;
      await this.defer(payload, wait);
      return { outcome: 'deferred' };
    }
    return { result: flushed.result, outcome: await this.settleTrigger(payload, flushed) };
  }

  /** Queues a copy of the trigger's message for after `wait` seconds (at least 5). */
  private async defer(payload: unknown, wait: number): Promise<void> {
    const visibilityTimeoutSeconds = Math.max(wait, MIN_DEFER_SECONDS);
    // The queue may be as busy as the blobs: its refusals are waited out here, briefly.
    await retryOptimistically(DEFER_RETRY, async () => {
      try {
        return await sendJsonMessage(this.options.queue, payload, { visibilityTimeoutSeconds });
      } catch (error) {
        if (throttleWaitSeconds(error) === undefined) throw error;
        return RETRY;
      }
    });
  }
}

/** Shortest wait of a deferred batch: sooner, busy storage would most likely refuse it again. */
export const MIN_DEFER_SECONDS = 5;

/** Sends of a deferred batch's copy: 6 tries over about 8 s, then the trigger fails as usual. */
const DEFER_RETRY = {
  maxAttempts: 6,
  baseMs: 500,
  capMs: 4_000,
  waitFirst: true,
  giveUp: (attempts: number) => logBatchDeferRefused(attempts),
};
