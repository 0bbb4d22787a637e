/**
 * Removing an employee: the employee entity, its email copy, the department's count (and manager
 * copy, if it was the manager), its id in the last-name index entity, its yearly reviews and the
 * index outbox row (when the directory keeps one, outbox.ts), in ONE entity group transaction.
 * With `mustExist: false` an absent employee is not an error (delete-if-exists), so queue workers
 * (archive, move) can run it again safely. Reviews beyond `MAX_REVIEWS_WITH_EMPLOYEE` go first,
 * in transactions that drop their years from the employee under its ETag (reviewTrims.ts). Every
 * delete of the employee carries the ETag this call read, so a change committed since fails the
 * whole transaction (412) instead of being deleted unseen; a cached version never decides a write.
 *
 * Why: docs/directory.md "Writes" (`If-Match`, version cache) and "Reviews bound to their
 * employee".
 */
import type { TableEntity } from '@azure/data-tables';
import {
  departmentPartitionKey,
  employeeRowKey,
  parseReviewRowKey,
} from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';
import type { StoredEntity, StoredProperties } from '../../storage/tables/entities';
import { directoryRetry, type DirectoryContext, type EmployeeCall } from '../context';
import { employeeNotFound, staleVersion, type TransactionFailure } from '../directoryErrors';
import { toEmployee, type Employee } from '../entities/employeeEntity';
import {
  employeeStateOf,
  readEmployeeState,
  versionMatches,
  type EmployeeState,
} from '../entities/employeeState';
import { forgetVersions, loadCountShard, loadDepartment } from '../writes/departmentVersions';
import { loadLastNameIndex } from '../writes/lastNameVersions';
import {
  retryUnexplained,
  submitPlan,
  type PlannedTransaction,
} from '../writes/plannedTransaction';
import { publishingIfUncertain } from '../writes/uncertainCommit';
import { deletionPlan, rememberDeletion, type Role } from './deleteEmployeePlan';
import { trimReviews, type Explain } from './reviewTrims';

/** Options of {@link deleteEmployee}. */
export interface DeleteEmployeeOptions {
  /**
   * Delete only if this is the current version of the employee's data: the ETag of the employee
   * or of its email copy, also after review writes that changed only the employee's review list
   * (see employeeState.ts `versionMatches`). For API callers.
   */
  ifMatch?: string;
  /**
   * Delete only if the employee entity is exactly this version (the ETag it had when the caller
   * read it, review list included): for callers that copied the employee and its reviews
   * (archive, move). Unlike `ifMatch`, a review written since fails it.
   */
  exactEtag?: string;
  /**
   * The employee entity exactly as the caller just read it (with `exactEtag`): the first attempt
   * decides from it instead of reading it again. Its delete stays conditional on its ETag, so a
   * change since fails the transaction (412) and the next attempt reads.
   */
  read?: StoredEntity;
  /** Throw `EmployeeNotFound` when there is nothing to delete (default true). */
  mustExist?: boolean;
  /** Reason published with the change (default `deleted`; the archive worker says `archived`). */
  reason?: 'deleted' | 'archived' | 'moved';
  /**
   * An entity of the department's partition to write (insert-or-replace) in the employee's own
   * transaction, so that it exists exactly when that removal committed: the archive's receipt.
   */
  receipt?: TableEntity<StoredProperties>;
}

/** What {@link deleteEmployee} did. */
export interface EmployeeDeleted {
  deleted: boolean;
  employee?: Employee;
  /**
   * Set when the employee was gone by the time this call's transaction reached storage: someone
   * else deleted it, or an earlier try of this very transaction committed and its answer was lost
   * (only a `receipt` tells which).
   */
  vanished?: true;
}

/** One {@link deleteEmployee} call: what it was asked, and what its attempts learnt so far. */
interface DeleteCall extends EmployeeCall {
  options: DeleteEmployeeOptions;
  /** The email whose copy a refused transaction showed missing. */
  missingCopyOf?: string;
  /**
   * The employee this call last saw, if a transaction then found it already gone: either an
   * earlier try of our own transaction committed (its answer was lost) or someone else deleted
   * it; both leave it deleted, which is what the caller asked for.
   */
  vanished?: Employee;
  /** The exact version the caller holds; it follows the trims this call commits itself. */
  exactEtag?: string;
  /** Listed review years whose review turned out to be missing (a transaction failed on it). */
  missingYears: Set<number>;
}

/**
 * Deletes an employee with every same-partition copy and index entry and its reviews, then
 * publishes a `deleted` change carrying the old email and last name.
 *
 * @returns whether something was deleted, and what.
 * @throws {NotFoundError} `EmployeeNotFound` when absent and `mustExist` is not false.
 * @throws {PreconditionFailedError} when `ifMatch` is not the current version of the employee's
 *   data, or `exactEtag` not the current version of its entity (checked again on every retry, so
 *   also when the employee changes between this call's read and its transaction).
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
export async function deleteEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  options: DeleteEmployeeOptions = {},
): Promise<EmployeeDeleted> {
  const partitionKey = departmentPartitionKey(department);
  employeeRowKey(employeeId);
  const table = await context.table();
  const call: DeleteCall = {
    context,
    table,
    department,
    employeeId,
    partitionKey,
    options,
    exactEtag: options.exactEtag,
    missingYears: new Set<number>(),
  };
  const uncertain = { department, employeeId, reason: options.reason ?? 'deleted' } as const;
  const outcome = await publishingIfUncertain(context, uncertain, () =>
    retryOptimistically(directoryRetry(context, `Department "${department}"`), (attempt) =>
      deleteAttempt(call, attempt),
    ),
  );

  if (outcome.deleted && outcome.employee) {
    await context.changes.publish([
      {
        department,
        employeeId,
        reason: options.reason ?? 'deleted',
        previous: { email: outcome.employee.email, lastName: outcome.employee.lastName },
      },
    ]);
  }
  return outcome;
}

/**
 * The employee as this attempt decides from it (the caller's read on the first attempt, else
 * read now); `undefined` when absent and `mustExist` is false.
 *
 * @throws {NotFoundError} `EmployeeNotFound` when absent and `mustExist` is not false.
 * @throws {PreconditionFailedError} when it is not the version the caller holds.
 */
async function employeeToDelete(
  call: DeleteCall,
  attempt: number,
): Promise<EmployeeState | undefined> {
  const { table, department, employeeId, options } = call;
  const given =
    attempt === 1 && options.read?.rowKey === employeeRowKey(employeeId)
      ? employeeStateOf(options.read)
      : undefined;
  const current = given ?? (await readEmployeeState(table, call.partitionKey, employeeId));
  if (!current) {
    if (options.mustExist === false) return undefined;
    throw employeeNotFound(department, employeeId);
  }
  if (
    (call.exactEtag !== undefined && current.etag !== call.exactEtag) ||
    (options.ifMatch !== undefined && !(await versionMatches(table, current, options.ifMatch)))
  ) {
    throw staleVersion(`Employee ${employeeId}`);
  }
  return current;
}

/** One attempt: read, trim the reviews if too many, then the employee's own transaction. */
async function deleteAttempt(call: DeleteCall, attempt: number): Promise<EmployeeDeleted | Retry> {
  if (call.vanished) return { deleted: true, employee: call.vanished, vanished: true };
  const current = await employeeToDelete(call, attempt);
  if (!current) return { deleted: false };
  const explain: Explain = (failure, plan) => explainRefusal(call, current, attempt, failure, plan);
  const trimmed = await trimReviews(call, current, explain);
  if (trimmed === RETRY) return RETRY;

  const { context, table, department, employeeId, partitionKey, options } = call;
  const useCache = attempt === 1;
  const lastName = normalizeLastName(current.data.lastName);
  const [dept, count, index] = await Promise.all([
    loadDepartment(context, table, department, useCache),
    loadCountShard(context, table, department, useCache),
    loadLastNameIndex(context, table, department, lastName, useCache),
  ]);
  const reads = { dept, count, index };
  const deletion = deletionPlan(
    context,
    {
      department,
      employeeId,
      partitionKey,
      current,
      etag: trimmed.etag,
      years: trimmed.years,
      emailMissing: call.missingCopyOf === current.data.email,
      reason: options.reason ?? 'deleted',
      receipt: options.receipt,
    },
    reads,
  );
  const submitted = await submitPlan(table, deletion.plan);
  if ('refused' in submitted) {
    forgetVersions(context, department, [lastName]);
    return explain(submitted.refused, deletion.plan);
  }
  rememberDeletion(context, department, lastName, reads, deletion, submitted.etags);
  return { deleted: true, employee: toEmployee(department, current.data) };
}

/** What a refused transaction of an attempt on `current` means: what the next attempt learns. */
function explainRefusal(
  call: DeleteCall,
  current: EmployeeState,
  attempt: number,
  failure: TransactionFailure<Role>,
  plan: PlannedTransaction<Role>,
): Promise<typeof RETRY> {
  if (failure.role === 'employee' && failure.status === 404) {
    call.vanished = toEmployee(call.department, current.data);
    return Promise.resolve(RETRY);
  }
  // Changed after our read: the next attempt checks the caller's version again, and
  // otherwise deletes the newer version.
  if (failure.role === 'employee' && failure.status === 412) return Promise.resolve(RETRY);
  if (failure.role === 'review' && failure.index !== undefined) {
    // A listed review that is not there (written before reviews were bound to employees).
    const action = plan.actions[failure.index];
    const year = action ? parseReviewRowKey(action[1].rowKey)?.year : undefined;
    if (year !== undefined) call.missingYears.add(year);
    return Promise.resolve(RETRY);
  }
  if (failure.role === 'email') {
    // The employee operation came first and passed: the copy itself is missing.
    call.missingCopyOf = current.data.email;
    return Promise.resolve(RETRY);
  }
  return retryUnexplained(failure, attempt);
}
