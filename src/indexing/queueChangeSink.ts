/**
 * The directory's {@link EmployeeChangeSink} for deployments with asynchronous indexes: every
 * committed change becomes an `index-updates` message (several changes per message, up to the
 * 64 KiB limit), and {@link ChangeQueue.announce} enqueues an *invisible* safety-net message
 * before a write commits.
 *
 * Why the announcement: the directory commits its entity group transaction and only then enqueues.
 * If the process dies between the two, the change would never reach the indexes. The announcement
 * is sent first with a visibility delay (default 60 s); when it surfaces the worker re-reads the
 * primary entities and reconciles — a no-op if the normal message already did the work, the
 * repair if it never came. The worker tracks what it indexed per employee, so the announcement
 * needs no `previous` values.
 *
 * Changes of concurrent writes share messages (group commit, src/storage/coalescingSender.ts): a
 * write still returns only after the message holding its change is stored, but under load the
 * queue sees a few large messages instead of one per write, and the worker reconciles them
 * together.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { EmployeeChange, EmployeeChangeSink } from '../directory/changes';
import { ensureQueue } from '../storage/createOnce';
import { CoalescingSender } from '../storage/coalescingSender';
import { sendJsonMessage } from '../storage/queue';
import { indexChangeBytes, indexChangesBudget, type IndexChange } from './indexMessages';

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
}

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
  return {
    publish: (published: EmployeeChange[]) => changes.addAll(published),
    announce: async (employees) => {
      if (delay <= 0) return;
      await announcements.addAll(
        employees.map((e) => ({
          department: e.department,
          employeeId: e.employeeId,
          reason: 'announced',
        })),
      );
    },
  };
}
