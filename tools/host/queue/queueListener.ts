/**
 * Polls one storage queue for one function, with the Functions host's semantics:
 *
 * - receives up to `batchSize` messages, and fetches again only when the messages in flight drop
 *   to `newBatchThreshold`;
 * - polls again as soon as that threshold is reached after a poll that found messages (no delay
 *   in between); while the queue is empty polls with randomized exponential back-off up to
 *   `maxPollingInterval`, starting again from the minimum once a poll has found messages;
 * - keeps a received message invisible (10 minute lease, renewed at half-time) while the function
 *   runs; deletes it only after the function succeeded;
 * - after a failure makes it visible again after `visibilityTimeout`, and after the
 *   `maxDequeueCount`-th failed attempt moves it to `<queue>-poison`;
 * - on shutdown stops polling, waits for running functions up to a grace period, and releases
 *   the messages of those still running so they are redelivered, never deleted unprocessed.
 */
import type { DequeuedMessageItem, QueueClient } from '@azure/storage-queue';
import type { QueueOptions } from '../config/hostJson';
import { formatTimeSpan } from '../config/timeSpan';
import type { HostFunction } from '../functions';
import { describeError, type Logger } from '../log';
import type { FunctionRunner } from '../runner';
import { MIN_POLLING_DELAY_MS, PollingBackoff } from './backoff';
import { decodeMessageText, queueTriggerMetadata } from './queueMessage';

/** How long a received message stays invisible while its function runs (the host's lease). */
export const DEFAULT_MESSAGE_LEASE_MS = 10 * 60_000;

/** Tries of releasing a failed message for its next delivery (each with the SDK's own retries). */
const RELEASE_ATTEMPTS = 5;
/** The wait after the first failed release, doubled after each further one (1, 2, 4, 8 s). */
const RELEASE_BACKOFF_MS = 1_000;

/** How one queue listener polls, retries and moves poison messages. */
export interface QueueListenerOptions {
  fn: HostFunction;
  queue: QueueClient;
  poisonQueue: QueueClient;
  options: QueueOptions;
  runner: FunctionRunner;
  logger: Logger;
  leaseMs?: number;
  /** Waits between polls (default: a timer ended early by stop); tests record the delays. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface InFlight {
  message: DequeuedMessageItem;
  /** Current pop receipt; each visibility update issues a new one. */
  popReceipt: string;
  /** Storage operations on this message, one at a time (they change the pop receipt). */
  operations: Promise<unknown>;
  renewTimer?: NodeJS.Timeout;
  /** Set when shutdown gave up waiting and released the message. */
  abandoned: boolean;
  done: Promise<void>;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A 404 `QueueNotFound` from the queue service. */
function isQueueNotFound(error: unknown): boolean {
  const { statusCode, code } = error as { statusCode?: number; code?: string };
  return statusCode === 404 && (code === undefined || code === 'QueueNotFound');
}

const seconds = (ms: number): number => Math.max(0, Math.round(ms / 1000));

/**
 * Polls one function's queue, runs the function per message and deletes the message once it
 * succeeded (poison after `maxDequeueCount`).
 */
export class QueueListener {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #stop = new AbortController();
  readonly #backoff: PollingBackoff;
  readonly #leaseMs: number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  #loop: Promise<void> | undefined;
  #poisonQueueReady = false;
  /** Resolves when any in-flight message finishes (wakes a loop waiting for capacity). */
  #capacity: (() => void) | undefined;

  constructor(private readonly config: QueueListenerOptions) {
    this.#backoff = new PollingBackoff(MIN_POLLING_DELAY_MS, config.options.maxPollingIntervalMs);
    this.#leaseMs = config.leaseMs ?? DEFAULT_MESSAGE_LEASE_MS;
    this.#sleep = config.sleep ?? sleep;
  }

  get queueName(): string {
    return this.config.queue.name;
  }

  /** Number of messages whose function is running. */
  get inFlightCount(): number {
    return this.#inFlight.size;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops polling, waits up to `graceMs` for running functions, releases the rest. */
  async stop(graceMs: number): Promise<void> {
    this.#stop.abort();
    this.#capacity?.();
    await this.#loop;
    const running = [...this.#inFlight.values()];
    if (running.length > 0) {
      this.#log(
        'information',
        `Waiting up to ${graceMs} ms for ${running.length} running invocation(s).`,
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(running.map((entry) => entry.done)),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    await Promise.allSettled([...this.#inFlight.values()].map((entry) => this.#abandon(entry)));
  }

  #log(level: 'information' | 'warning' | 'error' | 'debug', message: string): void {
    this.config.logger.log(level, this.config.fn.name, message);
  }

  async #run(): Promise<void> {
    const { queue, options } = this.config;
    const signal = this.#stop.signal;
    let failing = false;
    let missing = false;
    // Whether a poll found messages since the last polling delay: the next delay is then the
    // minimum, and grows only while polls keep finding the queue empty.
    let foundWork = false;

    while (!signal.aborted) {
      if (this.#inFlight.size > options.newBatchThreshold) {
        await new Promise<void>((resolve) => (this.#capacity = resolve));
        this.#capacity = undefined;
        continue;
      }
      let messages: DequeuedMessageItem[];
      try {
        const response = await queue.receiveMessages({
          numberOfMessages: options.batchSize,
          visibilityTimeout: seconds(this.#leaseMs),
          abortSignal: signal,
        });
        messages = response.receivedMessageItems;
        if (missing) this.#log('information', `Queue '${queue.name}' exists now.`);
        missing = false;
        if (failing) this.#log('information', `Queue '${queue.name}' is reachable again.`);
        failing = false;
      } catch (error) {
        if (signal.aborted) break;
        if (isQueueNotFound(error)) {
          // Azure's listener does not create a missing queue: it backs off as from an empty one
          // (azure-webjobs-sdk QueueListener.ExecuteAsync, IsNotFoundQueueNotFound). The app or
          // its infrastructure creates the queues it listens on.
          if (!missing)
            this.#log(
              'warning',
              `Queue '${queue.name}' does not exist; polling it with back-off until it does.`,
            );
          missing = true;
          await this.#sleep(this.#backoff.next(false), signal);
          foundWork = false;
          continue;
        }
        if (!failing)
          this.#log(
            'warning',
            `Polling queue '${queue.name}' failed (retrying with back-off): ${(error as Error).message}`,
          );
        failing = true;
        await this.#sleep(this.#backoff.next(foundWork), signal);
        foundWork = false;
        continue;
      }
      for (const message of messages) this.#dispatch(message);
      if (messages.length > 0) {
        // As the host's listener does: after a poll that found work the next one waits only for
        // the messages in flight to drop to newBatchThreshold (top of the loop), not for a delay.
        foundWork = true;
        continue;
      }
      await this.#sleep(this.#backoff.next(foundWork), signal);
      foundWork = false;
    }
  }

  #dispatch(message: DequeuedMessageItem): void {
    const entry: InFlight = {
      message,
      popReceipt: message.popReceipt,
      operations: Promise.resolve(),
      abandoned: false,
      done: Promise.resolve(),
    };
    this.#inFlight.set(message.messageId, entry);
    entry.renewTimer = setInterval(
      () => void this.#renew(entry),
      Math.max(1000, this.#leaseMs / 2),
    );
    entry.renewTimer.unref();
    entry.done = this.#process(entry)
      .catch((error) => this.#log('error', `Message ${message.messageId}: ${describeError(error)}`))
      .finally(() => {
        clearInterval(entry.renewTimer);
        this.#inFlight.delete(message.messageId);
        this.#capacity?.();
      });
  }

  /** Runs a storage operation on the message after the previous one (pop receipts chain). */
  #sequenced<T>(entry: InFlight, operation: () => Promise<T>): Promise<T> {
    const result = entry.operations.then(operation);
    entry.operations = result.catch(() => undefined);
    return result;
  }

  async #renew(entry: InFlight): Promise<void> {
    if (entry.abandoned) return;
    try {
      await this.#sequenced(entry, async () => {
        const response = await this.config.queue.updateMessage(
          entry.message.messageId,
          entry.popReceipt,
          undefined,
          seconds(this.#leaseMs),
        );
        entry.popReceipt = response.popReceipt ?? entry.popReceipt;
      });
    } catch (error) {
      this.#log(
        'warning',
        `Could not extend the lease of message ${entry.message.messageId}: ${(error as Error).message}`,
      );
    }
  }

  async #process(entry: InFlight): Promise<void> {
    const { fn, options, runner } = this.config;
    const message = entry.message;

    // A message past the limit crashed earlier attempts before they could record a failure.
    if (message.dequeueCount > options.maxDequeueCount) {
      await this.#moveToPoison(entry);
      return;
    }
    const decoded = decodeMessageText(message.messageText, options.messageEncoding);
    if (!decoded.ok) {
      this.#log('error', `Message ${message.messageId}: ${decoded.reason}`);
      await this.#moveToPoison(entry);
      return;
    }

    let succeeded = false;
    try {
      await runner.run(fn, {
        data:
          fn.trigger.binding.dataType === 'binary'
            ? { bytes: Buffer.from(decoded.text, 'utf8') }
            : { string: decoded.text },
        metadata: queueTriggerMetadata(message, decoded.text, fn.name),
        reason: `New queue message detected on '${this.queueName}'.`,
      });
      succeeded = true;
    } catch {
      // The invoker logged the failure; the message's fate is decided below.
    }
    if (entry.abandoned) return;

    if (succeeded) {
      await this.#sequenced(entry, () =>
        this.config.queue.deleteMessage(message.messageId, entry.popReceipt),
      );
    } else if (message.dequeueCount >= options.maxDequeueCount) {
      await this.#moveToPoison(entry);
    } else {
      await this.#releaseForRetry(entry, options.visibilityTimeoutMs);
    }
  }

  /**
   * Releases a failed message for its next delivery. Storage refusing the update (throttled past
   * the SDK's retries) is tried again a few times, with back-off: a message left as it is stays
   * invisible for its whole lease (10 minutes) instead of `visibilityTimeout`.
   */
  async #releaseForRetry(entry: InFlight, visibleAfterMs: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#release(entry, visibleAfterMs);
        return;
      } catch (error) {
        if (attempt >= RELEASE_ATTEMPTS || entry.abandoned) throw error;
        this.#log(
          'warning',
          `Could not release message ${entry.message.messageId} (${(error as Error).message}); trying again.`,
        );
        await this.#sleep(RELEASE_BACKOFF_MS * 2 ** (attempt - 1), this.#stop.signal);
      }
    }
  }

  async #release(entry: InFlight, visibleAfterMs: number): Promise<void> {
    await this.#sequenced(entry, async () => {
      const response = await this.config.queue.updateMessage(
        entry.message.messageId,
        entry.popReceipt,
        undefined,
        seconds(visibleAfterMs),
      );
      entry.popReceipt = response.popReceipt ?? entry.popReceipt;
    });
    this.#log(
      'debug',
      `Message ${entry.message.messageId} will be visible again after ${formatTimeSpan(visibleAfterMs)}.`,
    );
  }

  async #abandon(entry: InFlight): Promise<void> {
    if (entry.abandoned) return;
    entry.abandoned = true;
    clearInterval(entry.renewTimer);
    try {
      await this.#release(entry, this.config.options.visibilityTimeoutMs);
      this.#log(
        'warning',
        `Shutdown: message ${entry.message.messageId} was still being processed; released for redelivery.`,
      );
    } catch (error) {
      this.#log(
        'warning',
        `Shutdown: message ${entry.message.messageId} could not be released (${(error as Error).message}); it reappears when its lease expires.`,
      );
    }
  }

  async #moveToPoison(entry: InFlight): Promise<void> {
    const { poisonQueue, queue, options } = this.config;
    this.#log(
      'warning',
      `Message has reached MaxDequeueCount of ${options.maxDequeueCount}. Moving message to queue '${poisonQueue.name}'.`,
    );
    if (!this.#poisonQueueReady) {
      await poisonQueue.createIfNotExists();
      this.#poisonQueueReady = true;
    }
    // The poison copy keeps the original (still encoded) text, as the host's copy does.
    await poisonQueue.sendMessage(entry.message.messageText);
    await this.#sequenced(entry, () =>
      queue.deleteMessage(entry.message.messageId, entry.popReceipt),
    );
  }
}
