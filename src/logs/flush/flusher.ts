/**
 * The `log-batches` trigger's one call: the flusher of a process, built once by the composition
 * root with the queue, the container, the limits and the tag ledgers the process keeps
 * (tagLedger.ts), so every flush of the process shares what it has read of the ledgers.
 */
import { deliveredFromTrigger, type DeliveredLogMessage, type QueueDelivery } from './delivery';
import { drainAndFlush, type LogDrainOptions, type LogDrainResult } from './logFlusher';

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
}
