/**
 * Handling one `index-updates` message:
 *
 * - a nudge (v2) drains the outbox of each department it names through the process's shared
 *   drains (sharedDrains.ts), each under the department's drain lease and within a bounded
 *   invocation (leasedDrain.ts, outboxDrain.ts); a department frozen by a relocation is nudged
 *   again for after the wait instead of failing the message;
 * - a change batch (v1) is only read, never written any more: writes record their changes in the
 *   index outbox, but a deploy may leave v1 messages of the earlier code on the queue. Each
 *   employee it names is reconciled once (several changes of one employee collapse into one
 *   reconcile with all their `previous` hints), different employees in parallel.
 * A nudge delivered again (an earlier delivery failed or died) or whose drain fails marks its
 * departments pending (drain/pendingMarkers.ts): poisoned, it leaves the sweep the marker.
 */
import { mapBounded } from '../../storage/parallel';
import { parseIndexQueueMessage, type IndexUpdateMessage } from './indexMessages';
import { reconcileEmployeeIndexes, type PreviousKeys } from '../employeeIndex/indexMaintenance';
import type { DrainRequest, SharedDrains } from '../drain/sharedDrains';
import type { LeasedDrainResult } from '../drain/leasedDrain';
import { throttleWaitSeconds } from '../../storage/storageFaults';
import { markPending } from '../drain/pendingMarkers';

/** What one message did. */
export interface IndexUpdateOutcome {
  employees: number;
  gone: number;
  /** Departments frozen by a relocation or refused by busy storage, nudged again for later. */
  waiting?: string[];
}

/**
 * Shortest wait before a frozen department's drain is asked again: a frozen window lasts at
 * least a placement cache period (5 s by default), so sooner would only be refused again.
 */
export const RELOCATING_NUDGE_DELAY_SECONDS = 5;

/**
 * A failed drain of one department a nudge names. Frozen by a relocation, or refused by busy
 * storage: nothing was written, and the same drain goes through later. That is a wait, not a
 * failure: thrown, the message would be retried 5 times within seconds and poisoned during a long
 * freeze or a burst over Azure's targets. So a nudge for the department is sent for after the wait
 * and this message completes (a nudge that storage refuses too fails the message, retried as
 * usual). Any other failure marks the department pending (unless the delivery is a redelivery,
 * marked before its drains) and fails the message.
 *
 * @returns `undefined` when the department waits.
 * @throws `error` otherwise, or the nudge's failure when it cannot be sent.
 */
async function drainFailed(
  drains: SharedDrains,
  department: string,
  request: DrainRequest,
  delivery: { redelivered?: boolean },
  error: unknown,
): Promise<undefined> {
  const nudge = drains.stores.nudge;
  const wait = throttleWaitSeconds(error);
  let failure = error;
  if (wait !== undefined && nudge) {
    const delay = Math.max(wait, RELOCATING_NUDGE_DELAY_SECONDS);
    try {
      // A plain nudge (not a cover): the drain then looks at every row, which covers them all.
      await nudge(department, delay, request.holder);
      return undefined;
    } catch (nudgeFailure) {
      failure = nudgeFailure;
    }
  }
  if (!delivery.redelivered) await markDrainFailed(drains, department);
  throw failure;
}

/** Best effort: a marker that cannot be written leaves the rows to the outbox walk. */
function markDrainFailed(drains: SharedDrains, department: string): Promise<void> {
  return markPending(drains.stores.employees, department, 'drain-failed').catch(() => undefined);
}

/**
 * Drains the outboxes of the departments a nudge names, or reconciles every employee a change
 * batch names; gone employees are reported to the drains' handler. `delivery.redelivered`: the
 * message came before (the host's dequeue count is above 1), so its departments are marked first.
 *
 * @throws {Error} for a payload that is not an index-updates message (the host poisons it).
 * @throws {DomainError} for storage faults (the host retries the message).
 */
export async function handleIndexUpdateMessage(
  drains: SharedDrains,
  payload: unknown,
  delivery: { redelivered?: boolean } = {},
): Promise<IndexUpdateOutcome> {
  const message = parseIndexQueueMessage(payload);
  if (message.v === 2) {
    const request = { holder: message.holder, before: message.before };
    if (delivery.redelivered) {
      await mapBounded(message.departments, 8, (d) => markDrainFailed(drains, d));
    }
    const results = await mapBounded(message.departments, 8, (d) =>
      drains.request(d, request).catch((error) => drainFailed(drains, d, request, delivery, error)),
    );
    const done = results.filter((r): r is LeasedDrainResult => r !== undefined);
    const waiting = message.departments.filter((_, i) => results[i] === undefined);
    return {
      employees: done.reduce((sum, r) => sum + r.employees, 0),
      gone: done.reduce((sum, r) => sum + r.gone, 0),
      ...(waiting.length > 0 && { waiting }),
    };
  }
  return reconcileChanges(drains, message);
}

async function reconcileChanges(
  drains: SharedDrains,
  message: IndexUpdateMessage,
): Promise<IndexUpdateOutcome> {
  const byEmployee = new Map<
    string,
    { department: string; employeeId: string; previous: PreviousKeys[] }
  >();
  for (const change of message.changes) {
    const key = `${change.department}/${change.employeeId}`;
    const group = byEmployee.get(key) ?? {
      department: change.department,
      employeeId: change.employeeId,
      previous: [],
    };
    if (change.previous) group.previous.push(change.previous);
    byEmployee.set(key, group);
  }
  let gone = 0;
  await mapBounded([...byEmployee.values()], 8, async (request) => {
    const result = await reconcileEmployeeIndexes(drains.stores, request);
    if (!result.present) {
      gone++;
      await drains.onGone(request.department, request.employeeId);
    }
  });
  return { employees: byEmployee.size, gone };
}
