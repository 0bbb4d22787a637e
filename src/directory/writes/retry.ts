/**
 * The directory's bound on optimistic-concurrency retries; the routine itself is
 * storage/optimisticRetry.ts.
 */
export { RETRY } from '../../storage/optimisticRetry';

/** Attempts before giving up on a contended entity (20 concurrent writers finish well within it). */
export const DEFAULT_MAX_CONFLICT_ATTEMPTS = 50;
