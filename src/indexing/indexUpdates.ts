/**
 * Handling one `index-updates` message: every employee it names is reconciled once (several
 * changes of one employee in a batch collapse into one reconcile with all their `previous` hints),
 * different employees in parallel.
 */
import { mapBounded } from '../storage/parallel';
import { parseIndexUpdateMessage } from './indexMessages';
import { reconcileEmployeeIndexes, type IndexStores, type PreviousKeys } from './indexMaintenance';

/** Called for each employee found gone from the directory (e.g. to clean up its photos). */
export type EmployeeGoneHandler = (department: string, employeeId: string) => Promise<void>;

/** What one message did. */
export interface IndexUpdateOutcome {
  employees: number;
  gone: number;
}

/**
 * Reconciles the indexes of every employee the message names.
 *
 * @throws {Error} for a payload that is not an index-updates message (the host poisons it).
 * @throws {DomainError} for storage faults (the host retries the message).
 */
export async function handleIndexUpdateMessage(
  stores: IndexStores,
  payload: unknown,
  onGone?: EmployeeGoneHandler,
): Promise<IndexUpdateOutcome> {
  const message = parseIndexUpdateMessage(payload);
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
    const result = await reconcileEmployeeIndexes(stores, request);
    if (!result.present) {
      gone++;
      await onGone?.(request.department, request.employeeId);
    }
  });
  return { employees: byEmployee.size, gone };
}
