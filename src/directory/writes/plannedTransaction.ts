/**
 * Entity group transactions with a role per operation, so that a failure can be explained in
 * domain terms ("the email is taken", "the department changed") instead of "operation 1 failed".
 *
 * The service reports the index of the failing operation at the start of the error message
 * (`"1:The specified entity already exists."`); Azure and Azurite both do.
 */
import type { TableClient } from '@azure/data-tables';
import {
  MAX_TRANSACTION_OPERATIONS,
  failedOperationIndex,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { storageCode, storageStatus, toDomainError } from '../../storage/storageFaults';
import type { DirectoryContext } from '../context';
import { retryOptimistically } from '../../storage/optimisticRetry';
import { contendedError } from '../directoryErrors';
import { RETRY } from './retry';

/**
 * The operations of one transaction, each with what it is about. A delete or update that names an
 * ETag is conditional on it (see storage/tables/entityGroupTransaction.ts).
 */
export class PlannedTransaction<Role> {
  readonly actions: EntityGroupAction[] = [];
  readonly roles: Role[] = [];

  /** Appends an operation. */
  add(action: EntityGroupAction, role: Role): this {
    this.actions.push(action);
    this.roles.push(role);
    return this;
  }

  get size(): number {
    return this.actions.length;
  }
}

/** A transaction the service refused as a whole because one operation failed. */
export class TransactionFailure<Role> extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    /** The failing operation's index, when the service said. */
    readonly index: number | undefined,
    /** The failing operation's role, when the index is known. */
    readonly role: Role | undefined,
    options: { cause: unknown },
  ) {
    super(
      `Entity group transaction failed (${status} ${code ?? ''}) at operation ${index ?? '?'}.`,
      options,
    );
    this.name = 'TransactionFailure';
  }
}

/**
 * Submits a planned transaction and returns each operation's new ETag (undefined for deletes).
 *
 * @throws {TransactionFailure} when an operation failed with 404, 409 or 412 (nothing was written),
 *   412 also when a delete's or update's ETag no longer matched.
 * @throws {DomainError} for throttling and other storage faults that outlasted the SDK's retries.
 */
export async function submitPlanned<Role>(
  table: TableClient,
  plan: PlannedTransaction<Role>,
): Promise<(string | undefined)[]> {
  if (plan.size === 0) return [];
  if (plan.size > MAX_TRANSACTION_OPERATIONS) {
    throw new Error(
      `A transaction of ${plan.size} operations is over the ${MAX_TRANSACTION_OPERATIONS} limit.`,
    );
  }
  try {
    const response = await submitEntityGroupTransaction(table, plan.actions);
    return plan.actions.map((_, i) => response.subResponses[i]?.etag);
  } catch (error) {
    const status = storageStatus(error);
    if (status === 404 || status === 409 || status === 412) {
      const index = failedOperationIndex(error);
      throw new TransactionFailure<Role>(
        status,
        storageCode(error),
        index,
        index === undefined ? undefined : plan.roles[index],
        {
          cause: error,
        },
      );
    }
    throw toDomainError(error);
  }
}

/**
 * The domain error for a failed transaction whose failing operation could not be identified
 * (the service did not say which one): a conflict the caller may retry.
 */
export function unexplainedFailure(failure: TransactionFailure<unknown>): unknown {
  return toDomainError(failure.cause, {
    notFound: { code: 'Conflict', message: 'The data changed concurrently; try again.' },
    conflict: { code: 'Conflict', message: 'The data changed concurrently; try again.' },
    preconditionFailed: 'The data changed concurrently; try again.',
  });
}

/**
 * What to do with a failure no role explains: retry a couple of times (a race), then give up
 * with {@link unexplainedFailure}.
 */
export function retryUnexplained(
  failure: TransactionFailure<unknown>,
  attempt: number,
): Promise<typeof RETRY> {
  return failure.role === undefined && attempt >= 3
    ? Promise.reject(unexplainedFailure(failure))
    : Promise.resolve(RETRY);
}

/**
 * Submits `plan` as one attempt of an optimistic write ({@link writeOptimistically}): the new ETags
 * go to `committed`, which builds the result. A {@link TransactionFailure} goes to `refused`,
 * which says what the failing operation means — a result, a domain error (thrown), {@link RETRY}
 * (read again), or `undefined` when its role explains nothing, which is retried a couple of times
 * ({@link retryUnexplained}).
 *
 * @throws whatever `committed` or `refused` throws; {@link DomainError} for storage faults.
 */
export async function submitAttempt<Role, T>(
  table: TableClient,
  plan: PlannedTransaction<Role>,
  attempt: number,
  committed: (etags: (string | undefined)[]) => Promise<T> | T,
  refused: (failure: TransactionFailure<Role>) => Promise<Refusal<T>> | Refusal<T>,
): Promise<T | typeof RETRY> {
  let etags: (string | undefined)[];
  try {
    etags = await submitPlanned(table, plan);
  } catch (error) {
    if (!(error instanceof TransactionFailure)) throw error;
    const failure = error as TransactionFailure<Role>;
    const outcome = await refused(failure);
    return outcome === undefined ? retryUnexplained(failure, attempt) : outcome;
  }
  return committed(etags);
}

/** What a refused transaction means to its writer ({@link submitAttempt}). */
export type Refusal<T> = T | typeof RETRY | undefined;

/**
 * The directory's optimistic write: `attempt` reads state, plans one transaction and submits it
 * ({@link submitAttempt}); it runs again while it returns {@link RETRY} (a lost race), at most the
 * context's `maxConflictAttempts` times.
 *
 * @throws {ContentionError} naming `subject` when every attempt lost; whatever `attempt` throws.
 */
export function writeOptimistically<T>(
  context: Pick<DirectoryContext, 'maxConflictAttempts'>,
  subject: string,
  attempt: (n: number) => Promise<T | typeof RETRY>,
): Promise<T> {
  return retryOptimistically(
    {
      maxAttempts: context.maxConflictAttempts,
      giveUp: (attempts) => contendedError(subject, attempts),
    },
    attempt,
  );
}
