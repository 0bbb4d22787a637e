/**
 * The directory's {@link EmployeeChangeSink} over the `index-updates` queue: the directory records
 * each change as an index outbox row in the change's own transaction (src/directory/outbox.ts),
 * and `publish` only nudges the worker to drain the departments' outboxes
 * (`{"v":2,"departments"}`). A crash between the commit and the nudge loses nothing: the row waits
 * for the next nudge or the outbox sweep. With `drain`, the writing process drains the department
 * itself after the linger and nudges only when that cannot finish (src/indexing/writerDrain.ts).
 *
 * (Before the outbox, each change travelled as a v1 change message, and an optional pre-write
 * announcement sent one more. Neither is sent any more; the worker still reads v1 messages a
 * deploy may have left on the queue: src/indexing/indexUpdates.ts.)
 *
 * Nudges of concurrent writes are shared (group commit, src/storage/coalescingSender.ts), so under
 * load the queue sees a few messages instead of one per write. A nudge is not the record of its
 * change (the outbox row is), so a write returns without waiting for its nudge.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { EmployeeChangeSink } from '../directory';
import { ensureQueue } from '../storage/createOnce';
import { CoalescingSender } from '../storage/coalescingSender';
import { sendJsonMessage } from '../storage/queue';
import { currentTraceparent, withTraceparent } from '../telemetry/tracing';
import { nudgeBudget, nudgeDepartmentBytes } from './indexMessages';

/** The `index-updates` queue as the directory's change sink (outbox nudges). */
export interface ChangeQueue extends EmployeeChangeSink {
  readonly outbox: true;
  /** Resolves once every nudge handed over so far is stored or has failed (tests; a host shutting down). */
  settled(): Promise<void>;
}

/** Options of {@link queueChangeSink}. */
export interface ChangeQueueOptions {
  /** Visibility delay of a nudge in seconds (default 0); see {@link Config} `indexNudgeDelaySeconds`. */
  nudgeDelaySeconds?: number;
  /**
   * How long a nudge waits for the nudges of later writes to travel with it (default
   * {@link DEFAULT_NUDGE_LINGER_MS}; 0 sends at once). Writes do not wait for nudges, so this adds
   * to the index lag only, and it spares a queue message per write when writes follow each other.
   */
  nudgeLingerMs?: number;
  /**
   * Told of a nudge that could not be sent (after the SDK's retries). Writes do not wait for their
   * nudges, so nobody else hears of it; the outbox sweep drains the rows later. Default: ignored.
   */
  onNudgeError?: (error: unknown, department: string) => void;
  /**
   * The writing process's own drain of a department's outbox (src/indexing/writerDrain.ts through
   * a process's shared drains), run after the linger instead of sending a nudge; the nudge is sent
   * only when it throws (it sends one itself when it cannot finish alone). Not used with a nudge
   * delay, whose point is fewer, later drains.
   */
  drain?: (department: string) => Promise<unknown>;
  /**
   * How long a department's writes wait for the writes that follow before the writer drains it
   * (default {@link DEFAULT_DRAIN_LINGER_MS}): each department lingers from its own first write,
   * so the writes of a department that come within it share one drain round.
   */
  drainLingerMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * Margin between this process's estimate of when a delayed nudge surfaces and a commit it may
 * stand in for: the queue starts the delay when it receives the message, after the send began.
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

/** Builds the sink over the `index-updates` queue client (one per process: it packs nudges). */
export function queueChangeSink(queue: QueueClient, options: ChangeQueueOptions = {}): ChangeQueue {
  return { outbox: true, ...nudger(queue, options) };
}

/**
 * Sends one outbox nudge for a department at once, invisible for `delaySeconds` — a drain's own
 * nudges (src/indexing/leasedDrain.ts: the continuation of a drain whose invocation's budget ran
 * out, and the nudge that outlives a lease holder). Unlike a write's nudge, it is awaited, and a
 * failure reaches the caller (whose invocation is then retried).
 *
 * @throws {DomainError} when the message cannot be stored.
 */
export function outboxNudgeSender(
  queue: QueueClient,
): (department: string, delaySeconds: number) => Promise<void> {
  return async (department, delaySeconds) => {
    await ensureQueue(queue);
    await sendJsonMessage(queue, withTraceparent({ v: 2, departments: [department] }), {
      visibilityTimeoutSeconds: delaySeconds > 0 ? delaySeconds : undefined,
    });
  };
}

/**
 * Publishing as outbox nudges: the departments of committed changes, several per message when
 * writes overlap (group commit).
 *
 * A write does not wait for its nudge: the outbox row in its transaction is the durable record,
 * so a nudge only shortens the time until the drain. `publish` hands the departments over and
 * returns; a send that fails after the SDK's retries is reported to `onNudgeError`, and the
 * sweep (src/indexing/outboxSweep.ts) drains the rows it left.
 *
 * A nudge lingers ({@link ChangeQueueOptions.nudgeLingerMs}) so that the nudges of writes that
 * follow travel with it. A department is left out when a nudge for it is already lingering or
 * waiting for a send slot: that message is stored after this call, so its drain reads the outbox
 * after this commit. A nudge already being sent does not count: the service may have stored it,
 * and a worker drained it, before this commit, so the department is nudged again. With a nudge
 * delay, a department whose last nudge from this process is being sent or still invisible gets no
 * other: that nudge's drain starts after it surfaces, so it reads every row committed before now.
 */
function nudger(
  queue: QueueClient,
  options: ChangeQueueOptions,
): Pick<ChangeQueue, 'publish' | 'settled'> {
  const delaySeconds = options.nudgeDelaySeconds ?? 0;
  const now = options.now ?? Date.now;
  const onError = options.onNudgeError ?? (() => undefined);
  const lingerMs = options.nudgeLingerMs ?? DEFAULT_NUDGE_LINGER_MS;
  /** Department → when its last delayed nudge surfaces (this process's clock). */
  const surfacing = new Map<string, number>();
  /** Departments held or handed to the sender whose send has not started yet. */
  const unsent = new Set<string>();
  /** Departments waiting for the end of the linger. */
  const held = new Set<string>();
  const pending = new Set<Promise<void>>();
  /**
   * Department → the `traceparent` of the write that asked for its nudge: a nudge carries the
   * first of its departments' (one message, one parent; the others' writes are not linked).
   */
  const traces = new Map<string, string>();
  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const sender = new CoalescingSender<string>({
    send: async (departments) => {
      // From here on the message may be stored and drained at any moment: a later commit needs a
      // nudge of its own (unless this one is delayed past it).
      const started = now();
      const traceparent = departments.map((d) => traces.get(d)).find((t) => t !== undefined);
      for (const department of departments) {
        traces.delete(department);
        unsent.delete(department);
        if (delaySeconds > 0) surfacing.set(department, started + delaySeconds * 1000);
      }
      try {
        await ensureQueue(queue);
        await sendJsonMessage(
          queue,
          traceparent === undefined ? { v: 2, departments } : { v: 2, departments, traceparent },
          { visibilityTimeoutSeconds: delaySeconds > 0 ? delaySeconds : undefined },
        );
      } catch (error) {
        // Perhaps not stored: a later commit nudges again.
        for (const department of departments) surfacing.delete(department);
        throw error;
      }
    },
    itemBytes: nudgeDepartmentBytes,
    budgetBytes: nudgeBudget(),
  });
  const send = (departments: readonly string[]): Promise<void> =>
    Promise.all(
      departments.map((department) =>
        sender.add(department).catch((error: unknown) => onError(error, department)),
      ),
    ).then(() => undefined);
  const drain = delaySeconds > 0 ? undefined : options.drain;
  // The writer's own drain: requested now, it reads the outbox after this moment (a drain already
  // running reads it once more), so the department needs no other nudge from here on; when it
  // fails, the nudge goes to the queue after all.
  const drainOrSend = (departments: readonly string[]): Promise<void> => {
    if (!drain) return send(departments);
    return Promise.all(
      departments.map((department) => {
        const drained = drain(department);
        unsent.delete(department);
        return drained.catch(() => {
          unsent.add(department);
          return send([department]);
        });
      }),
    ).then(() => undefined);
  };
  const release = (): Promise<void> =>
    new Promise<void>((resolve) => {
      // Unreferenced: a process that is done may exit before the linger ends (the sweep drains).
      setTimeout(() => {
        const departments = [...held];
        held.clear();
        void drainOrSend(departments).then(resolve);
      }, lingerMs).unref();
    });
  const publish: ChangeQueue['publish'] = (published) => {
    const at = now();
    for (const [department, surfaces] of surfacing) {
      if (surfaces - NUDGE_MARGIN_MS <= at) surfacing.delete(department);
    }
    const fresh = [...new Set(published.map((c) => c.department))].filter(
      (department) => !surfacing.has(department) && !unsent.has(department),
    );
    const traceparent = currentTraceparent();
    for (const department of fresh) {
      unsent.add(department);
      if (traceparent !== undefined) traces.set(department, traceparent);
    }
    if (fresh.length === 0) return Promise.resolve();
    if (drain) {
      const drainLingerMs = options.drainLingerMs ?? DEFAULT_DRAIN_LINGER_MS;
      for (const department of fresh) {
        track(
          new Promise<void>((resolve) => {
            // Unreferenced, as the nudge's linger: the sweep drains what a process leaves.
            setTimeout(() => void drainOrSend([department]).then(resolve), drainLingerMs).unref();
          }),
        );
      }
    } else if (lingerMs <= 0) {
      track(send(fresh));
    } else {
      if (held.size === 0) track(release());
      for (const department of fresh) held.add(department);
    }
    return Promise.resolve();
  };
  const settled: ChangeQueue['settled'] = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return { publish, settled };
}
