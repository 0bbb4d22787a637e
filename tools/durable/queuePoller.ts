/**
 * Polls one queue and runs a handler per message, the way the Functions host polls queues:
 * immediately again while messages keep coming, backing off (doubling up to a maximum) while the
 * queue is empty, with a bounded number of messages in flight.
 *
 * A message is deleted only after its handler succeeded; its lease is renewed while the handler
 * runs. A failed handler makes it visible again after a short back-off; after `maxDequeueCount`
 * deliveries it is dropped with a log line (the start-up recovery scan wakes every unfinished
 * orchestration). A message that is not one of the runtime's own is never deleted, only hidden for
 * `unreadableHideSeconds` and logged (docs/durable.md "Storage layout", "Crash safety").
 */
import type { QueueClient } from '@azure/storage-queue';
import type { DurableStore } from './store/store';
import type { ReceivedMessage } from './store/records';
import { decodeMessage } from './store/storageWire';

/** How a queue poller reads, decodes and hands out its messages. */
export interface QueuePollerOptions<T> {
  name: string;
  store: DurableStore;
  queue: QueueClient;
  /** The decoded JSON as a message of this queue, or undefined when it is not one. */
  parse: (value: unknown) => T | undefined;
  handle: (body: T, message: ReceivedMessage) => Promise<void>;
  concurrency: number;
  leaseSeconds: number;
  minIntervalMs: number;
  maxIntervalMs: number;
  maxDequeueCount: number;
  /** How long a message that is not the runtime's own is hidden before it is seen again. */
  unreadableHideSeconds: number;
  log: (...args: unknown[]) => void;
}

/**
 * Polls one queue with back-off while idle and hands each decoded message to a handler, a bounded
 * number at a time.
 */
export class QueuePoller<T> {
  readonly #options: QueuePollerOptions<T>;
  readonly #inFlight = new Set<Promise<void>>();
  #loop?: Promise<void>;
  #stopping = false;
  #wakeSleep?: () => void;

  constructor(options: QueuePollerOptions<T>) {
    this.#options = options;
  }

  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    this.#loop = this.#run();
  }

  /** Stops receiving and waits for the messages in flight to finish. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wakeSleep?.();
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
    this.#loop = undefined;
  }

  /** Cuts the current back-off short (new work was just enqueued in this process). */
  poke(): void {
    this.#wakeSleep?.();
  }

  async #run(): Promise<void> {
    const o = this.#options;
    let interval = o.minIntervalMs;
    while (!this.#stopping) {
      const free = o.concurrency - this.#inFlight.size;
      if (free <= 0) {
        await Promise.race(this.#inFlight);
        continue;
      }
      let messages: ReceivedMessage[] = [];
      try {
        messages = await o.store.receive(o.queue, free, o.leaseSeconds);
      } catch (error) {
        o.log(`[durable] ${o.name}: receiving failed`, error);
      }
      if (this.#stopping) {
        // Received just as we stopped: hand them straight back for the next owner.
        await Promise.allSettled(messages.map((m) => o.store.extendMessage(o.queue, m, 0)));
        break;
      }
      if (messages.length === 0) {
        await this.#sleep(interval);
        interval = Math.min(o.maxIntervalMs, interval * 2);
        continue;
      }
      interval = o.minIntervalMs;
      for (const message of messages) {
        const work = this.#process(message).finally(() => this.#inFlight.delete(work));
        this.#inFlight.add(work);
      }
    }
  }

  async #process(message: ReceivedMessage): Promise<void> {
    const o = this.#options;
    let body: T | undefined;
    try {
      body = o.parse(decodeMessage(message.text));
    } catch {
      body = undefined;
    }
    if (body === undefined) {
      o.log(
        `[durable] ${o.name}: ERROR: message ${message.messageId} in queue '${o.queue.name}' is not one of this runtime's (${describeText(message.text)}). ` +
          `It is left in the queue, not deleted, and hidden for ${o.unreadableHideSeconds} s: something else writes to this queue — check the task hub name and storage account.`,
      );
      await o.store
        .extendMessage(o.queue, message, o.unreadableHideSeconds)
        .catch((error: unknown) =>
          o.log(`[durable] ${o.name}: could not hide message ${message.messageId}`, error),
        );
      return;
    }
    const renewEveryMs = Math.max(200, (o.leaseSeconds * 1000) / 3);
    let renewing = Promise.resolve();
    const renewal = setInterval(() => {
      renewing = renewing
        .then(() => o.store.extendMessage(o.queue, message, o.leaseSeconds))
        .catch((error: unknown) => o.log(`[durable] ${o.name}: lease renewal failed`, error));
    }, renewEveryMs);
    let failure: unknown;
    let failed = false;
    try {
      await o.handle(body, message);
    } catch (error) {
      failed = true;
      failure = error;
    } finally {
      clearInterval(renewal);
      await renewing;
    }
    if (!failed) {
      await o.store.deleteMessage(o.queue, message).catch((error: unknown) =>
        // The work is done and idempotent: if the message comes back, repeating it is harmless.
        o.log(
          `[durable] ${o.name}: could not delete a handled message; it will be delivered again`,
          error,
        ),
      );
      return;
    }
    if (message.dequeueCount >= o.maxDequeueCount) {
      o.log(
        `[durable] ${o.name}: giving up on a message after ${message.dequeueCount} attempts`,
        failure,
      );
      await o.store.deleteMessage(o.queue, message).catch(() => undefined);
      return;
    }
    o.log(
      `[durable] ${o.name}: handler failed (attempt ${message.dequeueCount}), will retry`,
      failure,
    );
    const backOffSeconds = Math.min(30, message.dequeueCount);
    await o.store.extendMessage(o.queue, message, backOffSeconds).catch(() => undefined);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeSleep = done;
    });
  }
}

/** The start of a message's text for the log (enough to recognise it, never the whole payload). */
function describeText(text: string): string {
  const head = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return `${text.length} characters: ${JSON.stringify(head)}`;
}
