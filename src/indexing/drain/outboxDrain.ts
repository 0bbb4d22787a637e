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
 * update"; the calls from the trigger: "The drain traced"; the word: docs/glossary.md).
 */
import { ensureTable } from '../../storage/createOnce';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { parseOutboxRowKey } from '../../storage/keys/tables/outbox';
import type { DrainRoundOutcome } from '../../telemetry/metrics';
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
import { COUNT_REFRESH_EVERY_MS, refreshAfterRound } from './listedCount';

export {
  MAX_CHANGES_PER_ROUND,
  MAX_LAST_NAMES_PER_ROUND,
  MAX_ROWS_PER_ROUND,
} from './outboxDrainWork';
import { outboxContended } from '../indexingErrors';
import { whileBusy, type BusyRetryOptions } from '../../storage/busyRetry';
import {
  RETRY,
  realTiming,
  retryOptimistically,
  type OptimisticRetryOptions,
  type Retry,
  type RetryTiming,
} from '../../storage/optimisticRetry';

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
  /**
   * A round that drained a membership change refreshes the department listing's count, at once
   * or — when this process did so less than this many ms ago — trailing (default
   * `COUNT_REFRESH_EVERY_MS`, 5 s; listedCount.ts `refreshAfterRound`).
   */
  countRefreshEveryMs?: number;
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
 * How a round's step waits out a busy account (busyRetry.ts) past the SDK's own retries: a few
 * more tries of that step, seconds apart, before the round fails.
 */
const BUSY_STEP: BusyRetryOptions = { maxAttempts: 4, baseMs: 500, capMs: 4_000 };

/**
 * Runs one step of a round, again after a back-off while storage refuses it for load. Each step
 * is safe to repeat: a read, or a write conditional on what the round read (a repeat that meets
 * its own earlier success loses the round, as any lost race does). Failing the round instead
 * would pay again for every read before the step: the rerun (or the queue worker's drain it hands
 * over to) reads the outbox and the snapshot anew — admitted work that buys nothing.
 */
function patiently<T>(rounds: Rounds, step: () => Promise<T>): Promise<T> {
  return whileBusy(step, { ...BUSY_STEP, timing: rounds.timing });
}

/**
 * One drain's rounds so far: what they did, the keys of a lost round carried into the next, when
 * the open round started (each round is metered once, by how it ended), and the lost-round retry.
 * {@link drainOutbox} and the leased drain (leasedDrain.ts) each loop {@link drainRound} over it.
 */
export interface Rounds {
  readonly stores: IndexStores;
  readonly department: string;
  readonly options: DrainOptions;
  readonly result: DrainResult;
  /** Each round is an attempt of this retry; a lost one runs again after its back-off. */
  readonly retry: OptimisticRetryOptions;
  readonly timing: RetryTiming;
  carried?: Work;
  /** When the open round started (ms), until it is metered. */
  startedAt?: number;
}

/**
 * The rounds of a drain of `department`, none run yet. A lost round runs again after a back-off
 * that never starts at once (another writer is at work here: a reconcile, or a drainer whose lease
 * ran out), so it gives that writer room rather than read again at once and lose again.
 */
export function startRounds(
  stores: IndexStores,
  department: string,
  options: DrainOptions,
): Rounds {
  const timing = options.sleep ? { sleep: options.sleep, random: Math.random } : realTiming;
  const retry = {
    maxAttempts: options.maxLostRounds ?? MAX_LOST_ROUNDS,
    capMs: MAX_BACKOFF_MS,
    waitFirst: true,
    timing,
    giveUp: (rounds: number) => outboxContended(department, rounds),
  };
  return { stores, department, options, result: noDrainResult(), retry, timing };
}

/** Meters the open round by how it ended (`failed`: the drain threw with a round open). */
export function endRound(rounds: Rounds, outcome: DrainRoundOutcome): void {
  if (rounds.startedAt === undefined) return;
  rounds.stores.metrics?.recordDrainRound(outcome, Date.now() - rounds.startedAt);
  rounds.startedAt = undefined;
}

/**
 * Drains a department's outbox until it is empty (or only holds rows written meanwhile that a
 * next drain will take), bringing the indexes of every employee it names up to date. No lease:
 * the writer's own round (writerDrain.ts); the queue worker and the sweep drain under the lease
 * (leasedDrain.ts `drainDepartment`).
 *
 * @throws {ThrottledError} when the department kept changing for {@link MAX_LOST_ROUNDS} rounds.
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

/**
 * When each row was committed (ms since 1970), for the index lag; rows of unknown age are left out.
 */
function committedTimes(rows: readonly OutboxRow[]): number[] {
  return rows
    .map((row) => outboxSequenceTime(parseOutboxRowKey(row.rowKey)?.sequence ?? ''))
    .filter((at): at is number => at !== undefined);
}

/** Whether a row holds a change that moves an employee in or out (not a mere update). */
function changesMembership(row: OutboxRow): boolean {
  return row.changes.some((change) => change.reason !== 'updated');
}

/**
 * One round (the steps of the file comment), an attempt of `rounds.retry`: `'next'` when rows are
 * left, `done` when the outbox is drained (or `beforeRound` stopped the drain), `RETRY` when the
 * round was lost (its keys are carried into the next).
 *
 * @throws {DomainError} for storage faults.
 */
export async function drainRound(rounds: Rounds): Promise<'next' | { done: DrainResult } | Retry> {
  const { stores, department, options, result } = rounds;
  // Before every round but the first, the rerun of a lost round included: a run of lost rounds
  // with their back-offs takes time too, so the invocation's budget and the lease renewal are
  // checked there as well. Stopping before a rerun leaves the lost round's rows in the outbox,
  // and whatever the lost round wrote is harmless (the fences: docs/queues.md).
  if (result.rounds > 0 && options.beforeRound) {
    if (!(await options.beforeRound(result.rounds + 1, result))) return { done: result };
  }
  result.rounds++;
  rounds.startedAt = Date.now();
  const round = result.rounds;
  const step = async (name: DrainStep): Promise<void> => {
    await options.afterStep?.(name, round);
  };
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
  stores.metrics?.observeOutbox(
    department,
    rows.length,
    seen.length > 0 ? Math.min(...seen) : undefined,
  );
  await step('read');
  // A lost round's keys are worked on again even when a concurrent drainer deleted their rows
  // meanwhile: this drainer may have written one of them from a read that is stale by now.
  const work = workOf(rows, rounds.carried);
  if (work.employeeIds.length === 0 && work.emails.length === 0) {
    // A round of rows nobody can drain moved them away: the rows behind them come next. (No
    // lost round comes before it: a lost round's carried keys would have made work.)
    if (more && unreadable.length > 0) {
      endRound(rounds, 'committed');
      return 'next';
    }
    endRound(rounds, 'empty');
    return { done: { ...result, complete: true } };
  }

  const snapshot = await patiently(rounds, () => takeSnapshot(stores, department, work));
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
  if (!written) {
    forgetRound(stores.drainCache, department, work.lastNames);
    rounds.carried = work;
    endRound(rounds, 'lost');
    return RETRY;
  }
  await step('lastNames');

  // The listing's count (eventually consistent): refreshed once a round, only when the round
  // drained a membership change; before the rows go, so a failure leaves them to drain again.
  if (rows.some(changesMembership)) {
    const every = options.countRefreshEveryMs ?? COUNT_REFRESH_EVERY_MS;
    await refreshAfterRound(stores, department, every);
  }
  const gone = work.employeeIds.filter((id) => snapshot.sources.employees.get(id) === undefined);
  for (const employeeId of gone) await options.onGone?.(department, employeeId);
  await patiently(rounds, () => deleteRows(stores.employees, department, rows, rounds.timing));
  stores.metrics?.recordIndexLag(department, seen);
  endRound(rounds, 'committed');
  await step('deleted');
  result.rows += rows.length;
  result.employees += work.employeeIds.length;
  result.gone += gone.length;
  rounds.carried = undefined;
  if (!more) {
    stores.metrics?.observeOutbox(department, 0);
    return { done: { ...result, complete: true } };
  }
  return 'next';
}
