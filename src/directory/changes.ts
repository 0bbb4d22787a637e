/**
 * The seam between the directory (primary entities, same-partition indexes) and the indexes that
 * live outside the department partition (inter-partition index table, organisation-wide last-name
 * index), which are maintained asynchronously through the `index-updates` queue.
 *
 * The directory reports every committed change of an employee; the receiver must not trust the
 * payload for the *new* state (it re-reads the primary entity), but uses `previous` to find index
 * entries the change may have orphaned (an old email or last name).
 */

/** One committed change of one employee. */
export interface EmployeeChange {
  department: string;
  employeeId: string;
  /** Email and last name before the change, when the change could have moved them. */
  previous?: { email?: string; lastName?: string };
  /** What happened, for logs and metrics only: receivers re-read the current state. */
  reason: 'created' | 'updated' | 'deleted' | 'imported' | 'archived' | 'moved';
}

/** Receives committed employee changes; implementations must be idempotent. */
export interface EmployeeChangeSink {
  /**
   * True when the receiver drains the index outbox (src/directory/entities/outbox.ts): every write
   * then records its change as an outbox row in its own transaction, and {@link publish} after
   * the commit only nudges the receiver, so a change is never lost between commit and publish.
   */
  readonly outbox?: boolean;
  /**
   * Records changes for asynchronous index maintenance.
   *
   * @throws {DomainError} when the changes could not be recorded durably.
   */
  publish(changes: EmployeeChange[]): Promise<void>;
}

/** A sink that drops changes: for deployments or tests without asynchronous indexes. */
export const discardChanges: EmployeeChangeSink = { publish: async () => undefined };
