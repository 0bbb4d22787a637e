/**
 * Poison messages: counting, inspecting and replaying the messages the Functions host moved to
 * `<queue>-poison` after `maxDequeueCount` failed attempts. The one routine behind both
 * `tools/replayPoison.ts` and the admin routes `GET /operations/poison/{queue}` and
 * `POST /operations/poison/{queue}/replay`.
 *
 * A replay is idempotent in effect: each message is first sent to `<queue>` (same text, so the
 * same base64 JSON) and only then deleted from the poison queue. A crash, a lost answer or a
 * storage fault between the two leaves the message in both queues: the next replay sends it
 * again, so the worker gets it twice — a duplicate delivery, never a loss — and every queue
 * handler of the app tolerates duplicates (the archive re-applies an archived employee as done,
 * an outbox nudge re-drains an outbox, a log batch's lines are stored once: hourWriter.ts).
 */
import type { QueueClient } from '@azure/storage-queue';
import { poisonQueueNamed } from './operationsErrors';
import { withStorageErrors, unlessNotFound } from '../storage/storageFaults';
import { parsePoisonQueueName, poisonQueueName } from '../storage/keys/queues';
import { decodeQueueMessage } from '../storage/queue';
import { creatingOnMissing } from '../storage/createOnce';

/** How long a received poison message stays hidden while it is being moved (default). */
const REPLAY_LEASE_SECONDS = 60;
/** The most messages the Queue service returns or peeks per call. */
export const MAX_MESSAGES_PER_CALL = 32;

/** Where queues are opened by name (StorageClients is one). */
export interface QueueSource {
  queue(name: string): QueueClient;
}

/** One message moved (or, in a dry run, that would be). */
export interface ReplayedMessage {
  messageId: string;
  dequeueCount: number;
  insertedOn?: Date;
}

/** Options of {@link replayPoisonMessages}. */
export interface ReplayOptions {
  /** Move at most this many messages (default: until the poison queue is empty). */
  max?: number;
  /** Only list what would be moved (peek; at most 32 messages). */
  dryRun?: boolean;
  /** Called after each message is moved (or listed). */
  onMessage?: (message: ReplayedMessage) => void;
  /** Seconds a message being moved stays hidden from other readers (default 60). */
  leaseSeconds?: number;
  /**
   * Runs between a message's send and its delete (tests: stand for a crash there by throwing).
   */
  afterSend?: (message: ReplayedMessage) => Promise<void> | void;
}

/**
 * Moves messages from `<queueName>-poison` to `<queueName>`, sending before deleting; messages
 * received are hidden for {@link ReplayOptions.leaseSeconds} so a concurrent replay skips them.
 *
 * @returns the messages moved (or that would be, for a dry run), in the order handled.
 * @throws {ValidationError} when `queueName` is itself a poison queue.
 * @throws {DomainError} for a storage failure (messages already moved stay moved; the one in
 *   progress may be in both queues, and is sent again by the next replay).
 */
export async function replayPoisonMessages(
  queues: QueueSource,
  queueName: string,
  options: ReplayOptions = {},
): Promise<ReplayedMessage[]> {
  const main = parsePoisonQueueName(queueName);
  if (main !== undefined) {
    throw poisonQueueNamed(queueName, main);
  }
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const poison = queues.queue(poisonQueueName(queueName));
  const target = queues.queue(queueName);
  if (!(await withStorageErrors(() => poison.exists()))) return [];
  if (options.dryRun) {
    const peeked = await peekPoisonMessages(queues, queueName, max);
    return peeked.map(({ messageId, dequeueCount, insertedOn }) => {
      const message: ReplayedMessage = { messageId, dequeueCount, insertedOn };
      options.onMessage?.(message);
      return message;
    });
  }

  const moved: ReplayedMessage[] = [];
  while (moved.length < max) {
    const { receivedMessageItems } = await withStorageErrors(() =>
      poison.receiveMessages({
        numberOfMessages: Math.min(MAX_MESSAGES_PER_CALL, max - moved.length),
        visibilityTimeout: options.leaseSeconds ?? REPLAY_LEASE_SECONDS,
      }),
    );
    // Messages received earlier in this run are still hidden, so an empty answer means done.
    if (receivedMessageItems.length === 0) break;
    for (const item of receivedMessageItems) {
      const message: ReplayedMessage = {
        messageId: item.messageId,
        dequeueCount: item.dequeueCount,
        insertedOn: item.insertedOn,
      };
      await creatingOnMissing(
        () => target.sendMessage(item.messageText),
        () => target.createIfNotExists(),
      );
      await options.afterSend?.(message);
      // Already gone (another replay's delete after its lease ran out): the send above made a
      // duplicate, which the workers tolerate.
      await unlessNotFound(() => poison.deleteMessage(item.messageId, item.popReceipt));
      moved.push(message);
      options.onMessage?.(message);
    }
  }
  return moved;
}

/** A poison message as inspected: its metadata and its decoded payload. */
export interface PoisonMessage extends ReplayedMessage {
  /** The payload (base64 JSON, as the app sends), or `undefined` when it is not that. */
  body?: unknown;
  /** The raw text (first 4,096 characters) when it does not decode. */
  text?: string;
}

/** Characters of an undecodable message's text shown. */
const MAX_RAW_TEXT = 4_096;

/**
 * Peeks at up to `max` (≤ 32) messages of `<queueName>-poison` without hiding or changing them.
 *
 * @returns them decoded, oldest first as the service returns them; none when the queue is absent.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function peekPoisonMessages(
  queues: QueueSource,
  queueName: string,
  max: number,
): Promise<PoisonMessage[]> {
  const poison = queues.queue(poisonQueueName(queueName));
  const answer = await unlessNotFound(() =>
    poison.peekMessages({ numberOfMessages: Math.min(MAX_MESSAGES_PER_CALL, max) }),
  );
  return (answer?.peekedMessageItems ?? []).map((item) => {
    const message: PoisonMessage = {
      messageId: item.messageId,
      dequeueCount: item.dequeueCount,
      insertedOn: item.insertedOn,
    };
    try {
      message.body = decodeQueueMessage(item.messageText);
    } catch {
      message.text = item.messageText.slice(0, MAX_RAW_TEXT);
    }
    return message;
  });
}

/**
 * The approximate number of messages in a queue (one request); 0 when it does not exist.
 *
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function approximateLength(queue: QueueClient): Promise<number> {
  const properties = await unlessNotFound(() => queue.getProperties());
  return properties?.approximateMessagesCount ?? 0;
}
