/**
 * Handling one `index-updates` message:
 *
 * - a nudge (v2) drains the outbox of each department it names through the process's shared
 *   drains (sharedDrains.ts), each under the department's drain lease and within a bounded
 *   invocation (leasedDrain.ts, outboxDrain.ts);
 * - a change batch (v1) is only read, never written any more: writes record their changes in the
 *   index outbox, but a deploy may leave v1 messages of the earlier code on the queue. Each
 *   employee it names is reconciled once (several changes of one employee collapse into one
 *   reconcile with all their `previous` hints), different employees in parallel.
 */
import { mapBounded } from '../../storage/parallel';
import { parseIndexQueueMessage, type IndexUpdateMessage } from './indexMessages';
import { reconcileEmployeeIndexes, type PreviousKeys } from '../employeeIndex/indexMaintenance';
import type { SharedDrains } from '../drain/sharedDrains';

/** What one message did. */
export interface IndexUpdateOutcome {
  employees: number;
  gone: number;
}

/**
 * Drains the outboxes of the departments a nudge names, or reconciles every employee a change
 * batch names; gone employees are reported to the drains' handler.
 *
 * @throws {Error} for a payload that is not an index-updates message (the host poisons it).
 * @throws {DomainError} for storage faults (the host retries the message).
 */
export async function handleIndexUpdateMessage(
  drains: SharedDrains,
  payload: unknown,
): Promise<IndexUpdateOutcome> {
  const message = parseIndexQueueMessage(payload);
  if (message.v === 2) {
    const results = await mapBounded(message.departments, 8, (d) =>
      drains.request(d, { holder: message.holder, before: message.before }),
    );
    return {
      employees: results.reduce((sum, r) => sum + r.employees, 0),
      gone: results.reduce((sum, r) => sum + r.gone, 0),
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
