/**
 * The directory's {@link EmployeeChangeSink} over the `index-updates` queue, in one of two modes:
 *
 * - `outbox: true` (as deployed, `configuredChangeQueue`): the directory records each change as an
 *   index outbox row in the change's own transaction (src/directory/outbox.ts), and `publish` only
 *   nudges the worker to drain the departments' outboxes (`{"v":2,"departments"}`). A crash between
 *   the commit and the nudge loses nothing: the row waits for the next nudge or the outbox sweep.
 * - otherwise: every committed change becomes a v1 change message (several changes per message, up
 *   to the 64 KiB limit), reconciled employee by employee.
 *
 * {@link ChangeQueue.announce} enqueues an *invisible* v1 safety-net message before a write commits
 * (`announceDelaySeconds`, off when 0 — the default of `INDEX_ANNOUNCE_DELAY_SECONDS`). It predates
 * the outbox, which makes it unnecessary; it remains as an optional extra: when it surfaces the
 * worker re-reads the primary entities and reconciles, a no-op if the indexes are current.
 *
 * Messages of concurrent writes are shared (group commit, src/storage/coalescingSender.ts): a
 * write still returns only after the message holding its change or nudge is stored, but under load
 * the queue sees a few messages instead of one per write. */
import type { QueueClient } from '@azure/storage-queue';
import type { EmployeeChange, EmployeeChangeSink } from '../directory';
import { ensureQueue } from '../storage/createOnce';
import { CoalescingSender } from '../storage/coalescingSender';
import { sendJsonMessage } from '../storage/queue';
import {
  indexChangeBytes,
  indexChangesBudget,
  nudgeBudget,
  nudgeDepartmentBytes,
  type IndexChange,
} from './indexMessages';

/** The `index-updates` queue as the directory's change sink, plus announcements. */
export interface ChangeQueue extends EmployeeChangeSink {
  /**
   * Enqueues a delayed reconcile of these employees (before writing them).
   *
   * @throws {DomainError} when storage refuses or cannot be reached (the write should not go on).
   */
  announce(employees: readonly { department: string; employeeId: string }[]): Promise<void>;
}

/** Options of {@link queueChangeSink}. */
export interface ChangeQueueOptions {
  /** Delay before an announcement becomes visible (default 60 s; 0 disables announcements). */
  announceDelaySeconds?: number;
  /**
   * The directory records changes in its index outbox (src/directory/outbox.ts) and
   * {@link ChangeQueue.publish} sends outbox nudges (`{"v":2,"departments"}`) instead of changes.
   */
  outbox?: boolean;
  /** Visibility delay of a nudge in seconds (default 0); see {@link Config} `indexNudgeDelaySeconds`. */
  nudgeDelaySeconds?: number;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * Margin between this process's estimate of when a delayed nudge surfaces and a commit it may
 * stand in for: the queue starts the delay when it receives the message, after the send began.
 */
const NUDGE_MARGIN_MS = 250;

/** Builds the sink over the `index-updates` queue client (one per process: it packs messages). */
export function queueChangeSink(queue: QueueClient, options: ChangeQueueOptions = {}): ChangeQueue {
  const delay = options.announceDelaySeconds ?? 60;
  const sender = (visibilityTimeoutSeconds?: number): CoalescingSender<IndexChange> =>
    new CoalescingSender<IndexChange>({
      send: async (changes) => {
        await ensureQueue(queue);
        await sendJsonMessage(queue, { v: 1, changes }, { visibilityTimeoutSeconds });
      },
      itemBytes: indexChangeBytes,
      budgetBytes: indexChangesBudget(),
    });
  const changes = sender();
  const announcements = sender(delay);
  const announce: ChangeQueue['announce'] = async (employees) => {
    if (delay <= 0) return;
    await announcements.addAll(
      employees.map((e) => ({
        department: e.department,
        employeeId: e.employeeId,
        reason: 'announced',
      })),
    );
  };
  if (options.outbox) return { outbox: true, publish: nudger(queue, options), announce };
  return {
    publish: (published: EmployeeChange[]) => changes.addAll(published),
    announce,
  };
}

/**
 * Publishing as outbox nudges: the departments of committed changes, several per message when
 * writes overlap (group commit). With a nudge delay, a department whose last nudge from this
 * process is still invisible gets no other: that nudge's drain starts after it surfaces, so it
 * reads every row committed before now.
 */
function nudger(queue: QueueClient, options: ChangeQueueOptions): EmployeeChangeSink['publish'] {
  const delaySeconds = options.nudgeDelaySeconds ?? 0;
  const now = options.now ?? Date.now;
  /** Department → when its last delayed nudge surfaces (this process's clock). */
  const surfacing = new Map<string, number>();
  const sender = new CoalescingSender<string>({
    send: async (departments) => {
      await ensureQueue(queue);
      const started = now();
      const unique = [...new Set(departments)];
      await sendJsonMessage(
        queue,
        { v: 2, departments: unique },
        { visibilityTimeoutSeconds: delaySeconds > 0 ? delaySeconds : undefined },
      );
      if (delaySeconds > 0) {
        for (const department of unique) surfacing.set(department, started + delaySeconds * 1000);
      }
    },
    itemBytes: nudgeDepartmentBytes,
    budgetBytes: nudgeBudget(),
  });
  return async (published) => {
    const at = now();
    for (const [department, surfaces] of surfacing) {
      if (surfaces - NUDGE_MARGIN_MS <= at) surfacing.delete(department);
    }
    const departments = [...new Set(published.map((c) => c.department))].filter(
      (department) => !surfacing.has(department),
    );
    if (departments.length > 0) await sender.addAll(departments);
  };
}
