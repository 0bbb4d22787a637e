/**
 * The directory's {@link EmployeeChangeSink} over the `index-updates` queue: the directory records
 * each change as an index outbox row in the change's own transaction
 * (src/directory/entities/outbox.ts), and `publish` makes sure a worker will drain the
 * department's outbox after the commit. It resolves once the write's cover is stored
 * (outboxCovers.ts); the prompt path runs after the response (promptPath.ts): the writer's own
 * drain as deployed, a nudge lingering 100 ms (`INDEX_DRAIN_LINGER_MS=0`), or none (the cover is
 * the delayed nudge, `INDEX_NUDGE_DELAY_SECONDS` > 0). Also the drain's own nudges.
 *
 * Why: docs/queues.md "Transactional outbox" ("Nothing waits on the writer", the prompt path);
 * the words nudge, cover, linger: docs/glossary.md.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { EmployeeChangeSink } from '../../directory';
import { ensureQueue } from '../../storage/createOnce';
import { sendJsonMessage } from '../../storage/queue';
import { currentTraceparent, withTraceparent } from '../../telemetry/tracing';
import { Covers } from './outboxCovers';
import { PromptPath } from './promptPath';

/** The `index-updates` queue as the directory's change sink (outbox nudges). */
export interface ChangeQueue extends EmployeeChangeSink {
  readonly outbox: true;
  /**
   * Resolves once every message handed over so far is stored or has failed, and the writer's
   * drains started so far have ended (tests; a host shutting down).
   */
  settled(): Promise<void>;
}

/** Options of {@link queueChangeSink}. */
export interface ChangeQueueOptions {
  /**
   * Visibility delay of a nudge in seconds (default 0); see {@link Config}
   * `indexNudgeDelaySeconds`. Above 0 the delayed nudge is each write's cover, and nothing else is
   * sent.
   */
  nudgeDelaySeconds?: number;
  /**
   * How long a nudge visible at once waits for the nudges of later writes to travel with it
   * (default {@link DEFAULT_NUDGE_LINGER_MS}; 0 sends at once). Without the writer's drain only.
   */
  nudgeLingerMs?: number;
  /**
   * Told of a cover or nudge that could not be sent (after the SDK's retries), and of the writer's
   * drain that stood in for a cover and failed too. Default: ignored.
   */
  onNudgeError?: (error: unknown, department: string) => void;
  /**
   * When a cover cannot be stored and there is no writer's drain to wait for instead, `publish`
   * rejects with the send's error (a queue-triggered writer: its message comes back, and its
   * replay publishes again). Default: the write answers, its rows left to the outbox sweep.
   */
  failWithoutCover?: boolean;
  /**
   * Records that a department's rows have no stored message (its cover could not be stored): the
   * pending-work marker the sweep reads (src/indexing/drain/pendingMarkers.ts). The writes wait
   * for it, before the writer's drain that stands in for the cover; when it fails too, that is
   * reported (`onNudgeError`) and the outbox walk is what finds the rows. Default: none.
   */
  markUncovered?: (department: string) => Promise<void>;
  /**
   * The writing process's own drain of a department's outbox (src/indexing/drain/writerDrain.ts
   * through a process's shared drains), run after the linger instead of a nudge; when it throws, a
   * nudge is sent at once (it sends one itself when it cannot finish alone). Not used with a nudge
   * delay, whose point is fewer, later drains.
   */
  drain?: (department: string) => Promise<unknown>;
  /**
   * How long a department's writes wait for the writes that follow before the writer drains it
   * (default {@link DEFAULT_DRAIN_LINGER_MS}): each department lingers from its own first write,
   * so the writes of a department that come within it share one drain round.
   */
  drainLingerMs?: number;
  /**
   * How long a department's cover stays invisible, in seconds (default {@link coverDelayFor} the
   * drain or nudge linger; with a nudge delay, that delay). It bounds how long a change waits
   * when its process stopped right after answering, and one cover is sent per department and
   * that many seconds.
   */
  coverDelaySeconds?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** Default of {@link ChangeQueueOptions.nudgeLingerMs}: a tenth of a second of index lag. */
export const DEFAULT_NUDGE_LINGER_MS = 100;

/**
 * Default of {@link ChangeQueueOptions.drainLingerMs}: half a second of index lag, so that at 2.5
 * writes/s per department (a write every 400 ms) two writes share a round. A round costs five
 * requests plus one per member list whatever the writes it takes (docs/queues.md, "The writer
 * drains"), so sharing it is what brings a create's index maintenance under six requests.
 */
export const DEFAULT_DRAIN_LINGER_MS = 500;

/**
 * Shortest visibility delay of a cover, in seconds: a cover costs a send, a receive, a delete and
 * an outbox read, shared by the writes of its department in that time (at 2.5 writes/s, 25 of
 * them); a change whose process stopped right after answering waits about this long plus the
 * queue's polling interval (2 s, host.json).
 */
export const COVER_DELAY_SECONDS = 10;

/**
 * A cover's visibility delay for a linger of the prompt path (the writer's drain or the nudge):
 * {@link COVER_DELAY_SECONDS}, and at least two seconds past the linger, so that a process that
 * lives has drained the rows when its cover surfaces.
 */
export function coverDelayFor(lingerMs: number): number {
  return Math.max(COVER_DELAY_SECONDS, Math.ceil((lingerMs + 2_000) / 1000));
}

/**
 * Builds the sink over the `index-updates` queue client (one per process: it packs nudges). Each
 * write waits for its department's cover (outboxCovers.ts), then the prompt path runs
 * (promptPath.ts): the writer's drain after its linger, or a lingering nudge.
 */
export function queueChangeSink(queue: QueueClient, options: ChangeQueueOptions = {}): ChangeQueue {
  const nudgeDelaySeconds = options.nudgeDelaySeconds ?? 0;
  const now = options.now ?? Date.now;
  const onError = options.onNudgeError ?? (() => undefined);
  // Not with a nudge delay: the delayed nudge is the cover, and the point is fewer drains.
  const drain = nudgeDelaySeconds > 0 ? undefined : options.drain;
  const drainLingerMs = options.drainLingerMs ?? DEFAULT_DRAIN_LINGER_MS;
  const nudgeLingerMs = options.nudgeLingerMs ?? DEFAULT_NUDGE_LINGER_MS;
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const covers = new Covers(queue, {
    delaySeconds:
      nudgeDelaySeconds > 0
        ? nudgeDelaySeconds
        : (options.coverDelaySeconds ?? coverDelayFor(drain ? drainLingerMs : nudgeLingerMs)),
    now,
    onError,
    markUncovered: options.markUncovered,
    // `options.drain`, not `drain`: standing in for a lost cover is no prompt path.
    standIn: options.drain,
    failWithoutCover: options.failWithoutCover,
    track,
  });
  const prompt = new PromptPath(queue, { nudgeLingerMs, drainLingerMs, onError, track });
  const publish: ChangeQueue['publish'] = async (published) => {
    const at = now();
    const departments = [...new Set(published.map((c) => c.department))];
    const traceparent = currentTraceparent();
    const stored = departments.map((department) => covers.coverFor(department, at, traceparent));
    if (drain) for (const department of departments) prompt.drainSoon(department, drain);
    else if (nudgeDelaySeconds <= 0) prompt.nudgeSoon(departments, traceparent);
    await Promise.all(stored);
  };
  const settled: ChangeQueue['settled'] = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return { outbox: true, publish, settled };
}

/**
 * Sends one outbox nudge for a department at once, invisible for `delaySeconds` — a drain's own
 * nudges (src/indexing/drain/leasedDrain.ts: the continuation of a drain whose invocation's budget
 * ran out, and the nudge that outlives a lease holder). Unlike a write's nudge, it is awaited, and
 * a failure reaches the caller (whose invocation is then retried).
 *
 * @throws {DomainError} when the message cannot be stored.
 */
export function outboxNudgeSender(
  queue: QueueClient,
): (department: string, delaySeconds: number, holder?: string) => Promise<void> {
  return async (department, delaySeconds, holder) => {
    await ensureQueue(queue);
    const nudge = { v: 2, departments: [department], ...(holder === undefined ? {} : { holder }) };
    await sendJsonMessage(queue, withTraceparent(nudge), {
      visibilityTimeoutSeconds: delaySeconds > 0 ? delaySeconds : undefined,
    });
  };
}
