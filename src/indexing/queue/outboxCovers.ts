/**
 * A department's **cover**: the delayed `index-updates` message a write waits for before it
 * answers. It surfaces after every commit it stands in for, so nothing waits on this process once
 * it answered; the writes of a department within one window share it, and the covers of several
 * departments travel together (group commit). A cover whose send fails is reported, the
 * department marked uncovered, and the writes wait for the writer's drain instead — or fail.
 *
 * Why: docs/queues.md "Transactional outbox" ("Nothing waits on the writer"); the word cover:
 * docs/glossary.md.
 */
import type { QueueClient } from '@azure/storage-queue';
import { ensureQueue } from '../../storage/createOnce';
import { sendJsonMessage } from '../../storage/queue';
import { nudgeSender, type OutboxNudge } from './indexMessages';

/**
 * Margin between this process's estimate of when a cover surfaces and a commit it may stand in
 * for: the queue starts the delay when it receives the message, after the send began.
 */
const NUDGE_MARGIN_MS = 250;

/** How covers are sent and what stands in for one that cannot be stored (queueChangeSink.ts). */
export interface CoverSettings {
  /** How long a cover stays invisible, in seconds. */
  delaySeconds: number;
  /** Clock (this process's). */
  now: () => number;
  /** Told of a cover that could not be sent, and of what stood in for it failing too. */
  onError: (error: unknown, department: string) => void;
  /** Records that a department's rows have no stored message (the sweep's pending marker). */
  markUncovered?: (department: string) => Promise<void>;
  /** The writer's drain that the writes wait for when their cover cannot be stored. */
  standIn?: (department: string) => Promise<unknown>;
  /** Without a stand-in, the writes fail with the send's error (else they answer). */
  failWithoutCover?: boolean;
  /** Keeps work running past the writes that started it, for the sink's `settled`. */
  track: (work: Promise<void>) => void;
}

/** A department's cover: a message that surfaces after every commit it stands in for. */
interface Cover {
  /**
   * Commits published before this moment (this process's clock) are covered: infinite until the
   * send begins, then the earliest moment the message may surface, less the margin.
   */
  until: number;
  /**
   * Settles once the message is stored — or, when its send failed, once what stands in for it
   * ended (the writer's drain), or rejects (`failWithoutCover`).
   */
  stored: Promise<void>;
  /** The `traceparent` of the write that opened it. */
  traceparent?: string;
}

/** The covers of one process's writes, one open per department (one instance per sink). */
export class Covers {
  private readonly covers = new Map<string, Cover>();
  private readonly sender = nudgeSender((departments) => this.send(departments));

  constructor(
    private readonly queue: QueueClient,
    private readonly settings: CoverSettings,
  ) {}

  /**
   * The cover of a commit of `department` published at `at`: the open one while it still stands
   * in for `at`, else a new one. Resolves once it is stored (or what stands in for it ended).
   *
   * @throws (rejects with) the send's error when the cover cannot be stored, nothing stands in
   *   for it and `failWithoutCover` is set.
   */
  coverFor(department: string, at: number, traceparent?: string): Promise<void> {
    const current = this.covers.get(department);
    if (current && at < current.until) return current.stored;
    const cover: Cover = {
      until: Number.POSITIVE_INFINITY,
      stored: Promise.resolve(),
      traceparent,
    };
    this.covers.set(department, cover);
    cover.stored = this.sender
      .add(department)
      .catch((error: unknown) => this.standInFor(department, cover, error));
    this.settings.track(cover.stored.catch(() => undefined));
    return cover.stored;
  }

  /** Sends one message covering `departments`; from its start it may be stored at any moment. */
  private async send(departments: readonly string[]): Promise<void> {
    const { delaySeconds, now } = this.settings;
    // From here on the message may be stored at any moment: it surfaces after `until`.
    const until = now() + delaySeconds * 1000 - NUDGE_MARGIN_MS;
    let traceparent: string | undefined;
    for (const department of departments) {
      const cover = this.covers.get(department);
      if (!cover) continue;
      cover.until = until;
      traceparent ??= cover.traceparent;
    }
    // `before`: the rows of the commits it stands in for were all written before `until`.
    const nudge: OutboxNudge = { v: 2, departments: [...departments], before: until };
    await ensureQueue(this.queue);
    await sendJsonMessage(
      this.queue,
      traceparent === undefined ? nudge : { ...nudge, traceparent },
      {
        visibilityTimeoutSeconds: delaySeconds > 0 ? delaySeconds : undefined,
      },
    );
  }

  /**
   * What the writes of a cover that could not be stored wait for instead: the pending marker, then
   * the writer's drain (or the send's error, with `failWithoutCover`).
   */
  private async standInFor(department: string, cover: Cover, error: unknown): Promise<void> {
    const { onError, markUncovered, standIn, failWithoutCover } = this.settings;
    // Perhaps not stored: the next commit opens a cover of its own.
    if (this.covers.get(department) === cover) this.covers.delete(department);
    onError(error, department);
    // Recorded first: if this process stops before what stands in for the cover ends, the
    // sweep's next run still finds the department without walking every other one.
    await markUncovered?.(department).catch((failed: unknown) => onError(failed, department));
    if (standIn) {
      // The writes that waited for this cover committed before now: a drain requested now
      // reads the outbox after them, and ends with their rows drained or handed over to a
      // stored nudge.
      await standIn(department).catch((failed: unknown) => onError(failed, department));
    } else if (failWithoutCover) {
      throw error;
    }
  }
}
