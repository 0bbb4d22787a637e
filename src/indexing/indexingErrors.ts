/**
 * The asynchronous indexes' errors, phrased once. Each is a 503 with a `Retry-After`: the work is
 * retried (a queue message redelivered, a request tried again), never half-done.
 */
import { ThrottledError } from '../errors';

/** An employee kept changing while its index entries were reconciled. */
export function employeeIndexesContended(department: string, employeeId: string): ThrottledError {
  return new ThrottledError(
    `Employee ${employeeId} of "${department}" kept changing while its indexes were updated.`,
    5,
  );
}

/** The department's email index entry kept changing while it was reconciled. */
export function emailIndexContended(department: string): ThrottledError {
  return new ThrottledError(`Email index entry of "${department}" kept changing.`, 5);
}

/** The department's drain lease kept changing under the caller. */
export function drainLeaseContended(department: string): ThrottledError {
  return new ThrottledError(`The drain lease of "${department}" kept changing.`, 1);
}

/** The department's outbox kept changing: its drain lost every round it tried. */
export function outboxContended(department: string): ThrottledError {
  return new ThrottledError(
    `The index outbox of "${department}" kept changing while it was drained.`,
    5,
  );
}

/** An org-wide member list (`what`) kept changing under its writer. */
export function memberListContended(what: string): ThrottledError {
  return new ThrottledError(`${what} kept changing concurrently; try again.`, 1);
}
