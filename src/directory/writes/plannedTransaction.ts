/**
 * Entity group transactions with a role per operation, so that a failure can be explained in
 * domain terms ("the email is taken", "the department changed") instead of "operation 1 failed".
 *
 * The service reports the index of the failing operation at the start of the error message
 * (`"1:The specified entity already exists."`); Azure and Azurite both do.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  MAX_TRANSACTION_OPERATIONS,
  failedOperationIndex,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { storageCode, storageStatus, toDomainError } from '../../storage/storageFaults';
import { transactionTooLarge } from '../../storage/storageErrors';
import { RETRY } from '../../storage/optimisticRetry';
import { TransactionFailure } from '../directoryErrors';

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

/**
 * Replaces an entity read at `etag` (conditional on it), or creates it when none was read: how a
 * write keeps a shared entity such as a last-name index entity.
 */
export function replaceOrCreate(entity: TableEntity, etag: string | undefined): EntityGroupAction {
  return etag === undefined ? ['create', entity] : ['update', entity, 'Replace', { etag }];
}

/**
 * What a submitted plan came to: each operation's new ETag (undefined for deletes), or the
 * refusal of the whole transaction (nothing was written) for the writer to explain by its role.
 */
export type PlanOutcome<Role> =
  { etags: (string | undefined)[] } | { refused: TransactionFailure<Role> };

/**
 * Submits a planned transaction. An operation that failed with 404, 409 or 412 (412 also when a
 * delete's or update's ETag no longer matched) refuses the transaction: `{ refused }`.
 *
 * @throws {DomainError} for throttling and other storage faults that outlasted the SDK's retries.
 * @throws {Error} for a plan over the service's operation limit (a bug in the caller).
 */
export async function submitPlan<Role>(
  table: TableAccess,
  plan: PlannedTransaction<Role>,
): Promise<PlanOutcome<Role>> {
  if (plan.size === 0) return { etags: [] };
  if (plan.size > MAX_TRANSACTION_OPERATIONS) {
    throw transactionTooLarge(plan.size, MAX_TRANSACTION_OPERATIONS);
  }
  try {
    const response = await submitEntityGroupTransaction(table, plan.actions);
    return { etags: plan.actions.map((_, i) => response.subResponses[i]?.etag) };
  } catch (error) {
    const status = storageStatus(error);
    if (status !== 404 && status !== 409 && status !== 412) throw toDomainError(error);
    const index = failedOperationIndex(error);
    const role = index === undefined ? undefined : plan.roles[index];
    return {
      refused: new TransactionFailure<Role>(status, storageCode(error), index, role, {
        cause: error,
      }),
    };
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
