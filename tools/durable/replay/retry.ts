/**
 * Retry timing of `callActivityWithRetry` / `callSubOrchestratorWithRetry`, as the Durable Task
 * Framework's RetryInterceptor computes it: after the n-th failed attempt the runtime waits
 * `firstRetryInterval * backoffCoefficient^(n-1)`, capped at `maxRetryInterval`, on a timer.
 *
 * `durable-functions` models this as: attempt fails → a timer (one sequence number) → a new
 * attempt (one more sequence number) while `failures < maxNumberOfAttempts`; the timer after the
 * last failure fires too, and then the task fails with the last error.
 */
import type { RetryPolicy } from './historyEvents';

/** Milliseconds to wait after the `failures`-th failed attempt (1-based). */
export function retryDelayMs(policy: RetryPolicy, failures: number): number {
  const coefficient = policy.backoffCoefficient ?? 1;
  const delay = policy.firstRetryIntervalInMilliseconds * coefficient ** Math.max(0, failures - 1);
  const cap = policy.maxRetryIntervalInMilliseconds;
  const capped = cap !== undefined && cap > 0 ? Math.min(delay, cap) : delay;
  return Number.isFinite(capped) ? Math.max(0, Math.round(capped)) : Number.MAX_SAFE_INTEGER;
}

/** True when another attempt follows the timer after the `failures`-th failure. */
export function shouldRetry(policy: RetryPolicy, failures: number): boolean {
  return failures < policy.maxNumberOfAttempts;
}

/** True when the policy's overall retry timeout has passed since the first attempt. */
export function retryTimedOut(policy: RetryPolicy, firstAttemptAt: Date, now: Date): boolean {
  const timeout = policy.retryTimeoutInMilliseconds;
  return (
    timeout !== undefined && timeout > 0 && now.getTime() >= firstAttemptAt.getTime() + timeout
  );
}
