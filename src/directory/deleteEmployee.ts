/**
 * Removing an employee: the employee entity, its email copy, the department's count (and manager
 * copy, if it was the manager) and its id in the last-name index entity, in ONE entity group
 * transaction. With `mustExist: false` an absent employee is not an error (delete-if-exists), so
 * queue workers (archive, move) can run it again safely; such a run still purges reviews left by
 * an earlier run that committed and then failed before its purge.
 *
 * Every delete in that transaction carries the ETag this call read (the employee's, the index
 * entity's, and each review's as the caller copied it; storage/entityGroupTransaction.ts puts it on
 * the wire), so a change committed after the read — even of only a first name — fails the whole
 * transaction with 412 instead of being deleted unseen. With `If-Match` that is answered 412; without
 * it the delete re-reads and deletes the newer version (last writer wins).
 */
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
  lastNameRowKey,
  normalizeLastName,
} from '../storage/keys';
import type { DirectoryContext } from './context';
import { departmentMerge } from './departmentEntity';
import { employeeNotFound, staleVersion } from './directoryErrors';
import { toEmployee, type Employee } from './employeeEntity';
import { readEmployeeState, versionMatches } from './employeeState';
import { lastNameIndexEntity, withoutIds } from './lastNameIndex';
import { RETRY, retryOnConflict } from './retry';
import { purgeReviews } from './reviews';
import {
  contendedError,
  forgetVersions,
  loadDepartment,
  loadLastNameIndex,
  rememberDepartment,
  rememberLastNameIndex,
} from './state';
import {
  PlannedTransaction,
  retryUnexplained,
  submitPlanned,
  TransactionFailure,
} from './transaction';

/** Options of {@link deleteEmployee}. */
export interface DeleteEmployeeOptions {
  /** Delete only if this is the current version (ETag of the employee or of its email copy). */
  ifMatch?: string;
  /** Throw `EmployeeNotFound` when there is nothing to delete (default true). */
  mustExist?: boolean;
  /**
   * Keep the employee's yearly reviews (default false: they are removed after the employee, and
   * also when the employee is already gone, so a replay finishes an interrupted purge).
   */
  keepReviews?: boolean;
  /** Reason published with the change (default `deleted`; the archive worker says `archived`). */
  reason?: 'deleted' | 'archived' | 'moved';
  /**
   * The employee's reviews the caller has already copied (archive, move), at the versions it
   * copied: deleted in the employee's own transaction under those ETags when they fit, instead of
   * by a list-and-purge afterwards. A review written after the caller listed them is then left in
   * place rather than deleted unseen; one rewritten since fails the delete as a stale `ifMatch`
   * does.
   */
  reviews?: readonly ReviewVersion[];
  /**
   * False when the caller's own queue message is a durable record of this delete that re-runs it
   * and re-publishes the change if the process dies after the commit (the archive worker), so the
   * pre-write index announcement (src/indexing/announcingEmployees.ts) would add nothing.
   */
  announce?: boolean;
}

/** A stored review's row key and the ETag of the version a caller holds. */
export interface ReviewVersion {
  rowKey: string;
  etag: string;
}

type Role = 'employee' | 'email' | 'department' | 'lastNameIndex' | 'review';

/** Operations of one entity group transaction. */
const MAX_TRANSACTION_OPERATIONS = 100;

/**
 * Deletes an employee with every same-partition copy and index entry, then publishes a `deleted`
 * change carrying the old email and last name.
 *
 * @returns whether something was deleted, and what.
 * @throws {NotFoundError} `EmployeeNotFound` when absent and `mustExist` is not false.
 * @throws {PreconditionFailedError} when `ifMatch` is not the current version (also when the
 *   employee changes between this call's read and its transaction), or when one of `reviews`
 *   changed since the caller read it.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
export async function deleteEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  options: DeleteEmployeeOptions = {},
): Promise<{ deleted: boolean; employee?: Employee }> {
  const partitionKey = departmentPartitionKey(department);
  employeeRowKey(employeeId);
  const table = await context.table();
  let missingCopyOf: string | undefined;
  // The employee this call last saw, if a transaction then found it already gone: either an
  // earlier try of our own transaction committed (its answer was lost) or someone else deleted
  // it; both leave it deleted, which is what the caller asked for.
  let vanished: Employee | undefined;
  // Reviews deleted in the transaction; dropped (back to the purge) if one of them is gone.
  let knownReviews = options.keepReviews ? undefined : options.reviews;
  let reviewsInTransaction = false;

  const outcome = await retryOnConflict(
    context.maxConflictAttempts,
    async (attempt) => {
      if (vanished) return { deleted: true, employee: vanished } as const;
      const useCache = attempt === 1;
      const current = await readEmployeeState(table, partitionKey, employeeId);
      if (!current) {
        if (options.mustExist === false) return { deleted: false } as const;
        throw employeeNotFound(department, employeeId);
      }
      if (
        options.ifMatch !== undefined &&
        !(await versionMatches(table, current, options.ifMatch))
      ) {
        throw staleVersion(`Employee ${employeeId}`);
      }
      const lastName = normalizeLastName(current.data.lastName);
      const [dept, index] = await Promise.all([
        loadDepartment(context, department, useCache),
        loadLastNameIndex(context, department, lastName, useCache),
      ]);

      const plan = new PlannedTransaction<Role>().add(
        ['delete', { partitionKey, rowKey: current.entity.rowKey }, { etag: current.etag }],
        'employee',
      );
      if (missingCopyOf !== current.data.email) {
        plan.add(['delete', { partitionKey, rowKey: emailRowKey(current.data.email) }], 'email');
      }
      const employeeCount = dept ? Math.max(0, dept.value.employeeCount - 1) : 0;
      const wasManager = dept?.value.manager?.employeeId === employeeId;
      if (dept) {
        plan.add(
          [
            'update',
            departmentMerge(department, {
              employeeCount,
              ...(wasManager ? { manager: null } : {}),
            }),
            'Merge',
            { etag: dept.etag },
          ],
          'department',
        );
      }
      let ids: string[] | undefined;
      if (index && index.value.ids.includes(employeeId)) {
        ids = withoutIds(index.value.ids, [employeeId]);
        plan.add(
          ids.length === 0
            ? ['delete', { partitionKey, rowKey: lastNameRowKey(lastName) }, { etag: index.etag }]
            : [
                'update',
                lastNameIndexEntity(partitionKey, { lastName, ids }),
                'Replace',
                { etag: index.etag },
              ],
          'lastNameIndex',
        );
      }
      reviewsInTransaction =
        knownReviews !== undefined &&
        plan.roles.length + knownReviews.length <= MAX_TRANSACTION_OPERATIONS;
      if (reviewsInTransaction) {
        for (const { rowKey, etag } of knownReviews ?? []) {
          plan.add(['delete', { partitionKey, rowKey }, { etag }], 'review');
        }
      }
      try {
        const etags = await submitPlanned(table, plan);
        const etagOf = (role: Role): string | undefined => etags[plan.roles.indexOf(role)];
        const departmentEtag = etagOf('department');
        if (dept && departmentEtag) {
          rememberDepartment(context, department, {
            value: {
              ...dept.value,
              employeeCount,
              manager: wasManager ? null : dept.value.manager,
            },
            etag: departmentEtag,
          });
        }
        const indexEtag = etagOf('lastNameIndex');
        rememberLastNameIndex(
          context,
          department,
          ids && indexEtag ? { value: { lastName, ids }, etag: indexEtag } : undefined,
          lastName,
        );
        return { deleted: true, employee: toEmployee(department, current.data) } as const;
      } catch (error) {
        if (!(error instanceof TransactionFailure)) throw error;
        forgetVersions(context, department, [lastName]);
        if (error.role === 'employee' && error.status === 404) {
          vanished = toEmployee(department, current.data);
          return RETRY;
        }
        if (error.role === 'employee' && error.status === 412) {
          // Changed after our read: a caller's version is stale; otherwise delete the new one.
          if (options.ifMatch !== undefined) throw staleVersion(`Employee ${employeeId}`);
          return RETRY;
        }
        if (error.role === 'review' && error.status === 412) {
          throw staleVersion(`A review of employee ${employeeId}`);
        }
        if (error.role === 'review') {
          // Deleted meanwhile: let the purge find whatever is left.
          knownReviews = undefined;
          return RETRY;
        }
        if (error.role === 'email') {
          // The employee operation came first and passed: the copy itself is missing.
          missingCopyOf = current.data.email;
          return RETRY;
        }
        return retryUnexplained(error, attempt);
      }
    },
    () => contendedError(`Department "${department}"`),
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
    if (!options.keepReviews && !reviewsInTransaction) {
      await purgeReviews(table, partitionKey, employeeId);
    }
  } else if (!outcome.deleted && !options.keepReviews) {
    // Nothing to delete, yet reviews may be left: an earlier run committed the delete and then
    // failed (its publish, or the process) before its purge. A replay is the only run that can
    // still remove them; left, they would be shown to a later employee given the same id.
    await purgeReviews(table, partitionKey, employeeId);
  }
  return outcome;
}
