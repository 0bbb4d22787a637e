/**
 * Draining one department's index outbox (src/directory/entities/outbox.ts) into the asynchronous
 * indexes: `EmployeeIndex` (`empid_<dept>`, `email_<dept>`) and the org-wide last-name index. A
 * round: 1. `read` the partition's outbox rows (outboxDrainWork.ts; unreadable rows go to
 * dead-letter records, outboxDeadLetter.ts); 2. `snapshot` the targets (entries, each index
 * partition's drain fence, member lists), then the sources (outboxDrainSnapshot.ts); 3. `emails`,
 * `ids`, `lastNames`: write what differs, each transaction with its partition's fence, every list
 * of the round, all conditional on what the snapshot read (outboxDrainWrites.ts), then the listed
 * count after a membership change (listedCount.ts); 4. `deleted`: delete the drained rows, each
 * conditional on its ETag. A round ({@link drainRound}) is a retry's attempt: a lost one runs
 * again with its keys carried over. Safe with any number of drainers, paused or crashing anywhere:
 * the fences, not the lease, stop stale writes (docs/queues.md "Why a drain never loses an
 * update"; the calls from the trigger: "The drain traced"; the word: docs/glossary.md). The
 * drain's options, result and rounds record: outboxDrainRounds.ts.
 */
import { ensureTable } from '../../storage/createOnce';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { parseOutboxRowKey } from '../../storage/keys/tables/outbox';
import { forgetRound } from './drainCache';
import type { IndexStores } from '../indexStores';
import { takeSnapshot, type Snapshot } from './outboxDrainSnapshot';
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
import { COUNT_REFRESH_EVERY_MS, refreshAfterRound } from './listedCount';
import {
  endRound,
  patiently,
  startRounds,
  type DrainOptions,
  type DrainResult,
  type DrainStep,
  type Rounds,
} from './outboxDrainRounds';

export {
  MAX_CHANGES_PER_ROUND,
  MAX_LAST_NAMES_PER_ROUND,
  MAX_ROWS_PER_ROUND,
} from './outboxDrainWork';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';

/**
 * Drains a department's outbox until it is empty (or only holds rows written meanwhile that a
 * next drain will take), bringing the indexes of every employee it names up to date. No lease:
 * the writer's own round (writerDrain.ts); the queue worker and the sweep drain under the lease
 * (leasedDrain.ts `drainDepartment`).
 *
 * @throws {ThrottledError} when the department kept changing for `maxLostRounds` rounds (8).
 * @throws {DomainError} for storage faults (the nudge is retried; the rows stay).
 */
export async function drainOutbox(
  stores: IndexStores,
  department: string,
  options: DrainOptions = {},
): Promise<DrainResult> {
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const rounds = startRounds(stores, department, options);
  try {
    for (;;) {
      const outcome = await retryOptimistically(rounds.retry, () => drainRound(rounds));
      if (outcome !== 'next') return outcome.done;
    }
  } catch (error) {
    endRound(rounds, 'failed');
    throw error;
  }
}

/** What a round ends with: rows left, the drain done, or the round lost. */
type RoundOutcome = 'next' | { done: DrainResult } | Retry;

/**
 * One round (the steps of the file comment), an attempt of `rounds.retry`: `'next'` when rows are
 * left, `done` when the outbox is drained (or `beforeRound` stopped the drain), `RETRY` when the
 * round was lost (its keys are carried into the next). The index writes are called here rather
 * than from a step of their own: they are what the drain exists for, and the trace keeps them
 * within 8 calls of the trigger (docs/queues.md "The drain traced").
 *
 * @throws {DomainError} for storage faults.
 */
export async function drainRound(rounds: Rounds): Promise<RoundOutcome> {
  const { stores, department, options } = rounds;
  const round = await openRound(rounds);
  if (round === undefined) return { done: rounds.result };
  const step = async (name: DrainStep): Promise<void> => {
    await options.afterStep?.(name, round);
  };
  const read = await readRound(rounds);
  await step('read');
  // A lost round's keys are worked on again even when a concurrent drainer deleted their rows
  // meanwhile: this drainer may have written one of them from a read that is stale by now.
  const work = workOf(read.rows, rounds.carried);
  if (work.employeeIds.length === 0 && work.emails.length === 0) return endIdleRound(rounds, read);

  const snapshot = await patiently(rounds, () => takeSnapshot(stores, department, work));
  await step('snapshot');
  // One index partition after the other, so a crash test can stop between any two.
  let written = true;
  for (const [name, indexPartition, actionsOf, fence] of indexPartitions(department, snapshot)) {
    const actions = actionsOf(department, work, snapshot);
    const fences = stores.drainCache?.fences;
    written = await patiently(rounds, () =>
      submitFenced(stores.index, indexPartition, actions, fence, fences),
    );
    if (!written) break;
    await step(name);
  }
  if (written) {
    written = await patiently(rounds, () =>
      writeLastNames(stores, department, work, snapshot, rounds.timing),
    );
  }
  if (!written) return loseRound(rounds, work);
  await step('lastNames');

  const gone = await settleDrained(rounds, read.rows, work, snapshot);
  await patiently(rounds, () => deleteRows(stores.employees, department, read.rows, rounds.timing));
  stores.metrics?.recordIndexLag(department, read.seen);
  endRound(rounds, 'committed');
  await step('deleted');
  return tallyRound(rounds, read, work, gone);
}

/**
 * Opens the next round: its number, or `undefined` when `beforeRound` stops the drain first.
 * Asked before every round but the first, the rerun of a lost round included: a run of lost
 * rounds with their back-offs takes time too, so the invocation's budget and the lease renewal
 * are checked there as well. Stopping before a rerun leaves the lost round's rows in the outbox,
 * and whatever the lost round wrote is harmless (the fences: docs/queues.md).
 */
async function openRound(rounds: Rounds): Promise<number | undefined> {
  const { options, result } = rounds;
  if (result.rounds > 0 && options.beforeRound) {
    if (!(await options.beforeRound(result.rounds + 1, result))) return undefined;
  }
  result.rounds++;
  rounds.startedAt = Date.now();
  return result.rounds;
}

/** Step 1's findings: the rows to drain, whether more wait, and when the rows were committed. */
interface RoundRead {
  rows: OutboxRow[];
  /** The round moved rows nobody can drain to dead-letter records. */
  deadLettered: boolean;
  more: boolean;
  /** When each row was committed (ms since 1970), for the index lag. */
  seen: number[];
}

/**
 * Step 1: reads the outbox rows of the round, moves the unreadable ones to dead-letter records,
 * and reports the outbox's length and age.
 *
 * @throws {DomainError} for storage faults.
 */
async function readRound(rounds: Rounds): Promise<RoundRead> {
  const { stores, department, options, result } = rounds;
  const partitionKey = departmentPartitionKey(department);
  const { rows, unreadable, more } = await patiently(rounds, () =>
    readOutbox(
      stores.employees,
      partitionKey,
      options.maxChangesPerRound,
      options.maxLastNamesPerRound,
    ),
  );
  if (unreadable.length > 0) {
    const log = options.log ?? ((line: string) => console.warn(line));
    result.deadLettered += await deadLetterRows(stores.employees, partitionKey, unreadable, log);
  }
  // Seen now, at no extra cost: the rows this round read (a lower bound when there are more).
  const seen = committedTimes(rows);
  const oldest = seen.length > 0 ? Math.min(...seen) : undefined;
  stores.metrics?.observeOutbox(department, rows.length, oldest);
  return { rows, deadLettered: unreadable.length > 0, more, seen };
}

/**
 * When each row was committed (ms since 1970), for the index lag; rows of unknown age are left out.
 */
function committedTimes(rows: readonly OutboxRow[]): number[] {
  return rows
    .map((row) => outboxSequenceTime(parseOutboxRowKey(row.rowKey)?.sequence ?? ''))
    .filter((at): at is number => at !== undefined);
}

/**
 * Ends a round that found nothing to index. A round of rows nobody can drain moved them away: the
 * rows behind them come next. (No lost round comes before it: its carried keys would make work.)
 */
function endIdleRound(rounds: Rounds, read: RoundRead): RoundOutcome {
  if (read.more && read.deadLettered) {
    endRound(rounds, 'committed');
    return 'next';
  }
  endRound(rounds, 'empty');
  return { done: { ...rounds.result, complete: true } };
}

/** Step 3's index partitions in the order they are written, each with its actions and fence. */
function indexPartitions(department: string, snapshot: Snapshot) {
  return [
    ['emails', emailIndexPartitionKey(department), emailActions, snapshot.fences.email],
    ['ids', idIndexPartitionKey(department), idActions, snapshot.fences.id],
  ] as const;
}

/** Ends a lost round: forgets what it cached and carries its keys into the rerun. */
function loseRound(rounds: Rounds, work: Work): Retry {
  forgetRound(rounds.stores.drainCache, rounds.department, work.lastNames);
  rounds.carried = work;
  endRound(rounds, 'lost');
  return RETRY;
}

/**
 * What comes between the written indexes and the rows' delete: the listing's count (eventually
 * consistent), refreshed once a round and only when the round drained a membership change, and
 * the gone handler of each employee found gone — both before the rows go, so a failure leaves
 * them to drain again. Returns the employees found gone.
 *
 * @throws {DomainError} for storage faults.
 */
async function settleDrained(
  rounds: Rounds,
  rows: readonly OutboxRow[],
  work: Work,
  snapshot: Snapshot,
): Promise<string[]> {
  const { stores, department, options } = rounds;
  if (rows.some(changesMembership)) {
    const every = options.countRefreshEveryMs ?? COUNT_REFRESH_EVERY_MS;
    await refreshAfterRound(stores, department, every);
  }
  const gone = work.employeeIds.filter((id) => snapshot.sources.employees.get(id) === undefined);
  for (const employeeId of gone) await options.onGone?.(department, employeeId);
  return gone;
}

/** Whether a row holds a change that moves an employee in or out (not a mere update). */
function changesMembership(row: OutboxRow): boolean {
  return row.changes.some((change) => change.reason !== 'updated');
}

/** Adds a committed round to the drain's counts: `'next'` while rows are left, else done. */
function tallyRound(
  rounds: Rounds,
  read: RoundRead,
  work: Work,
  gone: readonly string[],
): RoundOutcome {
  const { stores, department, result } = rounds;
  result.rows += read.rows.length;
  result.employees += work.employeeIds.length;
  result.gone += gone.length;
  rounds.carried = undefined;
  if (read.more) return 'next';
  stores.metrics?.observeOutbox(department, 0);
  return { done: { ...result, complete: true } };
}
