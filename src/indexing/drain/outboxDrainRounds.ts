/**
 * One drain's rounds as a record: the options a drain takes, what it did so far, the keys a lost
 * round carries into the next, and how each round is metered and retried. The writer's drain
 * (outboxDrain.ts `drainOutbox`) and the leased drain (leasedDrain.ts) each loop `drainRound`
 * over one {@link Rounds}; keeping the record apart from the round's steps lets both loops share
 * it without a layer in between (docs/queues.md "The drain traced").
 */
import type { DrainRoundOutcome } from '../../telemetry/metrics';
import type { EmployeeGoneHandler, IndexStores } from '../indexStores';
import type { Work } from './outboxDrainWork';
import { outboxContended } from '../indexingErrors';
import { whileBusy, type BusyRetryOptions } from '../../storage/busyRetry';
import {
  realTiming,
  type OptimisticRetryOptions,
  type RetryTiming,
} from '../../storage/optimisticRetry';

/** Rounds lost to concurrent changes before giving up (the nudge is then retried). */
const MAX_LOST_ROUNDS = 8;

/** A step of a drain round, reported to {@link DrainOptions.afterStep}. */
export type DrainStep = 'read' | 'snapshot' | 'emails' | 'ids' | 'lastNames' | 'deleted';

/** Options of a drain (outboxDrain.ts `drainOutbox`, leasedDrain.ts `drainDepartment`). */
export interface DrainOptions {
  /** Called after each step (observability; tests inject crashes and pauses here). */
  afterStep?: (step: DrainStep, round: number) => Promise<void> | void;
  /** Called for each drained employee that is gone, before its rows are deleted. */
  onGone?: EmployeeGoneHandler;
  /** Changes a round takes at most (default `MAX_CHANGES_PER_ROUND`, outboxDrainWork.ts). */
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
 * One drain's rounds so far: what they did, the keys of a lost round carried into the next, when
 * the open round started (each round is metered once, by how it ended), and the lost-round retry.
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
 * Runs one step of a round, again after a back-off while storage refuses it for load. Each step
 * is safe to repeat: a read, or a write conditional on what the round read (a repeat that meets
 * its own earlier success loses the round, as any lost race does). Failing the round instead
 * would pay again for every read before the step: the rerun (or the queue worker's drain it hands
 * over to) reads the outbox and the snapshot anew — admitted work that buys nothing.
 *
 * @throws whatever `step` throws once storage stops refusing it for load, or after the last try.
 */
export function patiently<T>(rounds: Rounds, step: () => Promise<T>): Promise<T> {
  return whileBusy(step, { ...BUSY_STEP, timing: rounds.timing });
}
