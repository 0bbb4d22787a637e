/**
 * Draining one department's index outbox (src/directory/outbox.ts) into the asynchronous indexes:
 * the inter-partition index (`EmployeeIndex`: `empid_<dept>`, `email_<dept>`) and the
 * organisation-wide last-name index. One drain round:
 *
 * 1. `read`: one range query for the partition's outbox rows (up to {@link MAX_ROWS_PER_ROUND}
 *    rows or {@link MAX_CHANGES_PER_ROUND} changes);
 *    they name the employees, emails and last names to look at.
 * 2. `snapshot`: side by side, the index entries of those employees and emails (targets: ETags
 *    and what they hold), the member lists of those last names, and the *sources* in the
 *    department's partition — the email copies of those addresses (who holds each address now),
 *    and for an employee no copy speaks for, the employee entity. Several keys of one partition
 *    go in one query (`RowKey eq … or …`, 14 to a query).
 * 3. `emails`, `ids`, `lastNames`: write what differs from the sources, grouped per index
 *    partition — by-email entries in entity group transactions of up to 100 on `email_<dept>`,
 *    by-id entries likewise on `empid_<dept>`, one conditional change per last name (the entity
 *    store changes all shards of a name in one transaction). Every write is conditional on the
 *    ETag the snapshot read (or is a create where nothing was), so a concurrent writer makes it
 *    fail instead of being overwritten; the round then starts again.
 * 4. `verified`: read the sources again. If any changed since step 2, what we wrote may already
 *    be stale: start again. Otherwise every entry we wrote matches a source that was still current
 *    after our last write. Skipped when the round only updated or deleted entries under their
 *    ETags (see {@link RoundWrites}): only creates and member-list changes need it.
 * 5. `deleted`: delete the drained rows in one transaction of the partition, each conditional on
 *    the ETag it was read with (rows are written once; a row a concurrent drainer already
 *    deleted is simply left out on the next try).
 *
 * A lost round (a conditional write failed, or a source changed) runs again and keeps the lost
 * round's keys even if a concurrent drainer deleted their rows meanwhile: what this drainer wrote
 * from its stale read must be looked at again.
 *
 * Why this is safe without a lease: the rows stay until step 5, so a crash anywhere leaves them
 * for the next drain (nudge retry or sweep), and every step is idempotent. Rows written after
 * step 1 are not deleted, so their changes are drained later. Two drainers of one partition may
 * run at once (two hosts, a sweep and a nudge): the last of them to write an entry verifies after
 * that write that its source is unchanged — a drainer holding a stale read writes, sees the source
 * moved on in step 4 and rewrites from the new source. A lease would not help: a holder paused
 * past its expiry still writes to another table, which no lease in `Employees` can fence.
 * Residual: a drainer that writes from a stale read and then crashes before step 4, while another
 * drainer has already deleted the rows, leaves that entry stale until the index audit
 * (src/orchestrations/audit/) repairs it — a pause and a crash together.
 */
import { ThrottledError } from '../errors';
import { ensureTable } from '../storage/createOnce';
import { departmentPartitionKey } from '../storage/keys';
import type { IndexStores } from './indexMaintenance';
import { readSources, sameSources, takeSnapshot } from './outboxDrainSnapshot';
import { readOutbox, workOf, type Work } from './outboxDrainWork';
import {
  deleteRows,
  emailActions,
  idActions,
  submitAll,
  writeLastNames,
  type RoundWrites,
} from './outboxDrainWrites';

export { MAX_CHANGES_PER_ROUND, MAX_ROWS_PER_ROUND } from './outboxDrainWork';

/** Rounds lost to concurrent changes before giving up (the nudge is then retried). */
const MAX_LOST_ROUNDS = 8;

/** A step of a drain round, reported to {@link DrainOptions.afterStep}. */
export type DrainStep =
  'read' | 'snapshot' | 'emails' | 'ids' | 'lastNames' | 'verified' | 'deleted';

/** Called for each employee the drain found gone from the directory (e.g. to remove its photos). */
export type GoneHandler = (department: string, employeeId: string) => Promise<void>;

/** Options of {@link drainOutbox}. */
export interface DrainOptions {
  /** Called after each step (observability; tests inject crashes and pauses here). */
  afterStep?: (step: DrainStep, round: number) => Promise<void> | void;
  /** Called for each drained employee that is gone, before its rows are deleted. */
  onGone?: GoneHandler;
}

/** What a drain did. */
export interface DrainResult {
  /** Outbox rows deleted. */
  rows: number;
  /** Employees whose indexes were brought up to date. */
  employees: number;
  /** Of those, employees that are gone from the directory. */
  gone: number;
  /** Rounds run (1 without races). */
  rounds: number;
}

/**
 * Drains a department's outbox until it is empty (or only holds rows written meanwhile that a
 * next drain will take), bringing the indexes of every employee it names up to date.
 *
 * @throws {ThrottledError} when the department kept changing for {@link MAX_LOST_ROUNDS} rounds.
 * @throws {DomainError} for storage faults (the nudge is retried; the rows stay).
 */
export async function drainOutbox(
  stores: IndexStores,
  department: string,
  options: DrainOptions = {},
): Promise<DrainResult> {
  const partitionKey = departmentPartitionKey(department);
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const result: DrainResult = { rows: 0, employees: 0, gone: 0, rounds: 0 };
  let lost = 0;
  let carried: Work | undefined;
  while (lost < MAX_LOST_ROUNDS) {
    result.rounds++;
    const round = result.rounds;
    const step = async (name: DrainStep): Promise<void> => {
      await options.afterStep?.(name, round);
    };

    const { rows, more } = await readOutbox(stores.employees, partitionKey);
    await step('read');
    // A lost round's keys are worked on again even when a concurrent drainer deleted their rows
    // meanwhile: this drainer may have written one of them from a read that is stale by now.
    const work = workOf(rows, carried);
    if (work.employeeIds.length === 0 && work.emails.length === 0) return result;

    const snapshot = await takeSnapshot(stores, department, work);
    await step('snapshot');
    // One index partition after the other, so a crash test can stop between any two.
    const writes: RoundWrites = { unprovable: false };
    let written = await submitAll(stores.index, emailActions(department, work, snapshot), writes);
    if (written) {
      await step('emails');
      written = await submitAll(stores.index, idActions(department, work, snapshot), writes);
    }
    if (written) {
      await step('ids');
      written = await writeLastNames(stores, department, work, snapshot, writes);
    }
    if (!written) {
      lost++;
      carried = work;
      continue;
    }
    await step('lastNames');

    const again = writes.unprovable
      ? await readSources(stores.employees, partitionKey, work)
      : snapshot.sources;
    if (!sameSources(snapshot.sources, again)) {
      lost++;
      carried = work;
      continue;
    }
    await step('verified');

    const gone = work.employeeIds.filter((id) => snapshot.sources.employees.get(id) === undefined);
    for (const employeeId of gone) await options.onGone?.(department, employeeId);
    await deleteRows(stores.employees, partitionKey, rows);
    await step('deleted');
    result.rows += rows.length;
    result.employees += work.employeeIds.length;
    result.gone += gone.length;
    lost = 0;
    carried = undefined;
    if (!more) return result;
  }
  throw new ThrottledError(
    `The index outbox of "${department}" kept changing while it was drained.`,
    5,
  );
}
