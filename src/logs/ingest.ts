/**
 * Accepting a `POST /logs` batch: it is durable once its queue message(s) are stored, and only then
 * does the caller hear "accepted". The flusher turns messages into blob lines later.
 *
 * A batch too big for one queue message is split into parts. To keep the batch all-or-nothing, the
 * parts are first sent invisible; if one send fails, the parts already sent are deleted (nobody can
 * have received them yet) and the caller gets the error; once all are stored they are made visible.
 */
import { randomUUID } from 'node:crypto';
import type { QueueClient } from '@azure/storage-queue';
import { isNotFound, withStorageErrors } from '../storage/errors';
import { encodeQueueMessage } from '../storage/queue';
import type { LogBatch } from './entry';
import { splitIntoMessages } from './batchMessage';

/** How long the parts of a multi-part batch stay hidden while the rest is being sent. */
const HIDDEN_PARTS_SECONDS = 60;

/** What `POST /logs` reports. */
export interface AcceptedLogBatch {
  batchId: string;
  entries: number;
  /** Queue messages the batch was split into. */
  messages: number;
}

interface SentMessage {
  messageId: string;
  popReceipt: string;
  text: string;
}

async function send(
  queue: QueueClient,
  text: string,
  visibilityTimeout?: number,
): Promise<SentMessage> {
  const attempt = (): Promise<SentMessage> =>
    queue
      .sendMessage(text, { visibilityTimeout })
      .then((r) => ({ messageId: r.messageId, popReceipt: r.popReceipt, text }));
  return withStorageErrors(async () => {
    try {
      return await attempt();
    } catch (error) {
      // A fresh deployment (or test) may not have the queue yet; the trigger creates it too.
      if (!isNotFound(error)) throw error;
      await queue.createIfNotExists();
      return attempt();
    }
  });
}

/**
 * Stores a validated batch durably on the `log-batches` queue.
 *
 * @returns the batch id and how many entries and queue messages it became.
 * @throws {TooLargeError} when one entry alone is too large for a queue message.
 * @throws {DomainError} for storage faults left after the SDK's retries (nothing of the batch
 * stays queued, unless the clean-up itself failed).
 */
export async function acceptLogBatch(
  queue: QueueClient,
  batch: LogBatch,
): Promise<AcceptedLogBatch> {
  const batchId = randomUUID();
  const texts = splitIntoMessages(batchId, batch.source, batch.entries).map(encodeQueueMessage);
  const accepted = { batchId, entries: batch.entries.length, messages: texts.length };
  if (texts.length === 1) {
    await send(queue, texts[0]!);
    return accepted;
  }

  const results = await Promise.allSettled(
    texts.map((text) => send(queue, text, HIDDEN_PARTS_SECONDS)),
  );
  const sent = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    await Promise.allSettled(sent.map((m) => queue.deleteMessage(m.messageId, m.popReceipt)));
    throw failure.reason;
  }
  // Revealing is an optimisation: a part whose reveal fails becomes visible by itself shortly.
  await Promise.allSettled(
    sent.map((m) => queue.updateMessage(m.messageId, m.popReceipt, m.text, 0)),
  );
  return accepted;
}
