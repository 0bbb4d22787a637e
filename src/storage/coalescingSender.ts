/**
 * Group commit for queue messages. Every queue message costs a send, a receive share and a delete,
 * and on a busy queue those requests, not the payload bytes, are what the service and the
 * emulator spend their time on. So items handed over while earlier sends are still in flight wait
 * and then travel together in one message, up to the message size limit.
 *
 * Nothing is delayed on purpose: with a free send slot an item goes out at once, alone. Packing
 * happens only under load, when callers would otherwise queue behind each other anyway. A caller's
 * promise settles with the send of the message that holds its item, so "resolved" still means
 * "durably on the queue", and a failed send fails every caller whose item it carried: a queue
 * message is stored whole or not at all, so either none of them is stored or, when only the
 * answer of a send that landed was lost, all of them are (as for a message of one item).
 */
import { notPositiveInteger } from './storageErrors';

/** Options of {@link CoalescingSender}. */
export interface CoalescingSenderOptions<T> {
  /**
   * Stores one message holding `items` (in the order they were added).
   *
   * @throws whatever storage fault is left after the SDK's retries; every item's caller gets it.
   */
  send(items: readonly T[]): Promise<void>;
  /** Bytes `item` adds to a message with other items (its share of the encoded size). */
  itemBytes(item: T): number;
  /**
   * Bytes all items of one message may take together. The first item of a message is taken
   * whatever its size, so an item too large to share a message travels alone.
   */
  budgetBytes: number;
  /** Messages being sent at once (default 4). */
  maxInFlight?: number;
}

interface Waiting<T> {
  item: T;
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const DEFAULT_MAX_IN_FLIGHT = 4;

/** Packs concurrently added items into as few queue messages as their size allows. */
export class CoalescingSender<T> {
  private readonly waiting: Waiting<T>[] = [];
  private readonly maxInFlight: number;
  private inFlight = 0;
  private scheduled = false;
  /** Messages sent so far (observability and tests). */
  messagesSent = 0;

  constructor(private readonly options: CoalescingSenderOptions<T>) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    if (!Number.isInteger(this.maxInFlight) || this.maxInFlight < 1) {
      throw notPositiveInteger('maxInFlight', this.maxInFlight);
    }
  }

  /**
   * Hands over one item.
   *
   * @returns a promise that resolves once the message holding the item is stored.
   * @throws (the promise rejects with) the fault of the send that carried the item.
   */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, bytes: this.options.itemBytes(item), resolve, reject });
      // Items added in the same synchronous run (e.g. one caller's several items) are packed
      // together even when a slot is free.
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /**
   * Hands over several items; resolves once all of them are stored (possibly in several messages).
   */
  async addAll(items: readonly T[]): Promise<void> {
    await Promise.all(items.map((item) => this.add(item)));
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const group = this.takeMessage();
      this.inFlight++;
      this.messagesSent++;
      Promise.resolve()
        .then(() => this.options.send(group.map((w) => w.item)))
        .then(
          () => group.forEach((w) => w.resolve()),
          (error: unknown) => group.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  /** The oldest waiting items that fit one message together (at least one). */
  private takeMessage(): Waiting<T>[] {
    const first = this.waiting.shift()!;
    const group = [first];
    let used = first.bytes;
    while (this.waiting.length > 0 && used + this.waiting[0]!.bytes <= this.options.budgetBytes) {
      const next = this.waiting.shift()!;
      used += next.bytes;
      group.push(next);
    }
    return group;
  }
}
