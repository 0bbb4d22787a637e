/**
 * The one optimistic-write retry routine: read, decide, write conditionally (ETag, If-None-Match),
 * and on a lost race read again — with one back-off curve and one give-up error
 * ({@link ContentionError}) for every loop that writes a shared entity or blob.
 *
 * The curve: the first retry runs at once (the first loss is usually a stale cached version, not
 * a busy entity), then full jitter — a uniformly random wait below an exponentially growing
 * ceiling, capped — so writers that keep colliding fall out of step instead of retrying together.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { ThrottledError } from '../domainErrors';

/** Returned by an attempt that lost a race and should run again. */
export const RETRY = Symbol('retry');

/** The attempt result that asks for another round. */
export type Retry = typeof RETRY;

/**
 * The ceiling of the wait after the second loss in a row, in ms, unless a loop asks for another.
 */
export const BACKOFF_BASE_MS = 32;

/** Longest wait between two attempts, in ms, unless a loop asks for another cap. */
export const DEFAULT_BACKOFF_CAP_MS = 250;

/** How the routine waits and draws jitter; tests pass a fake clock and a fixed random. */
export interface RetryTiming {
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1), as `Math.random`. */
  random(): number;
}

/** Real time and `Math.random`. */
export const realTiming: RetryTiming = {
  sleep: async (ms) => {
    await sleepFor(ms);
  },
  random: Math.random,
};

/**
 * The wait before the next attempt after `lost` lost attempts in a row: 0 after the first, then a
 * random share of `min(capMs, baseMs * 2^(lost - 2))`. With `waitFirst` the first retry waits too:
 * a random share of `min(capMs, baseMs * 2^(lost - 1))`.
 *
 * @param random - a number in [0, 1).
 */
export function backoffMs(
  lost: number,
  random: number,
  capMs: number = DEFAULT_BACKOFF_CAP_MS,
  baseMs: number = BACKOFF_BASE_MS,
  waitFirst = false,
): number {
  const doublings = waitFirst ? lost - 1 : lost - 2;
  if (lost < 1 || doublings < 0) return 0;
  return random * Math.min(capMs, baseMs * 2 ** doublings);
}

/** How long {@link retryOptimistically} keeps trying, and what it says when it stops. */
export interface OptimisticRetryOptions {
  /** Attempts before giving up (at least 1). */
  maxAttempts: number;
  /**
   * The error thrown after `attempts` lost attempts; a catalogue factory phrases it (usually a
   * `ContentionError`; a loop whose loss means something else says so with its own code).
   */
  giveUp: (attempts: number) => ThrottledError;
  /** Longest wait between attempts, in ms ({@link DEFAULT_BACKOFF_CAP_MS} by default). */
  capMs?: number;
  /** The curve's first ceiling, in ms ({@link BACKOFF_BASE_MS} by default). */
  baseMs?: number;
  /** Wait before the first retry too (default false: the first retry runs at once). */
  waitFirst?: boolean;
  /** Clock and jitter ({@link realTiming} by default). */
  timing?: RetryTiming;
}

/**
 * Waits as the curve says after `lost` lost attempts in a row ({@link backoffMs}). For loops that
 * keep their own structure (several writes per round, a checkpoint between rounds).
 */
async function backOff(
  lost: number,
  options: Pick<OptimisticRetryOptions, 'capMs' | 'baseMs' | 'waitFirst' | 'timing'> = {},
): Promise<void> {
  const timing = options.timing ?? realTiming;
  const ms = backoffMs(lost, timing.random(), options.capMs, options.baseMs, options.waitFirst);
  if (ms > 0) await timing.sleep(ms);
}

/**
 * Runs `attempt` (given its 1-based number) until it returns something other than {@link RETRY},
 * backing off between attempts ({@link backoffMs}).
 *
 * @throws {ThrottledError} from `options.giveUp` when `maxAttempts` attempts all lost.
 * @throws whatever `attempt` throws (not retried: only a lost race is).
 */
export async function retryOptimistically<T>(
  options: OptimisticRetryOptions,
  attempt: (n: number) => Promise<T | Retry>,
): Promise<T> {
  for (let n = 1; n <= options.maxAttempts; n++) {
    if (n > 1) await backOff(n - 1, options);
    const result = await attempt(n);
    if (result !== RETRY) return result as T;
  }
  throw options.giveUp(options.maxAttempts);
}
