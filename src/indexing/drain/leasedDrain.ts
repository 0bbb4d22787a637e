/**
 * A drain of one department's outbox as the queue worker and the sweep run it: under the
 * department's drain lease (drainLease.ts), in bounded rounds, within a bounded invocation.
 * Nothing to do costs one request (the outbox check, before the lease); a cover answers only for
 * rows written before its window closed (`onlyRowsBefore`). A drainer that finds the lease held
 * runs no round: it records a request (its nudge is absorbed), which the holder sees and drains
 * again; the first one also sends a nudge for the expiry, naming the holder (`standsInFor`). No
 * round starts past the invocation's budget ({@link DrainLimits}): the drainer frees the lease
 * and a nudge continues. The lease is renewed between rounds once a quarter of it has passed.
 * Without a nudge sender (`IndexStores.nudge`) nothing could continue the drain elsewhere, so it
 * runs to the end in one invocation and sends no expiry nudge.
 *
 * Why: docs/queues.md "Transactional outbox" ("One drainer per department, bounded invocations").
 */
import { randomUUID } from 'node:crypto';
import {
  acquireDrainLease,
  releaseDrainLease,
  renewDrainLease,
  type HeldLease,
  type LeaseClock,
} from './drainLease';
import type { IndexStores } from '../indexStores';
import { ensureTable } from '../../storage/createOnce';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import { outboxPending } from './outboxDrainWork';
import { drainRound, MAX_CHANGES_PER_ROUND } from './outboxDrain';
import {
  endRound,
  noDrainResult,
  startRounds,
  type DrainOptions,
  type DrainResult,
  type Rounds,
} from './outboxDrainRounds';
import { retryOptimistically } from '../../storage/optimisticRetry';

/** Bounds of one drain invocation. */
export interface DrainLimits {
  /** Changes one round takes at most. */
  changesPerRound: number;
  /** No round starts after this many ms of the invocation. */
  invocationMs: number;
  /** No round starts after this many changes drained in the invocation. */
  changesPerInvocation: number;
  /** Duration of the drain lease, renewed between rounds. */
  leaseMs: number;
}

/** Defaults of {@link DrainLimits}: far below the host's 10-minute `functionTimeout`. */
export const DEFAULT_DRAIN_LIMITS: DrainLimits = {
  changesPerRound: MAX_CHANGES_PER_ROUND,
  invocationMs: 30_000,
  changesPerInvocation: 10_000,
  leaseMs: 60_000,
};

/** Options of {@link drainDepartment}. */
export interface LeasedDrainOptions extends Omit<
  DrainOptions,
  'beforeRound' | 'maxChangesPerRound'
> {
  limits?: Partial<DrainLimits>;
  /** Clock (tests); default `Date.now`. */
  now?: () => number;
  /**
   * When the invocation started (default: now); SharedDrains passes the earliest request the
   * drain answers.
   */
  startedAt?: number;
  /**
   * Lease holders whose expiry nudge asked for this drain (the message's `holder`): if one of
   * them still holds the lease with the request pending, the nudge is sent again (docs/queues.md).
   */
  standsInFor?: readonly string[];
  /**
   * Set when every request behind this drain was a write's cover (the message's `before`): rows
   * written since were published after the cover's window and have covers of their own, so the
   * drain runs only when a row written before this moment is there (queueChangeSink.ts).
   */
  onlyRowsBefore?: number;
  /**
   * Called right before the drain sends the nudge that continues it in a new invocation: from
   * then on that message may be stored and drained at any moment, so only requests made before
   * it are answered by it (src/indexing/drain/sharedDrains.ts).
   */
  onHandOver?: () => void;
}

/** How a drain ended. */
export type DrainOutcome =
  /** The outbox was drained to its end and the lease freed. */
  | 'drained'
  /** The invocation's budget ran out: the lease is freed and a nudge continues the drain. */
  | 'continued'
  /** Another drainer holds the lease: no round run, the request recorded on the lease. */
  | 'absorbed'
  /** The lease expired under this drainer and another took it over: it stopped. */
  | 'lost';

/** What {@link drainDepartment} did. */
export interface LeasedDrainResult extends DrainResult {
  outcome: DrainOutcome;
}

/** A result before any drain: nothing done yet. */
export function nothingDrained(): LeasedDrainResult {
  return { ...noDrainResult(), outcome: 'drained' };
}

/** Adds the counts of `result` to `total` (`complete` and `outcome` are the caller's to set). */
export function addUp(total: DrainResult, result: DrainResult): void {
  total.rows += result.rows;
  total.employees += result.employees;
  total.deadLettered += result.deadLettered;
  total.gone += result.gone;
  total.rounds += result.rounds;
}

/**
 * Drains the department's outbox under its drain lease, within the invocation's budget (see the
 * file comment).
 *
 * @throws {ThrottledError} when rounds kept being lost, or the lease kept changing.
 * @throws {DomainError} for storage faults (the lease is freed first when storage allows; the
 *   rows stay, the nudge is retried).
 */
export async function drainDepartment(
  stores: IndexStores,
  department: string,
  options: LeasedDrainOptions = {},
): Promise<LeasedDrainResult> {
  const limits = { ...DEFAULT_DRAIN_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const clock: LeaseClock = { durationMs: limits.leaseMs, now };
  const startedAt = options.startedAt ?? now();
  const total = nothingDrained();
  // The index table: created by the lease acquire below (drainLease.ts) before any round.
  await ensureTable(stores.employees);
  const partitionKey = departmentPartitionKey(department);
  if (!(await outboxPending(stores.employees, partitionKey, options.onlyRowsBefore))) {
    if (options.onlyRowsBefore === undefined) stores.metrics?.observeOutbox(department, 0);
    return { ...total, complete: true, outcome: 'drained' };
  }
  const attempt = await acquireDrainLease(stores.index, department, randomUUID(), clock);
  if ('busy' in attempt) {
    const { busy } = attempt;
    // The first request sends the nudge that outlives the holder; that nudge, finding the request
    // still pending, sends itself again rather than be absorbed by it.
    const outlive = busy.firstRequest || options.standsInFor?.includes(busy.holder) === true;
    if (outlive && stores.nudge) {
      const seconds = Math.ceil(Math.max(0, busy.expiresAt - now()) / 1000) + 1;
      await stores.nudge(department, seconds, busy.holder);
    }
    return { ...total, outcome: 'absorbed' };
  }
  let lease: HeldLease | undefined = attempt.held;
  const bounded = stores.nudge !== undefined;
  const spent = (drainedNow: number): boolean =>
    bounded &&
    (now() - startedAt >= limits.invocationMs ||
      total.employees + drainedNow >= limits.changesPerInvocation);
  const roundOptions: DrainOptions = {
    ...options,
    maxChangesPerRound: limits.changesPerRound,
    beforeRound: async (_round, soFar) => {
      if (spent(soFar.employees)) return false;
      if (lease && now() - lease.writtenAt >= limits.leaseMs / 4) {
        lease = await renewDrainLease(stores.index, lease, clock);
      }
      return lease !== undefined;
    },
  };
  let rounds: Rounds | undefined;
  try {
    for (;;) {
      // The rounds to the outbox's end (or the budget), each an attempt of the lost-round retry.
      const drained = startRounds(stores, department, roundOptions);
      rounds = drained;
      let outcome = await retryOptimistically(drained.retry, () => drainRound(drained));
      while (outcome === 'next') {
        outcome = await retryOptimistically(drained.retry, () => drainRound(drained));
      }
      const result = outcome.done;
      addUp(total, result);
      if (!lease) return { ...total, outcome: 'lost' };
      if (result.complete) {
        const released = await releaseDrainLease(stores.index, lease, clock, 'report');
        if ('released' in released) return { ...total, complete: true, outcome: 'drained' };
        if ('lost' in released) return { ...total, outcome: 'lost' };
        // A nudge was absorbed since this drainer last wrote the lease: drain again (its first
        // outbox read comes after the request), or continue in a new invocation.
        lease = released.requested;
        if (!spent(0)) continue;
      }
      // The budget is spent with rows left: free the lease, then continue in a new invocation
      // (a crash in between fails this invocation, and its message is delivered again).
      await releaseDrainLease(stores.index, lease, clock, 'ignore');
      lease = undefined;
      options.onHandOver?.();
      await stores.nudge?.(department, 0);
      return { ...total, outcome: 'continued' };
    }
  } catch (error) {
    if (rounds) endRound(rounds, 'failed');
    // Free the lease for the retry of this message (or the next nudge) rather than make it wait
    // for the expiry; if storage refuses that too, the lease expires.
    if (lease) await releaseDrainLease(stores.index, lease, clock, 'ignore').catch(() => undefined);
    throw error;
  }
}
