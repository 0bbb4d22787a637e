/**
 * Accepting a `POST /logs` batch: it is durable once the queue message holding it is stored, and
 * only then does the caller hear "accepted". The flusher turns messages into blob lines later.
 *
 * A batch that fits one queue message travels in one, and batches accepted while earlier sends
 * are in flight share a message (group commit, src/storage/coalescingSender.ts): under load the
 * flusher then receives and deletes one message per many batches, and those two requests are
 * what the flush spends its time on. A larger batch is first written whole to a staging blob
 * (stagedBatch.ts) and then announced by one small pointer message: the send is the single moment
 * the batch becomes visible to flushers, so it is stored all or not at all.
 */
import { withTraceparent } from '../../telemetry/tracing';
import { randomUUID } from 'node:crypto';
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { CoalescingSender } from '../../storage/coalescingSender';
import { creatingOnMissing } from '../../storage/createOnce';
import { encodeQueueMessage } from '../../storage/queue';
import type { LogBatch } from '../entry';
import {
  BUNDLE_BUDGET_BYTES,
  compactPart,
  logMessagePayload,
  logPartBytes,
  splitIntoMessages,
  type CompressedLogBatchMessage,
  type LogBatchMessage,
} from './batchMessage';
import { stageBatch } from './stagedBatch';

/** Where accepted batches go: the `log-batches` queue, and the logs container for staging. */
export interface LogIngestTarget {
  queue: QueueClient;
  container: ContainerClient;
}

/** What `POST /logs` reports. */
export interface AcceptedLogBatch {
  batchId: string;
  entries: number;
  /**
   * Queue messages the batch took: always 1 (a large batch is staged in a blob; a small one may
   * share its message with other batches).
   */
  messages: number;
  /** True when the batch was too large for one message and went through a staging blob. */
  staged: boolean;
}

/**
 * Sends `text`; a fresh deployment (or test) may not have the queue yet: it is created then (the
 * trigger creates it too).
 */
function send(queue: QueueClient, text: string): Promise<void> {
  return creatingOnMissing(
    () => queue.sendMessage(text),
    () => queue.createIfNotExists(),
  );
}

/** A queued part: one batch's lines, inline or compressed. */
type QueuedPart = LogBatchMessage | CompressedLogBatchMessage;

/**
 * Where `POST /logs` puts batches: one per process (the composition root builds it), so that
 * batches accepted at the same time share queue messages.
 */
export class LogIngest {
  private readonly sender: CoalescingSender<QueuedPart>;

  constructor(private readonly target: LogIngestTarget) {
    this.sender = new CoalescingSender<QueuedPart>({
      send: (parts) =>
        send(target.queue, encodeQueueMessage(withTraceparent(logMessagePayload(parts)))),
      itemBytes: logPartBytes,
      budgetBytes: BUNDLE_BUDGET_BYTES,
    });
  }

  /**
   * Stores a validated batch durably: one `log-batches` message, inline or pointing at a staged
   * blob. Batches accepted by this instance at the same time may share a message.
   *
   * @returns the batch id and how many entries it holds.
   * @throws {TooLargeError} when one entry alone is too large for a queue message.
   * @throws {DomainError} for storage faults left after the SDK's retries; nothing of the batch is
   * then flushed, unless the lost answer of a send that did land hid it (then all of it is).
   */
  async accept(batch: LogBatch): Promise<AcceptedLogBatch> {
    const batchId = randomUUID();
    const parts = splitIntoMessages(batchId, batch.source, batch.entries);
    const accepted = { batchId, entries: batch.entries.length, messages: 1 };
    if (parts.length === 1) {
      await this.sender.add(compactPart(parts[0]!));
      return { ...accepted, staged: false };
    }
    const pointer = await stageBatch(this.target.container, batchId, parts);
    // A failed send leaves the staging blob as an orphan for the lifecycle rule. It is deliberately
    // not deleted here: only a flusher that committed every line may delete it, which is what lets
    // a flusher take a missing blob for "already stored".
    await send(this.target.queue, encodeQueueMessage(withTraceparent(pointer)));
    return { ...accepted, staged: true };
  }
}
