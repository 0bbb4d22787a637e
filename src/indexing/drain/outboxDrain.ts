/**
 * Draining one department's index outbox (src/directory/entities/outbox.ts) into the asynchronous indexes:
 * the inter-partition index (`EmployeeIndex`: `empid_<dept>`, `email_<dept>`) and the
 * organisation-wide last-name index. One drain round:
 *
 * 1. `read`: one range query for the partition's outbox rows (up to {@link MAX_ROWS_PER_ROUND}
 *    rows or {@link MAX_CHANGES_PER_ROUND} changes); they name the employees, emails and last
 *    names to look at.
 * 2. `snapshot`: first the targets — the index entries of those employees and emails (none for
 *    keys only new employees bring), each index partition's *drain fence* (read with the entries,
 *    in the same query) and the member lists of those last names — and only then the *sources* in
 *    the department's partition: the email copies of those addresses (who holds each address now)
 *    and, for an employee no copy speaks for, the employee entity. Several keys of one partition
 *    go in one query (`RowKey eq … or …`, 14 to a query).
 * 3. `emails`, `ids`, `lastNames`: write what differs from the sources — by-email entries, then
 *    by-id entries, each partition in entity group transactions that also write its fence under
 *    the ETag the snapshot read (a round with nothing to change there writes the fence alone),
 *    then every member list of the round, changed or not, under the ETags it was read with. A
 *    list write that lost (lists are org-wide: other departments' drains write them) is tried
 *    again for that name alone, the list read again and then the sources (writeLastNames).
 * 4. `deleted`: delete the drained rows in one transaction of the partition, each conditional on
 *    the ETag it was read with (rows are written once; a row a concurrent drainer already deleted
 *    is simply left out on the next try).
 *
 * Rows without a readable change are moved to dead-letter records in step 1
 * (src/indexing/drain/outboxDeadLetter.ts).
 *
 * A lost round (a write failed its condition) runs again and keeps the lost round's keys even if a
 * concurrent drainer deleted their rows meanwhile: what this drainer wrote may need looking at.
 *
 * Why this is safe with any number of drainers of one partition (two hosts, a sweep and a nudge,
 * a lease holder paused past its expiry and the drainer that took over), any of them paused or
 * crashing anywhere: the rows stay until step 4, so a
 * crash leaves them for the next drain, and every step is idempotent. For the writes, take any
 * index partition (or list) P and the last round R that wrote it. R's write was conditional on
 * P's fence as R read it, so nobody wrote P between R's read of the fence and R's write, and R
 * read its sources after that read (a list tried again alone is read again, and the sources after
 * it). A change to the employees R wrote, committed after R read the
 * sources, wrote an outbox row; the round that drains that row reads the fence after the commit
 * and writes P after that — so after R, which R being the last rules out: the row is still in the
 * outbox and a later round will write P from the change. Hence the last round to write P wrote
 * from sources that no drained change has outdated. Without the fence a round that found nothing
 * to do wrote nothing, and a drainer paused with an older read could then write stale entries,
 * which nobody was left to correct had it crashed before checking its sources again (the check
 * this design replaces). Fences are never deleted (nor are emptied list blobs), since a create
 * from a read that found one absent could not tell it had been written meanwhile. A
 * process may take a fence's ETag from its own last write of it instead of reading it
 * (src/indexing/drain/drainCache.ts): that too is a read from before the sources, and so is a member
 * list as its own last write left it.
 * A writing process's own round (src/indexing/drain/writerDrain.ts, without the lease) is a round like
 * any other, so the argument covers it.
 * The department's drain lease (src/indexing/drain/leasedDrain.ts) is not part of this argument: it
 * only keeps drainers from losing rounds to each other. A holder paused past its expiry still
 * writes beside the drainer that took over, and only the fences stop its stale writes; the fence
 * lives with the data it guards.
 *
 * Not covered: the other writer of these entries, `reconcileEmployeeIndexes`
 * (src/indexing/employeeIndex/indexMaintenance.ts: the move orchestration's re-pointing, the audit's repairs,
 * and v1 change messages an earlier deploy left on the queue), writes without the
 * fence. A drain never overwrites its writes unseen (every entry write is conditional on the
 * entry's ETag, or a create), and the reconcile checks the primary after writing; what remains
 * is its own residual, a pause and a crash between its write and that check.
 */
import { ensureTable } from '../../storage/createOnce';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { parseOutboxRowKey } from '../../storage/keys/tables/outbox';
import type { DirectoryMetrics, DrainRoundOutcome } from '../../telemetry/metrics';
import { inSpan } from '../../telemetry/tracing';
import { forgetRound } from './drainCache';
import type { EmployeeGoneHandler, IndexStores } from '../indexStores';
import { takeSnapshot } from './outboxDrainSnapshot';
import { deadLetterRows } from './outboxDeadLetter';
import { readOutbox, workOf, type Work } from './outboxDrainWork';
import {
  deleteRows,
  emailActions,
  idActions,
  submitFenced,
  writeLastNames,
} from './outboxDrainWrites';
import { outboxSequenceTime, type OutboxRow } from '../../directory/entities';

export {
  MAX_CHANGES_PER_ROUND,
  MAX_LAST_NAMES_PER_ROUND,
  MAX_ROWS_PER_ROUND,
} from './outboxDrainWork';
import { outboxContended } from '../indexingErrors';
import { RETRY, realTiming, retryOptimistically, type Retry } from '../../storage/optimisticRetry';

/** Rounds lost to concurrent changes before giving up (the nudge is then retried). */
const MAX_LOST_ROUNDS = 8;

/** A step of a drain round, reported to {@link DrainOptions.afterStep}. */
export type DrainStep = 'read' | 'snapshot' | 'emails' | 'ids' | 'lastNames' | 'deleted';

/** Options of {@link drainOutbox}. */
export interface DrainOptions {
  /** Called after each step (observability; tests inject crashes and pauses here). */
  afterStep?: (step: DrainStep, round: number) => Promise<void> | void;
  /** Called for each drained employee that is gone, before its rows are deleted. */
  onGone?: EmployeeGoneHandler;
  /** Changes a round takes at most (default {@link MAX_CHANGES_PER_ROUND}). */
  maxChangesPerRound?: number;
  /** Last names a round takes at most (default `MAX_LAST_NAMES_PER_ROUND`, 100). */
  maxLastNamesPerRound?: number;
  /**
   * Lost rounds in a row before the drain gives up with a `ThrottledError` (default 8); a
   * writer's own drain (src/indexing/drain/writerDrain.ts) gives up at the first and hands over.
   */
  maxLostRounds?: number;
  /**
   * Called before each round but the first (reruns of a lost round included) with what the drain
   * did so far; false stops the drain there, with the outbox not drained to the end
   * (src/indexing/drain/leasedDrain.ts: the invocation's budget, the lease).
   */
  beforeRound?: (round: number, soFar: DrainResult) => Promise<boolean>;
  /** Log line of each outbox row moved to a dead-letter record (default: `console.warn`). */
  log?: (line: string) => void;
  /** Waits after a lost round (default: a timer; tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

/** What a drain did. */
export interface DrainResult {
  /** Outbox rows deleted. */
  rows: number;
  /** Employees whose indexes were brought up to date. */
  employees: number;
  /** Of those, employees that are gone from the directory. */
  gone: number;
  /** Outbox rows without a readable change, moved to dead-letter records (outboxDeadLetter.ts). */
  deadLettered: number;
  /** Rounds run (1 without races). */
  rounds: number;
  /** The drain read the outbox to its end (false: `beforeRound` stopped it first). */
  complete: boolean;
}

/** The counts of a drain that did nothing yet. */
export function noDrainResult(): DrainResult {
  return { rows: 0, employees: 0, gone: 0, deadLettered: 0, rounds: 0, complete: false };
}

/** Longest wait after a lost round, in ms (the shared curve, src/storage/optimisticRetry.ts). */
const MAX_BACKOFF_MS = 2_000;

/**
 * Drains a department's outbox until it is empty (or only holds rows written meanwhile that a
 * next drain will take), bringing the indexes of every employee it names up to date.
 *
 * @throws {ThrottledError} when the department kept changing for {@link MAX_LOST_ROUNDS} rounds.
 * @throws {DomainError} for storage faults (the nudge is retried; the rows stay).
 */
export function drainOutbox(
  stores: IndexStores,
  department: string,
  options: DrainOptions = {},
): Promise<DrainResult> {
  return inSpan('directory.outbox.drain', { 'directory.department': department }, () =>
    drainRounds(stores, department, options),
  );
}

/** When each row was committed (ms since 1970), for the index lag; rows of unknown age are left out. */
function committedTimes(rows: readonly OutboxRow[]): number[] {
  return rows
    .map((row) => outboxSequenceTime(parseOutboxRowKey(row.rowKey)?.sequence ?? ''))
    .filter((at): at is number => at !== undefined);
}

/** Counts each round once, by how it ended; a round still open when the drain throws failed. */
function roundMeter(metrics: DirectoryMetrics | undefined): {
  start(): void;
  end(outcome: DrainRoundOutcome): void;
  failed(): void;
} {
  let started: number | undefined;
  const end = (outcome: DrainRoundOutcome): void => {
    if (started !== undefined) metrics?.recordDrainRound(outcome, Date.now() - started);
    started = undefined;
  };
  return { start: () => void (started = Date.now()), end, failed: () => end('failed') };
}

async function drainRounds(
  stores: IndexStores,
  department: string,
  options: DrainOptions,
): Promise<DrainResult> {
  const meter = roundMeter(stores.metrics);
  try {
    return await drainRoundsMetered(stores, department, options, meter);
  } catch (error) {
    meter.failed();
    throw error;
  }
}

async function drainRoundsMetered(
  stores: IndexStores,
  department: string,
  options: DrainOptions,
  meter: ReturnType<typeof roundMeter>,
): Promise<DrainResult> {
  const partitionKey = departmentPartitionKey(department);
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const result = noDrainResult();
  let carried: Work | undefined;
  const timing = options.sleep ? { sleep: options.sleep, random: Math.random } : realTiming;
  // Each round is an attempt; a lost one runs again after a back-off that never starts at once
  // (another writer is at work here: a reconcile, or a drainer whose lease ran out), so it gives
  // that writer room rather than read again at once and lose again.
  const retry = {
    maxAttempts: options.maxLostRounds ?? MAX_LOST_ROUNDS,
    capMs: MAX_BACKOFF_MS,
    waitFirst: true,
    timing,
    giveUp: (rounds: number) => outboxContended(department, rounds),
  };
  const oneRound = async (): Promise<'next' | { done: DrainResult } | Retry> => {
    // Before every round but the first, the rerun of a lost round included: a run of lost rounds
    // with their back-offs takes time too, so the invocation's budget and the lease renewal are
    // checked there as well. Stopping before a rerun leaves the lost round's rows in the outbox,
    // and whatever the lost round wrote is harmless (the fences: see the file comment).
    if (result.rounds > 0 && options.beforeRound) {
      if (!(await options.beforeRound(result.rounds + 1, result))) return { done: result };
    }
    result.rounds++;
    meter.start();
    const round = result.rounds;
    const step = async (name: DrainStep): Promise<void> => {
      await options.afterStep?.(name, round);
    };

    const { rows, unreadable, more } = await readOutbox(
      stores.employees,
      partitionKey,
      options.maxChangesPerRound,
      options.maxLastNamesPerRound,
    );
    if (unreadable.length > 0) {
      const log = options.log ?? ((line: string) => console.warn(line));
      result.deadLettered += await deadLetterRows(stores.employees, partitionKey, unreadable, log);
    }
    // Seen now, at no extra cost: the rows this round read (a lower bound when there are more).
    const seen = committedTimes(rows);
    stores.metrics?.observeOutbox(
      department,
      rows.length,
      seen.length > 0 ? Math.min(...seen) : undefined,
    );
    await step('read');
    // A lost round's keys are worked on again even when a concurrent drainer deleted their rows
    // meanwhile: this drainer may have written one of them from a read that is stale by now.
    const work = workOf(rows, carried);
    if (work.employeeIds.length === 0 && work.emails.length === 0) {
      // A round of rows nobody can drain moved them away: the rows behind them come next. (No
      // lost round comes before it: a lost round's carried keys would have made work.)
      if (more && unreadable.length > 0) {
        meter.end('committed');
        return 'next';
      }
      meter.end('empty');
      return { done: { ...result, complete: true } };
    }

    const snapshot = await takeSnapshot(stores, department, work);
    await step('snapshot');
    // One index partition after the other, so a crash test can stop between any two.
    const partitions = [
      ['emails', emailIndexPartitionKey(department), emailActions, snapshot.fences.email],
      ['ids', idIndexPartitionKey(department), idActions, snapshot.fences.id],
    ] as const;
    let written = true;
    for (const [name, indexPartition, actionsOf, fence] of partitions) {
      const actions = actionsOf(department, work, snapshot);
      const fences = stores.drainCache?.fences;
      written = await submitFenced(stores.index, indexPartition, actions, fence, fences);
      if (!written) break;
      await step(name);
    }
    if (written) written = await writeLastNames(stores, department, work, snapshot, timing);
    if (!written) {
      forgetRound(stores.drainCache, department, work.lastNames);
      carried = work;
      meter.end('lost');
      return RETRY;
    }
    await step('lastNames');

    const gone = work.employeeIds.filter((id) => snapshot.sources.employees.get(id) === undefined);
    for (const employeeId of gone) await options.onGone?.(department, employeeId);
    await deleteRows(stores.employees, department, rows, timing);
    stores.metrics?.recordIndexLag(department, seen);
    meter.end('committed');
    await step('deleted');
    result.rows += rows.length;
    result.employees += work.employeeIds.length;
    result.gone += gone.length;
    carried = undefined;
    if (!more) {
      stores.metrics?.observeOutbox(department, 0);
      return { done: { ...result, complete: true } };
    }
    return 'next';
  };
  for (;;) {
    const outcome = await retryOptimistically(retry, oneRound);
    if (outcome !== 'next') return outcome.done;
  }
}
