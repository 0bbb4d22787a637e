/**
 * Bounded retry of optimistic-concurrency conflicts (412 on a shared entity's ETag).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Returned by an attempt that lost a race and should run again. */
export const RETRY = Symbol('retry');

/** Attempts before giving up on a contended entity (20 concurrent writers finish well within it). */
export const DEFAULT_MAX_CONFLICT_ATTEMPTS = 50;

/**
 * Runs `attempt` until it returns something other than {@link RETRY}, at most `maxAttempts`
 * times, with a short jittered back-off from the third attempt on (the second runs at once: the
 * first usually failed only because it used a cached version).
 *
 * @throws the error `exhausted()` builds when every attempt lost; whatever `attempt` throws.
 */
export async function retryOnConflict<T>(
  maxAttempts: number,
  attempt: (n: number) => Promise<T | typeof RETRY>,
  exhausted: () => Error,
): Promise<T> {
  for (let n = 1; n <= maxAttempts; n++) {
    if (n > 2) await sleep(Math.random() * Math.min(250, 4 * 2 ** Math.min(n, 8)));
    const result = await attempt(n);
    if (result !== RETRY) return result as T;
  }
  throw exhausted();
}
