/**
 * Draining the `log-batches` queue into flushes. In the Functions model each trigger invocation
 * gets one message; {@link drainAndFlush} makes that invocation also take up to `maxMessages` more
 * from the queue (32 per request, in parallel), writes them all (flushMessages.ts), and deletes
 * the drained messages only after their lines are committed; it repeats that for a few rounds
 * while the queue stays full, receiving the next round while the current one is written and
 * deleting behind both. A message whose lines could not be committed is left on the queue and
 * delivered again (hourWriter.ts: a redelivery never repeats a line). A pointer message
 * (stagedBatch.ts) is read into its parts first; its staging blob is deleted once every part is
 * stored, so a pointer whose blob is gone is already done.
 */
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { throttleWaitSeconds, unlessNotFound } from '../../storage/storageFaults';
import { decodeQueueMessage } from '../../storage/queue';
import type { HourContainer, LogBlobLimits } from './hourWriter';
import {
  resolveDelivery,
  DRAIN_VISIBILITY_SECONDS,
  EXCLUSIVITY_MARGIN_MS,
  type DeliveredLogMessage,
} from './delivery';
import { deleteStagedBatch } from '../ingest/stagedBatch';
import type { TagLedgers } from './tagLedger';
import { flushLogMessages, type FlushResult } from './flushMessages';

/** What {@link drainAndFlush} did, over all its rounds. */
export interface LogDrainResult extends FlushResult {
  /** Messages taken from the queue besides the trigger's. */
  drained: number;
  /** Drained messages deleted after their lines were stored. */
  acknowledged: number;
  /**
   * Drained messages left alone because they are not log-batches messages (the host poisons
   * them) or their staging blob could not be read (they come back after their visibility).
   */
  undecodable: number;
  /** Staging blobs deleted after their pointer message was acknowledged. */
  stagingBlobsDeleted: number;
  /** True when the triggering message (if any) is fully stored. */
  triggerFlushed: boolean;
  /** Rounds that wrote (each one block per touched hour-blob). */
  flushes: number;
}

/** Options of {@link drainAndFlush}. */
export interface LogDrainOptions {
  /** The logs container (staging blobs; hour blobs too unless `hourContainer` says otherwise). */
  container: ContainerClient;
  hourContainer?: HourContainer;
  queue: QueueClient;
  limits: LogBlobLimits;
  /**
   * The message the trigger delivered, if any: flushed in the first round, acknowledged by the
   * host.
   */
  trigger?: DeliveredLogMessage;
  /** Most messages one flush takes from the queue (besides the trigger's). */
  maxMessages: number;
  /**
   * Most flushes in this call: while the queue keeps yielding full rounds, the next round is
   * received while the current one is written, and earlier rounds' messages are deleted meanwhile.
   * Default 1.
   */
  maxFlushes?: number;
  visibilitySeconds?: number;
  clock?: () => number;
  /** What this process knows of the tag ledgers (one per process: the composition root's). */
  ledgers: TagLedgers;
}

interface Received {
  delivered: DeliveredLogMessage;
  messageId: string;
  popReceipt: string;
}

/** Most messages one receive request returns. */
const RECEIVE_BATCH = 32;
/** Deletes in flight while acknowledging (the queue service handles many parallel requests). */
const DELETE_CONCURRENCY = 64;

/**
 * Takes messages from the queue in rounds of up to `maxMessages`, writes each round (the first
 * together with the trigger's message), and deletes the drained messages whose lines are stored.
 *
 * @throws {DomainError} when the queue cannot be read (after the SDK's retries); failures to write
 * are reported in the result instead, so the caller decides whether its trigger message failed.
 */
export async function drainAndFlush(options: LogDrainOptions): Promise<LogDrainResult> {
  const { container, queue, limits, trigger, maxMessages, ledgers, hourContainer } = options;
  const maxFlushes = options.maxFlushes ?? 1;
  const visibilitySeconds = options.visibilitySeconds ?? DRAIN_VISIBILITY_SECONDS;
  const clock = options.clock ?? Date.now;
  const total: LogDrainResult = {
    flushed: [],
    failed: [],
    linesWritten: 0,
    hours: [],
    drained: 0,
    acknowledged: 0,
    undecodable: 0,
    stagingBlobsDeleted: 0,
    triggerFlushed: trigger === undefined,
    flushes: 0,
  };
  const acknowledger = new Acknowledger(queue, container, DELETE_CONCURRENCY);
  // Round n + 1 is received while round n is written, and round n's deletes run behind both:
  // receive, write and delete overlap instead of taking turns.
  let next: Promise<ReceivedRound> | undefined = receiveRound(
    queue,
    container,
    maxMessages,
    visibilitySeconds,
    clock,
  );
  try {
    for (let round = 0; round < maxFlushes && next; round++) {
      let current: ReceivedRound;
      try {
        current = await next;
      } catch (error) {
        // Later rounds only stop draining. The first must read the queue, unless busy storage
        // refused the read and there is a trigger: draining is a saving, so it goes alone.
        if (round > 0) break;
        if (!trigger || throttleWaitSeconds(error) === undefined) throw error;
        current = { received: [], undecodable: 0, exhausted: true };
      }
      next = undefined;
      const { received, undecodable, exhausted } = current;
      total.drained += received.length;
      total.undecodable += undecodable;
      if (!exhausted && round + 1 < maxFlushes) {
        next = receiveRound(queue, container, maxMessages, visibilitySeconds, clock);
        // Awaited in the next iteration; a rejection left unawaited must not crash the process.
        next.catch(() => undefined);
      }
      const delivered = received.map((r) => r.delivered);
      if (round === 0 && trigger) delivered.unshift(trigger);
      if (delivered.length === 0) break;
      const pending = delivered.flatMap((d) => d.parts);

      const flush = [container, pending, limits, clock, ledgers, hourContainer] as const;
      const result = await flushLogMessages(...flush);
      total.flushes++;
      total.flushed.push(...result.flushed);
      total.failed.push(...result.failed);
      total.linesWritten += result.linesWritten;
      total.hours.push(...result.hours);
      const stored = new Set(result.flushed);
      const isStored = (d: DeliveredLogMessage): boolean => d.parts.every((p) => stored.has(p));
      if (round === 0 && trigger) {
        total.triggerFlushed = isStored(trigger);
        // The host deletes the trigger's message after this returns; should that fail, the
        // redelivery finds no staging blob and counts the batch as stored, which it is.
        if (total.triggerFlushed && trigger.stagingBlob) {
          acknowledger.deleteStagingBlob(trigger.stagingBlob);
        }
      }
      acknowledger.add(received.filter((r) => isStored(r.delivered)));
      // Messages of a prefetched round are left invisible and come back after the visibility
      // timeout (as redeliveries): stopping after a failed write is a back-off.
      if (result.failed.length > 0) break;
    }
  } finally {
    // A failed delete is harmless: the message comes back and is found already stored.
    total.acknowledged = await acknowledger.settle();
    total.stagingBlobsDeleted = acknowledger.stagingBlobsDeleted;
  }
  return total;
}

interface ReceivedRound {
  received: Received[];
  undecodable: number;
  exhausted: boolean;
}

/**
 * Deletes acknowledged messages with a fixed number in flight, across rounds: one pool, so the
 * deletes of several rounds neither stack up nor wait for each other's stragglers. A pointer
 * message's staging blob is deleted after the message (a crash between leaves an orphan blob,
 * never a message whose blob is gone before its lines are stored).
 */
class Acknowledger {
  private readonly waiting: Received[] = [];
  private inFlight = 0;
  private deleted = 0;
  private idle: (() => void) | undefined;
  stagingBlobsDeleted = 0;

  constructor(
    private readonly queue: QueueClient,
    private readonly container: ContainerClient,
    private readonly concurrency: number,
  ) {}

  /** Deletes a staging blob whose lines are all stored (in the same pool as the messages). */
  deleteStagingBlob(stagingBlob: string): void {
    this.inFlight++;
    void deleteStagedBatch(this.container, stagingBlob).then((gone) => {
      if (gone) this.stagingBlobsDeleted++;
      this.finish(false);
    });
  }

  add(messages: readonly Received[]): void {
    this.waiting.push(...messages);
    while (this.inFlight < this.concurrency && this.waiting.length > 0) this.startOne();
  }

  /** Resolves with the number of messages deleted once every added delete has finished. */
  settle(): Promise<number> {
    if (this.inFlight === 0) return Promise.resolve(this.deleted);
    return new Promise((resolve) => {
      this.idle = () => resolve(this.deleted);
    });
  }

  private startOne(): void {
    const message = this.waiting.shift()!;
    this.inFlight++;
    this.queue.deleteMessage(message.messageId, message.popReceipt).then(
      () => {
        const { stagingBlob } = message.delivered;
        if (stagingBlob) this.deleteStagingBlob(stagingBlob);
        this.finish(true);
      },
      () => this.finish(false),
    );
  }

  private finish(deleted: boolean): void {
    this.inFlight--;
    if (deleted) this.deleted++;
    if (this.waiting.length > 0) this.startOne();
    else if (this.inFlight === 0) this.idle?.();
  }
}

/** Receives up to `wanted` messages with parallel requests of up to 32 each. */
async function receiveRound(
  queue: QueueClient,
  container: ContainerClient,
  wanted: number,
  visibilitySeconds: number,
  clock: () => number,
): Promise<ReceivedRound> {
  const requests = Array.from({ length: Math.ceil(wanted / RECEIVE_BATCH) }, (_, i) =>
    Math.min(RECEIVE_BATCH, wanted - i * RECEIVE_BATCH),
  );
  const startedAt = clock();
  const responses = await Promise.all(
    requests.map((count) =>
      unlessNotFound(() =>
        queue.receiveMessages({
          numberOfMessages: count,
          visibilityTimeout: visibilitySeconds,
        }),
      ),
    ),
  );
  let exhausted = false;
  const items = responses.flatMap((response, i) => {
    const list = response?.receivedMessageItems ?? [];
    if (list.length < requests[i]!) exhausted = true;
    return list;
  });
  const delivered = await Promise.allSettled(
    // Async, so that a payload that is not even base64 JSON rejects its own delivery only.
    items.map(async (item) =>
      resolveDelivery(container, decodeQueueMessage(item.messageText), {
        dequeueCount: item.dequeueCount,
        exclusiveUntil: startedAt + visibilitySeconds * 1000 - EXCLUSIVITY_MARGIN_MS,
      }),
    ),
  );
  const received: Received[] = [];
  let undecodable = 0;
  delivered.forEach((outcome, i) => {
    // Left invisible: once it reappears the trigger gets it and fails (a malformed message ends
    // on the poison queue) or reads the staging blob again.
    if (outcome.status === 'rejected') undecodable++;
    else {
      const { messageId, popReceipt } = items[i]!;
      received.push({ delivered: outcome.value, messageId, popReceipt });
    }
  });
  return { received, undecodable, exhausted };
}
