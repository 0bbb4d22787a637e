/**
 * Changing an employee: the employee entity, its email copy (moved when the email changes), the
 * last-name index entities (when the last name changes) and the department's manager copy (when
 * the manager's name or email changes) in ONE entity group transaction, with the index outbox row
 * when the directory keeps one (outbox.ts). A change of the photo alone (URL, photo properties)
 * keeps the employee's data version (`DataETag`, reviewYears.ts): a PATCH does not write it.
 * Every operation is conditional on the version its decision came from (the employee just read,
 * index entities and department perhaps cached), so a lost race or a stale cache costs a retry on
 * fresh data, never a wrong write; with `If-Match` the retry answers 412 unless only the
 * employee's review list changed. The transaction itself is planned in updateEmployeePlan.ts.
 *
 * Why: docs/directory.md "Writes" (`If-Match`, version cache).
 */
import { randomUUID } from 'node:crypto';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import type { EmployeeChange } from '../changes';
import { directoryRetry, type DirectoryContext, type EmployeeCall } from '../context';
import { emailTaken, employeeNotFound, invalidPhotoUrl, staleVersion } from '../directoryErrors';
import { toEmployee, type Employee } from '../entities/employeeEntity';
import {
  currentEtag,
  ownCommit,
  readEmployeeState,
  versionMatches,
  type EmployeeState,
} from '../entities/employeeState';
import { forgetVersions, loadDepartment } from '../writes/departmentVersions';
import { loadLastNameIndex } from '../writes/lastNameVersions';
import { retryUnexplained, submitPlan } from '../writes/plannedTransaction';
import {
  RETRY,
  retryOptimistically,
  type OptimisticRetryOptions,
  type Retry,
} from '../../storage/optimisticRetry';
import type { Versioned } from '../entities/versionCache';
import type { StoredProperties } from '../../storage/tables/entities';
import { employeePatchSchema, validateInput } from '../validation';
import { publishingIfUncertain } from '../writes/uncertainCommit';
import {
  applyChanges,
  changePlan,
  changeScope,
  rememberChange,
  type EmployeeChanges,
  type PlannedChange,
} from './updateEmployeePlan';

export type { EmployeeChanges } from './updateEmployeePlan';

/** How {@link writeChanges} writes: `ifMatch` as in {@link updateEmployee}. */
export interface WriteOptions {
  ifMatch?: string;
  /** The error when the employee kept changing (default: the directory's `contendedError`). */
  giveUp?: OptimisticRetryOptions['giveUp'];
}

/** A photo named (or with `photoUrl: null` removed) in one write: see {@link writeChanges}. */
export type PhotoChanges = Required<Pick<EmployeeChanges, 'photoUrl' | 'photoProperties'>>;

/** What {@link writeChanges} committed, and the change its caller publishes. */
export interface WrittenChanges {
  updated: Versioned<Employee>;
  change: EmployeeChange;
  /** The values the write replaced of the {@link EmployeeChanges.photoProperties} it wrote. */
  replaced: StoredProperties;
}

/** One {@link writeChanges} call: what it was asked, and what its attempts learnt so far. */
interface ChangeCall extends EmployeeCall {
  changes: EmployeeChanges;
  options: WriteOptions;
  /** Marks this call's write, to recognise its own commit whose answer was lost. */
  writeId: string;
  /** The change is of the photo alone (URL, photo properties). */
  photoOnly: boolean;
  /** Set by each attempt: the one that committed leaves its own. */
  previous?: EmployeeChange['previous'];
  replaced: StoredProperties;
  /** Set when the old email copy turned out missing (damaged data): do not delete it again. */
  missingCopyOf?: string;
}

/**
 * Applies already validated changes to an employee and publishes an `updated` change (with the
 * previous email and last name when they changed).
 *
 * @returns the employee and the new ETag of its entity.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {PreconditionFailedError} when `ifMatch` is not the current version.
 * @throws {ConflictError} `EmailTaken`, `LastNameIndexFull`.
 * @throws {ThrottledError} when the employee kept changing concurrently, or storage is busy.
 */
export async function updateEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  changes: EmployeeChanges,
  options: { ifMatch?: string } = {},
): Promise<Versioned<Employee>> {
  const { updated, change } = await publishingIfUncertain(
    context,
    { department, employeeId, reason: 'updated' },
    () => writeChanges(context, department, employeeId, changes, options),
  );
  await context.changes.publish([change]);
  return updated;
}

/**
 * {@link updateEmployee} without the publishing: its callers publish the change it returns (one
 * call less between a handler and the cover message). The photo feature names a photo through it
 * (`EmployeeService.writePhoto`): URL and photo properties in the employee's one transaction.
 *
 * @throws {ValidationError} for a photo URL that is not absolute http(s) or is over 2,048
 *   characters. See {@link updateEmployee} for the rest.
 */
export async function writeChanges(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  changes: EmployeeChanges,
  options: WriteOptions = {},
): Promise<WrittenChanges> {
  const { photoUrl } = changes;
  if (photoUrl != null && (photoUrl.length > 2048 || !/^https?:\/\/[^\s]+$/.test(photoUrl))) {
    throw invalidPhotoUrl();
  }
  const call: ChangeCall = {
    context,
    table: await context.table(),
    department,
    employeeId,
    partitionKey: departmentPartitionKey(department),
    changes,
    options,
    writeId: randomUUID(),
    photoOnly: Object.entries(changes).every(
      ([field, value]) =>
        field === 'photoUrl' || field === 'photoProperties' || value === undefined,
    ),
    replaced: {},
  };
  const subject = `Employee ${employeeId}`;
  const updated = await retryOptimistically(
    { ...directoryRetry(context, subject), ...(options.giveUp ? { giveUp: options.giveUp } : {}) },
    (attempt) => changeAttempt(call, attempt),
  );
  const change: EmployeeChange = { department, employeeId, reason: 'updated' };
  const { previous } = call;
  if (previous && Object.keys(previous).length > 0) change.previous = previous;
  return { updated, change, replaced: call.replaced };
}

/**
 * One attempt: read the employee, check the caller's version, decide the transaction from the
 * versions known (cached ones on the first attempt only), send it, and explain a refusal.
 */
async function changeAttempt(
  call: ChangeCall,
  attempt: number,
): Promise<Versioned<Employee> | Retry> {
  const { context, table, department, employeeId, partitionKey, options } = call;
  const useCache = attempt === 1;
  const current = await readEmployeeState(table, partitionKey, employeeId);
  if (!current) throw employeeNotFound(department, employeeId);
  if (options.ifMatch !== undefined && !(await versionMatches(table, current, options.ifMatch))) {
    throw staleVersion(`Employee ${employeeId}`);
  }
  const planned = plannedChange(call, current);
  const { next, scope } = planned;
  const { oldName, newName, nameChanged } = scope;
  const [dept, oldIndex, newIndex] = await Promise.all([
    scope.managerCopyChanged ? loadDepartment(context, table, department, useCache) : undefined,
    nameChanged ? loadLastNameIndex(context, table, department, oldName, useCache) : undefined,
    nameChanged ? loadLastNameIndex(context, table, department, newName, useCache) : undefined,
  ]);
  const change = changePlan(planned, { dept, oldIndex, newIndex });
  call.replaced = Object.fromEntries(
    Object.keys(planned.photoProperties).map((name) => [name, current.entity[name]]),
  );
  call.previous = scope.previous;
  const outcome = await submitPlan(table, change.plan);
  if ('refused' in outcome) {
    const { refused: failure } = outcome;
    forgetVersions(context, department, nameChanged ? [oldName, newName] : []);
    switch (failure.role) {
      case 'employee': {
        const own = await ownCommit(table, department, employeeId, call.writeId);
        if (own) return own;
        // Changed after our read. The next attempt checks the caller's version again: a
        // review write changed only the review list, which the caller's ETag still covers.
        return RETRY;
      }
      case 'oldEmail':
        // The employee did not change (its operation came first and passed): the copy is
        // missing.
        call.missingCopyOf = current.data.email;
        return RETRY;
      case 'email':
        throw emailTaken(department, next.email);
      default:
        return retryUnexplained(failure, attempt);
    }
  }
  const etag = rememberChange(context, planned, change, outcome.etags);
  return {
    value: toEmployee(department, next),
    etag: etag ?? (await currentEtag(table, partitionKey, current.entity.rowKey)),
  };
}

/** The change as an attempt decides it from the employee just read. */
function plannedChange(call: ChangeCall, current: EmployeeState): PlannedChange {
  const next = applyChanges(current.data, call.changes);
  return {
    department: call.department,
    partitionKey: call.partitionKey,
    current,
    next,
    scope: changeScope(current, next),
    writeId: call.writeId,
    photoProperties: call.changes.photoProperties ?? {},
    photoOnly: call.photoOnly,
    oldEmailMissing: call.missingCopyOf === current.data.email,
    outbox: call.context.outbox,
  };
}

/**
 * Applies a PATCH body (`firstName`, `lastName`, `email`, `age`; `age: null` clears it): validates
 * it, then {@link updateEmployee}.
 *
 * @throws {ValidationError} for an invalid body. See {@link updateEmployee} for the rest.
 */
export async function patchEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  body: unknown,
  options: { ifMatch?: string } = {},
): Promise<Versioned<Employee>> {
  const patch = validateInput(employeePatchSchema, body, 'body');
  const { updated, change } = await publishingIfUncertain(
    context,
    { department, employeeId, reason: 'updated' },
    () => writeChanges(context, department, employeeId, patch, options),
  );
  await context.changes.publish([change]);
  return updated;
}
