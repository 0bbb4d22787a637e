/**
 * A write that failed after its transaction may have committed: a storage fault (a timeout, a
 * reset connection) on every try of the SDK can follow a transaction storage applied, its answer
 * lost. Its outbox row is then there with nobody asked to drain it, so the write publishes its
 * change all the same before it rethrows — for a transaction that did not commit, the cover costs
 * one outbox read. Why: docs/queues.md "Nothing stranded by a lost answer".
 */
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
} from '../../domainErrors';
import type { EmployeeChange } from '../changes';
import type { DirectoryContext } from '../context';

/** Whether `error` says the write was not applied (invalid, absent, refused, stale). */
function refusedForSure(error: unknown): boolean {
  return (
    error instanceof ValidationError ||
    error instanceof NotFoundError ||
    error instanceof ConflictError ||
    error instanceof PreconditionFailedError
  );
}

/**
 * Runs `write`; when it throws anything but a definite refusal, publishes `change` (best effort)
 * and rethrows.
 *
 * @throws whatever `write` throws.
 */
export async function publishingIfUncertain<T>(
  context: Pick<DirectoryContext, 'changes'>,
  change: EmployeeChange,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!refusedForSure(error)) await context.changes.publish([change]).catch(() => undefined);
    throw error;
  }
}
