/**
 * Removing an employee: the employee entity, its email copy, the department's count (and manager
 * copy, if it was the manager), its id in the last-name index entity, its yearly reviews and the
 * index outbox row (when the directory keeps one, outbox.ts), in ONE entity group transaction.
 * With `mustExist: false` an absent employee is not an error (delete-if-exists), so queue workers
 * (archive, move) can run it again safely. Reviews beyond {@link MAX_REVIEWS_WITH_EMPLOYEE} go
 * first, in transactions that drop their years from the employee under its ETag. Every delete of
 * the employee carries the ETag this call read, so a change committed since fails the whole
 * transaction (412) instead of being deleted unseen; a cached version never decides a write.
 *
 * Why: docs/directory.md "Writes" (`If-Match`, version cache) and "Reviews bound to their
 * employee".
 */
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
  parseReviewRowKey,
  reviewRowKey,
} from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import { directoryRetry, type DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import { departmentMerge } from '../entities/departmentEntity';
import { employeeNotFound, staleVersion } from '../directoryErrors';
import { toEmployee, type Employee } from '../entities/employeeEntity';
import {
  currentEtag,
  employeeStateOf,
  readEmployeeState,
  versionMatches,
} from '../entities/employeeState';
import { lastNameIndexRemoval } from '../entities/partitionLastNameIndex';
import { outboxAction } from '../entities/outbox';
import { reviewYearsOf } from './reviews';
import { employeeReviewYearsMerge, withoutReviewYears } from '../entities/reviewYears';
import {
  forgetVersions,
  loadCountShard,
  loadDepartment,
  rememberCountShard,
  rememberDepartment,
} from '../writes/departmentVersions';
import { loadLastNameIndex, rememberIndexWrite } from '../writes/lastNameVersions';
import { PlannedTransaction, retryUnexplained, submitPlan } from '../writes/plannedTransaction';
import type { TransactionFailure } from '../directoryErrors';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import type { TableEntity } from '@azure/data-tables';
import type { StoredEntity, StoredProperties } from '../../storage/tables/entities';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';
import { publishingIfUncertain } from '../writes/uncertainCommit';

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

type Role =
  'employee' | 'email' | 'count' | 'department' | 'lastNameIndex' | 'outbox' | 'receipt' | 'review';

/**
 * Most reviews deleted in the employee's own transaction (the budget, less the employee, its
 * email copy, a count shard, the department (a manager's copy is cleared), the last-name index
 * entity, the index outbox row and an archive's receipt).
 */
export const MAX_REVIEWS_WITH_EMPLOYEE = MAX_TRANSACTION_OPERATIONS - 7;
/** Reviews per transaction that trims the review list ahead of the employee's (plus its Merge). */
const REVIEWS_PER_TRIM = MAX_TRANSACTION_OPERATIONS - 1;

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
  let missingCopyOf: string | undefined;
  // The employee this call last saw, if a transaction then found it already gone: either an
  // earlier try of our own transaction committed (its answer was lost) or someone else deleted
  // it; both leave it deleted, which is what the caller asked for.
  let vanished: Employee | undefined;
  // The exact version the caller holds; it follows the trims this call commits itself.
  let exactEtag = options.exactEtag;
  // Listed review years whose review turned out to be missing (a transaction failed on it).
  const missingYears = new Set<number>();

  const uncertain = { department, employeeId, reason: options.reason ?? 'deleted' } as const;
  const outcome = await publishingIfUncertain(context, uncertain, () =>
    retryOptimistically(directoryRetry(context, `Department "${department}"`), async (attempt) => {
      if (vanished) return { deleted: true, employee: vanished, vanished: true } as const;
      const useCache = attempt === 1;
      const given =
        attempt === 1 && options.read?.rowKey === employeeRowKey(employeeId)
          ? employeeStateOf(options.read)
          : undefined;
      const current = given ?? (await readEmployeeState(table, partitionKey, employeeId));
      if (!current) {
        if (options.mustExist === false) return { deleted: false } as const;
        throw employeeNotFound(department, employeeId);
      }
      if (
        (exactEtag !== undefined && current.etag !== exactEtag) ||
        (options.ifMatch !== undefined && !(await versionMatches(table, current, options.ifMatch)))
      ) {
        throw staleVersion(`Employee ${employeeId}`);
      }
      const dataEtag = current.meta.dataEtag ?? current.etag;
      let etag = current.etag;
      let years = withoutReviewYears(await reviewYearsOf(table, current), missingYears);

      /** What a refused transaction means. */
      const explain = (
        failure: TransactionFailure<Role>,
        plan: PlannedTransaction<Role>,
      ): Promise<typeof RETRY> => {
        if (failure.role === 'employee' && failure.status === 404) {
          vanished = toEmployee(department, current.data);
          return Promise.resolve(RETRY);
        }
        // Changed after our read: the next attempt checks the caller's version again, and
        // otherwise deletes the newer version.
        if (failure.role === 'employee' && failure.status === 412) return Promise.resolve(RETRY);
        if (failure.role === 'review' && failure.index !== undefined) {
          // A listed review that is not there (written before reviews were bound to employees).
          const action = plan.actions[failure.index];
          const year = action ? parseReviewRowKey(action[1].rowKey)?.year : undefined;
          if (year !== undefined) missingYears.add(year);
          return Promise.resolve(RETRY);
        }
        if (failure.role === 'email') {
          // The employee operation came first and passed: the copy itself is missing.
          missingCopyOf = current.data.email;
          return Promise.resolve(RETRY);
        }
        return retryUnexplained(failure, attempt);
      };

      // Too many reviews for one transaction: delete them ahead of the employee, each chunk with
      // the Merge that drops its years from the employee's list (conditional on its ETag).
      while (years.length > MAX_REVIEWS_WITH_EMPLOYEE) {
        const rest = years.slice(REVIEWS_PER_TRIM);
        const trim = new PlannedTransaction<Role>().add(
          [
            'update',
            employeeReviewYearsMerge(partitionKey, employeeId, rest, dataEtag),
            'Merge',
            { etag },
          ],
          'employee',
        );
        for (const year of years.slice(0, REVIEWS_PER_TRIM)) {
          trim.add(['delete', { partitionKey, rowKey: reviewRowKey(employeeId, year) }], 'review');
        }
        const trimmed = await submitPlan(table, trim);
        if ('refused' in trimmed) return explain(trimmed.refused, trim);
        const [next] = trimmed.etags;
        etag = next ?? (await currentEtag(table, partitionKey, current.entity.rowKey));
        if (exactEtag !== undefined) exactEtag = etag;
        years = rest;
      }

      const lastName = normalizeLastName(current.data.lastName);
      const [dept, count, index] = await Promise.all([
        loadDepartment(context, table, department, useCache),
        loadCountShard(context, table, department, useCache),
        loadLastNameIndex(context, table, department, lastName, useCache),
      ]);

      const plan = new PlannedTransaction<Role>().add(
        ['delete', { partitionKey, rowKey: current.entity.rowKey }, { etag }],
        'employee',
      );
      if (missingCopyOf !== current.data.email) {
        plan.add(['delete', { partitionKey, rowKey: emailRowKey(current.data.email) }], 'email');
      }
      if (count) plan.add(countShardChange(partitionKey, count.shard, count.version, -1), 'count');
      // Only a manager's delete touches the department entity (to clear its copy). The department
      // may come from this process's cache, so it never decides alone: the employee's own flag
      // (set with the department's copy by setManager, and read under the ETag this delete is
      // conditional on) brings the department in too, conditional on the version read — a stale
      // one fails with 412 and the retry reads it afresh. Not every delete: concurrent deletes of
      // one department would all collide on it.
      const listed = dept?.value.manager?.employeeId === employeeId;
      if (dept && (listed || current.meta.isManager)) {
        const change = listed ? { manager: null } : {};
        plan.add(
          ['update', departmentMerge(department, change), 'Merge', { etag: dept.etag }],
          'department',
        );
      }
      // Always conditional on the index version the decision comes from (see
      // lastNameIndexRemoval). No entity: that was read from storage just now, after the employee
      // (absence is never cached), and only a write of this employee, which fails this
      // transaction's condition on its ETag, can list it since.
      const removal = index && lastNameIndexRemoval(partitionKey, index, [employeeId]);
      if (removal) plan.add(removal.action, 'lastNameIndex');
      if (options.receipt) plan.add(['upsert', options.receipt, 'Replace'], 'receipt');
      if (context.outbox) {
        plan.add(
          outboxAction(partitionKey, {
            employeeId,
            reason: options.reason ?? 'deleted',
            previous: { email: current.data.email, lastName: current.data.lastName },
          }),
          'outbox',
        );
      }
      // Unconditional: the employee's own delete, under its ETag, stands for its review list.
      for (const year of years) {
        plan.add(['delete', { partitionKey, rowKey: reviewRowKey(employeeId, year) }], 'review');
      }
      const submitted = await submitPlan(table, plan);
      if ('refused' in submitted) {
        forgetVersions(context, department, [lastName]);
        return explain(submitted.refused, plan);
      }
      const { etags } = submitted;
      const etagOf = (role: Role): string | undefined => etags[plan.roles.indexOf(role)];
      const departmentEtag = etagOf('department');
      if (dept && departmentEtag) {
        rememberDepartment(context, department, {
          value: {
            ...dept.value,
            employeeCount: Math.max(0, dept.value.employeeCount - 1),
            manager: listed ? null : dept.value.manager,
          },
          etag: departmentEtag,
        });
      }
      const countEtag = etagOf('count');
      if (count && countEtag) {
        rememberCountShard(context, department, count.shard, {
          value: count.version.value - 1,
          etag: countEtag,
        });
      }
      rememberIndexWrite(context, department, lastName, removal?.ids, etagOf('lastNameIndex'));
      return { deleted: true, employee: toEmployee(department, current.data) } as const;
    }),
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
