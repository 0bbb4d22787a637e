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
import type { ContentionError } from '../domainErrors';

/** Returned by an attempt that lost a race and should run again. */
export const RETRY = Symbol('retry');

/** The attempt result that asks for another round. */
export type Retry = typeof RETRY;

/** The ceiling of the wait after the second loss in a row, in ms; it doubles with every loss. */
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
 * random share of `min(capMs, BACKOFF_BASE_MS * 2^(lost - 2))`.
 *
 * @param random - a number in [0, 1).
 */
export function backoffMs(
  lost: number,
  random: number,
  capMs: number = DEFAULT_BACKOFF_CAP_MS,
): number {
  if (lost <= 1) return 0;
  return random * Math.min(capMs, BACKOFF_BASE_MS * 2 ** (lost - 2));
}

/** How long {@link retryOptimistically} keeps trying, and what it says when it stops. */
export interface OptimisticRetryOptions {
  /** Attempts before giving up (at least 1). */
  maxAttempts: number;
  /** The error thrown after `attempts` lost attempts; a catalogue factory phrases it. */
  giveUp: (attempts: number) => ContentionError;
  /** Longest wait between attempts, in ms ({@link DEFAULT_BACKOFF_CAP_MS} by default). */
  capMs?: number;
  /** Clock and jitter ({@link realTiming} by default). */
  timing?: RetryTiming;
  /** Wait before the first retry too (the curve one step on): another writer is known at work. */
  waitFirst?: boolean;
}

/**
 * Waits as the curve says after `lost` lost attempts in a row ({@link backoffMs}). For loops that
 * keep their own structure (several writes per round, a checkpoint between rounds).
 */
export async function backOff(
  lost: number,
  options: Pick<OptimisticRetryOptions, 'capMs' | 'timing'> = {},
): Promise<void> {
  const timing = options.timing ?? realTiming;
  const ms = backoffMs(lost, timing.random(), options.capMs);
  if (ms > 0) await timing.sleep(ms);
}

/**
 * Runs `attempt` (given its 1-based number) until it returns something other than {@link RETRY},
 * backing off between attempts ({@link backoffMs}).
 *
 * @throws {ContentionError} from `options.giveUp` when `maxAttempts` attempts all lost.
 * @throws whatever `attempt` throws (not retried: only a lost race is).
 */
export async function retryOptimistically<T>(
  options: OptimisticRetryOptions,
  attempt: (n: number) => Promise<T | Retry>,
): Promise<T> {
  for (let n = 1; n <= options.maxAttempts; n++) {
    if (n > 1) await backOff(options.waitFirst ? n : n - 1, options);
    const result = await attempt(n);
    if (result !== RETRY) return result as T;
  }
  throw options.giveUp(options.maxAttempts);
}
