/**
 * Handling one `index-updates` message:
 *
 * - a nudge (v2) drains the outbox of each department it names, under the department's drain
 *   lease and within a bounded invocation (leasedDrain.ts, outboxDrain.ts). Nudges handled by one
 *   process at once share drains: while a department is being drained, later nudges for it wait
 *   for one more drain that starts after the running one, however many they are;
 * - a change batch (v1: messages from before the outbox, announcements) reconciles every employee
 *   it names once (several changes of one employee collapse into one reconcile with all their
 *   `previous` hints), different employees in parallel.
 */
import { mapBounded } from '../storage/parallel';
import { parseIndexQueueMessage, type IndexUpdateMessage } from './indexMessages';
import { reconcileEmployeeIndexes, type IndexStores, type PreviousKeys } from './indexMaintenance';
import {
  addUp,
  drainDepartment,
  nothingDrained,
  type LeasedDrainOptions,
  type LeasedDrainResult,
} from './leasedDrain';

/** Called for each employee found gone from the directory (e.g. to clean up its photos). */
export type EmployeeGoneHandler = (department: string, employeeId: string) => Promise<void>;

/** What one message did. */
export interface IndexUpdateOutcome {
  employees: number;
  gone: number;
}

/**
 * Drains the outboxes of the departments a nudge names, or reconciles every employee a change
 * batch names.
 *
 * @throws {Error} for a payload that is not an index-updates message (the host poisons it).
 * @throws {DomainError} for storage faults (the host retries the message).
 */
export async function handleIndexUpdateMessage(
  stores: IndexStores,
  payload: unknown,
  onGone?: EmployeeGoneHandler,
): Promise<IndexUpdateOutcome> {
  const message = parseIndexQueueMessage(payload);
  if (message.v === 2) {
    const drains = drainsOf(stores);
    drains.onGone = onGone;
    const results = await mapBounded(message.departments, 8, (d) => drains.request(d));
    return {
      employees: results.reduce((sum, r) => sum + r.employees, 0),
      gone: results.reduce((sum, r) => sum + r.gone, 0),
    };
  }
  return reconcileChanges(stores, message, onGone);
}

/** One process's drains of one set of stores, shared per department (see the file comment). */
export class SharedDrains {
  private readonly running = new Map<
    string,
    { requested: { again: boolean }; done: Promise<LeasedDrainResult> }
  >();
  /** Called for gone employees (the latest handler given: one per process in practice). */
  onGone?: EmployeeGoneHandler;

  /**
   * `options`: limits and clock of the drains (tests), and `drain`, the drain to run (default the
   * leased drain, {@link drainDepartment}; a writing process runs `drainAfterWrite`).
   */
  constructor(
    private readonly stores: IndexStores,
    private readonly options: Pick<LeasedDrainOptions, 'limits' | 'now' | 'afterStep'> & {
      drain?: (
        stores: IndexStores,
        department: string,
        onGone: EmployeeGoneHandler,
      ) => Promise<LeasedDrainResult>;
    } = {},
  ) {}

  /** Whether a drain of `department` is running in this process now. */
  isRunning(department: string): boolean {
    return this.running.has(department);
  }

  /**
   * Resolves once a drain of `department` that started after this call has finished.
   *
   * @throws whatever that drain throws (every waiting caller gets it; their nudges are retried).
   */
  request(department: string): Promise<LeasedDrainResult> {
    const running = this.running.get(department);
    if (running) {
      running.requested.again = true;
      return running.done;
    }
    const requested = { again: false };
    const done = this.drainWhileRequested(department, requested);
    this.running.set(department, { requested, done });
    return done;
  }

  /**
   * Drains, and again as long as requests came in during the last drain — unless that drain
   * continues in a new invocation, which starts after those requests anyway. The drains of one
   * call share the invocation's budget.
   */
  private async drainWhileRequested(
    department: string,
    requested: { again: boolean },
  ): Promise<LeasedDrainResult> {
    const startedAt = (this.options.now ?? Date.now)();
    const total = nothingDrained();
    try {
      do {
        requested.again = false;
        const onGone: EmployeeGoneHandler = (dept, id) =>
          this.onGone?.(dept, id) ?? Promise.resolve();
        const result = this.options.drain
          ? await this.options.drain(this.stores, department, onGone)
          : await drainDepartment(this.stores, department, { ...this.options, startedAt, onGone });
        addUp(total, result);
        total.complete = result.complete;
        total.outcome = result.outcome;
      } while (requested.again && total.outcome !== 'continued');
      return total;
    } finally {
      // No await between the last check of `again` and this: a request either made the loop go
      // round once more or finds no drain running and starts one.
      this.running.delete(department);
    }
  }
}

const sharedDrains = new WeakMap<IndexStores, SharedDrains>();

/** The process's shared drains of `stores`. */
export function drainsOf(stores: IndexStores): SharedDrains {
  let drains = sharedDrains.get(stores);
  if (!drains) {
    drains = new SharedDrains(stores);
    sharedDrains.set(stores, drains);
  }
  return drains;
}

async function reconcileChanges(
  stores: IndexStores,
  message: IndexUpdateMessage,
  onGone?: EmployeeGoneHandler,
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
    const result = await reconcileEmployeeIndexes(stores, request);
    if (!result.present) {
      gone++;
      await onGone?.(request.department, request.employeeId);
    }
  });
  return { employees: byEmployee.size, gone };
}
