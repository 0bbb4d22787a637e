/**
 * The directory's {@link EmployeeChangeSink} over the `index-updates` queue: the directory records
 * each change as an index outbox row in the change's own transaction
 * (src/directory/entities/outbox.ts), and `publish` makes sure a worker will drain the
 * department's outbox after the commit. It resolves only once the write's **cover** is stored: a
 * message that surfaces after the commit ({@link coverDelayFor}), shared by the writes of a
 * department within one window, so nothing waits on this process once it answered. The prompt
 * path runs after the response: the writer's own drain (src/indexing/drain/writerDrain.ts, as
 * deployed), or a nudge lingering 100 ms (`INDEX_DRAIN_LINGER_MS=0`), or none (the cover is the
 * delayed nudge, `INDEX_NUDGE_DELAY_SECONDS` > 0). A cover whose send fails is reported
 * (`onNudgeError`); the writes then wait for the writer's drain, or fail (`failWithoutCover`).
 *
 * Why: docs/queues.md "Transactional outbox" ("Nothing waits on the writer", the prompt path);
 * the words nudge, cover, linger: docs/glossary.md.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { EmployeeChangeSink } from '../../directory';
import { ensureQueue } from '../../storage/createOnce';
import { CoalescingSender } from '../../storage/coalescingSender';
import { sendJsonMessage } from '../../storage/queue';
import { currentTraceparent, withTraceparent } from '../../telemetry/tracing';
import { nudgeBudget, nudgeDepartmentBytes, type OutboxNudge } from './indexMessages';

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

/**
 * Margin between this process's estimate of when a cover surfaces and a commit it may stand in
 * for: the queue starts the delay when it receives the message, after the send began.
 */
const NUDGE_MARGIN_MS = 250;

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

/** Builds the sink over the `index-updates` queue client (one per process: it packs nudges). */
export function queueChangeSink(queue: QueueClient, options: ChangeQueueOptions = {}): ChangeQueue {
  return { outbox: true, ...nudger(queue, options) };
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

/**
 * Publishing: each write waits for its department's cover (see the file comment), then the
 * prompt path runs: the writer's drain after its linger, or a lingering nudge.
 */
function nudger(
  queue: QueueClient,
  options: ChangeQueueOptions,
): Pick<ChangeQueue, 'publish' | 'settled'> {
  const nudgeDelaySeconds = options.nudgeDelaySeconds ?? 0;
  const now = options.now ?? Date.now;
  const onError = options.onNudgeError ?? (() => undefined);
  const drain = nudgeDelaySeconds > 0 ? undefined : options.drain;
  const drainLingerMs = options.drainLingerMs ?? DEFAULT_DRAIN_LINGER_MS;
  const nudgeLingerMs = options.nudgeLingerMs ?? DEFAULT_NUDGE_LINGER_MS;
  const coverDelaySeconds =
    nudgeDelaySeconds > 0
      ? nudgeDelaySeconds
      : (options.coverDelaySeconds ?? coverDelayFor(drain ? drainLingerMs : nudgeLingerMs));
  const covers = new Map<string, Cover>();
  /** Departments whose writer drain waits for the end of its linger. */
  const lingering = new Set<string>();
  /** Departments of nudges lingering or waiting for a send slot (their send has not begun). */
  const unsent = new Set<string>();
  /** Departments waiting for the end of the nudge's linger. */
  const held = new Set<string>();
  const pending = new Set<Promise<void>>();
  /**
   * Department → the `traceparent` of the write that asked for its lingering nudge. A message
   * carries the first of its departments' (one message, one parent; the others' writes are not
   * linked).
   */
  const traces = new Map<string, string>();
  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const traced = (nudge: OutboxNudge, traceparent: string | undefined): object =>
    traceparent === undefined ? nudge : { ...nudge, traceparent };
  const coverSender = new CoalescingSender<string>({
    send: async (departments) => {
      // From here on the message may be stored at any moment: it surfaces after `until`.
      const until = now() + coverDelaySeconds * 1000 - NUDGE_MARGIN_MS;
      let traceparent: string | undefined;
      for (const department of departments) {
        const cover = covers.get(department);
        if (!cover) continue;
        cover.until = until;
        traceparent ??= cover.traceparent;
      }
      // `before`: the rows of the commits it stands in for were all written before `until`.
      const cover: OutboxNudge = { v: 2, departments: [...departments], before: until };
      await ensureQueue(queue);
      await sendJsonMessage(queue, traced(cover, traceparent), {
        visibilityTimeoutSeconds: coverDelaySeconds > 0 ? coverDelaySeconds : undefined,
      });
    },
    itemBytes: nudgeDepartmentBytes,
    budgetBytes: nudgeBudget(),
  });
  const nudgeSender = new CoalescingSender<string>({
    send: async (departments) => {
      // A nudge being sent does not stand for later commits: it may be stored, and drained,
      // before them (those get a nudge of their own).
      const traceparent = departments.map((d) => traces.get(d)).find((t) => t !== undefined);
      for (const department of departments) {
        unsent.delete(department);
        traces.delete(department);
      }
      await ensureQueue(queue);
      await sendJsonMessage(queue, traced({ v: 2, departments: [...departments] }, traceparent));
    },
    itemBytes: nudgeDepartmentBytes,
    budgetBytes: nudgeBudget(),
  });
  const coverFor = (department: string, at: number, traceparent?: string): Promise<void> => {
    const current = covers.get(department);
    if (current && at < current.until) return current.stored;
    const cover: Cover = {
      until: Number.POSITIVE_INFINITY,
      stored: Promise.resolve(),
      traceparent,
    };
    covers.set(department, cover);
    cover.stored = coverSender.add(department).catch(async (error: unknown) => {
      // Perhaps not stored: the next commit opens a cover of its own.
      if (covers.get(department) === cover) covers.delete(department);
      onError(error, department);
      // Recorded first: if this process stops before what stands in for the cover ends, the
      // sweep's next run still finds the department without walking every other one.
      await options
        .markUncovered?.(department)
        .catch((failed: unknown) => onError(failed, department));
      if (options.drain) {
        // The writes that waited for this cover committed before now: a drain requested now
        // reads the outbox after them, and ends with their rows drained or handed over to a
        // stored nudge. (Not `drain`, unset with a nudge delay: this one is no prompt path.)
        await options.drain(department).catch((failed: unknown) => onError(failed, department));
      } else if (options.failWithoutCover) {
        throw error;
      }
    });
    track(cover.stored.catch(() => undefined));
    return cover.stored;
  };
  const sendNudges = (departments: readonly string[]): Promise<void> =>
    Promise.all(
      departments.map((department) =>
        nudgeSender.add(department).catch((error: unknown) => onError(error, department)),
      ),
    ).then(() => undefined);
  // A department is left out while a nudge for it lingers or waits for a send slot: that message
  // is stored after this commit, so its drain reads the outbox after it. Unreferenced timers
  // here and below: the cover makes up for a process that stops before they fire.
  const nudgeSoon = (departments: readonly string[], traceparent?: string): void => {
    const fresh = departments.filter((department) => !unsent.has(department));
    for (const department of fresh) {
      unsent.add(department);
      if (traceparent !== undefined) traces.set(department, traceparent);
    }
    if (fresh.length === 0) return;
    if (nudgeLingerMs <= 0) return track(sendNudges(fresh));
    if (held.size === 0) {
      track(
        new Promise<void>((resolve) => {
          setTimeout(() => {
            const departments = [...held];
            held.clear();
            void sendNudges(departments).then(resolve);
          }, nudgeLingerMs).unref();
        }),
      );
    }
    for (const department of fresh) held.add(department);
  };
  const drainSoon = (department: string, run: (department: string) => Promise<unknown>): void => {
    if (lingering.has(department)) return;
    lingering.add(department);
    track(
      new Promise<void>((resolve) => {
        setTimeout(() => {
          // Requested now, the drain reads the outbox after this moment (a drain already running
          // reads it once more): a later write lingers anew. When it fails, a nudge at once.
          const drained = run(department);
          lingering.delete(department);
          void drained.then(
            () => resolve(),
            () => {
              unsent.add(department);
              void sendNudges([department]).then(resolve);
            },
          );
        }, drainLingerMs).unref();
      }),
    );
  };
  const publish: ChangeQueue['publish'] = async (published) => {
    const at = now();
    const departments = [...new Set(published.map((c) => c.department))];
    const traceparent = currentTraceparent();
    const stored = departments.map((department) => coverFor(department, at, traceparent));
    if (drain) for (const department of departments) drainSoon(department, drain);
    else if (nudgeDelaySeconds <= 0) nudgeSoon(departments, traceparent);
    await Promise.all(stored);
  };
  const settled: ChangeQueue['settled'] = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return { publish, settled };
}
