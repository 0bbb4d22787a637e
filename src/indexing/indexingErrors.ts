/**
 * The asynchronous indexes' errors, phrased once: each is the shared retry routine's give-up
 * (src/storage/optimisticRetry.ts), a 503 with a `Retry-After`: the work is retried (a queue
 * message redelivered, a request tried again), never half-done.
 */
import type { ContentionError } from '../domainErrors';
import { contended } from '../storage/storageErrors';

/** An employee kept changing while its index entries were reconciled. */
export function employeeIndexesContended(
  department: string,
  employeeId: string,
  attempts: number,
): ContentionError {
  return contended(
    `Employee ${employeeId} of "${department}" kept changing while its indexes were updated.`,
    attempts,
    5,
  );
}

/** The department's email index entry kept changing while it was reconciled. */
export function emailIndexContended(department: string, attempts: number): ContentionError {
  return contended(`Email index entry of "${department}" kept changing.`, attempts, 5);
}

/** The department's drain lease kept changing under the caller. */
export function drainLeaseContended(department: string, attempts: number): ContentionError {
  return contended(`The drain lease of "${department}" kept changing.`, attempts, 1);
}

/** The department's outbox kept changing: its drain lost every round it tried. */
export function outboxContended(department: string, rounds: number): ContentionError {
  return contended(
    `The index outbox of "${department}" kept changing while it was drained.`,
    rounds,
    5,
  );
}

/** An org-wide member list (`what`) kept changing under its writer. */
export function memberListContended(what: string, attempts: number): ContentionError {
  return contended(`${what} kept changing concurrently; try again.`, attempts, 1);
}

/** A payload of the `index-updates` queue that is not a v1 message (`detail` says why). */
export function invalidIndexMessage(detail: string | undefined): Error {
  return new Error(`Not an index-updates message: ${detail ?? 'invalid'}`);
}

/** A v2 payload of the `index-updates` queue that is not an outbox nudge (`detail` says why). */
export function invalidOutboxNudge(detail: string | undefined): Error {
  return new Error(`Not an outbox nudge: ${detail ?? 'invalid'}`);
}

/** Drained outbox rows kept failing their deletion: they wait for the next nudge or sweep. */
export function outboxRowsContended(
  department: string,
  rows: number,
  attempts: number,
): ContentionError {
  return contended(
    `${rows} drained outbox rows of "${department}" kept changing while they were deleted.`,
    attempts,
    1,
  );
}
