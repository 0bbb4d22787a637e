/**
 * Changing an employee: the employee entity, its email copy (moved when the email changes), the
 * last-name index entities (when the last name changes) and the department's manager copy (when
 * the manager's name or email changes) in ONE entity group transaction, with the index outbox row
 * when the directory keeps one (outbox.ts). A change of the photo alone (URL, photo properties)
 * keeps the employee's data version (`DataETag`, reviewYears.ts): a PATCH does not write it.
 * Every operation is conditional on the version its decision came from (the employee just read,
 * index entities and department perhaps cached), so a lost race or a stale cache costs a retry on
 * fresh data, never a wrong write; with `If-Match` the retry answers 412 unless only the
 * employee's review list changed.
 *
 * Why: docs/directory.md "Writes" (`If-Match`, version cache).
 */
import { randomUUID } from 'node:crypto';
import { departmentPartitionKey, emailRowKey } from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import type { EmployeeChange } from '../changes';
import { directoryRetry, type DirectoryContext } from '../context';
import { departmentMerge, type Department, type Manager } from '../entities/departmentEntity';
import { emailTaken, employeeNotFound, invalidPhotoUrl, staleVersion } from '../directoryErrors';
import {
  emailCopyEntity,
  employeeEntity,
  toEmployee,
  type Employee,
  type EmployeeData,
} from '../entities/employeeEntity';
import {
  currentEtag,
  ownCommit,
  readEmployeeState,
  versionMatches,
} from '../entities/employeeState';
import {
  lastNameIndexEntity,
  lastNameIndexRemoval,
  withIds,
} from '../entities/partitionLastNameIndex';
import { outboxAction } from '../entities/outbox';
import { forgetVersions, loadDepartment, rememberDepartment } from '../writes/departmentVersions';
import { loadLastNameIndex, rememberIndexWrite } from '../writes/lastNameVersions';
import {
  PlannedTransaction,
  replaceOrCreate,
  retryUnexplained,
  submitPlan,
} from '../writes/plannedTransaction';
import {
  RETRY,
  retryOptimistically,
  type OptimisticRetryOptions,
} from '../../storage/optimisticRetry';
import type { Versioned } from '../entities/versionCache';
import type { StoredProperties } from '../../storage/tables/entities';
import { employeePatchSchema, validateInput } from '../validation';
import { publishingIfUncertain } from '../writes/uncertainCommit';

/** Changes to apply; `null` clears an optional field. */
export interface EmployeeChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  age?: number | null;
  photoUrl?: string | null;
  /**
   * The photo feature's own properties beside the URL (src/photos: its blob name and checked
   * type), written over the stored ones in the same transaction; the directory does not read them.
   */
  photoProperties?: Readonly<Record<string, string>>;
}

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

type Role = 'employee' | 'oldEmail' | 'email' | 'oldIndex' | 'newIndex' | 'department' | 'outbox';

function applyChanges(current: EmployeeData, changes: EmployeeChanges): EmployeeData {
  const next: EmployeeData = {
    employeeId: current.employeeId,
    firstName: changes.firstName ?? current.firstName,
    lastName: changes.lastName ?? current.lastName,
    email: changes.email ?? current.email,
  };
  const age = changes.age === undefined ? current.age : changes.age;
  if (age !== null && age !== undefined) next.age = age;
  const photoUrl = changes.photoUrl === undefined ? current.photoUrl : changes.photoUrl;
  if (photoUrl !== null && photoUrl !== undefined) next.photoUrl = photoUrl;
  return next;
}

function managerOf(data: EmployeeData): Manager {
  return {
    employeeId: data.employeeId,
    firstName: data.firstName,
    lastName: data.lastName,
    email: data.email,
  };
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
  const partitionKey = departmentPartitionKey(department);
  const table = await context.table();
  const writeId = randomUUID();
  const photoOnly = Object.entries(changes).every(
    ([field, value]) => field === 'photoUrl' || field === 'photoProperties' || value === undefined,
  );
  const photoProperties = changes.photoProperties ?? {};
  let previous: EmployeeChange['previous'];
  let replaced: StoredProperties = {};
  // Set when the old email copy turned out to be missing (damaged data): do not delete it again.
  let missingCopyOf: string | undefined;

  const subject = `Employee ${employeeId}`;
  const updated = await retryOptimistically(
    { ...directoryRetry(context, subject), ...(options.giveUp ? { giveUp: options.giveUp } : {}) },
    async (attempt): Promise<Versioned<Employee> | typeof RETRY> => {
      const useCache = attempt === 1;
      const current = await readEmployeeState(table, partitionKey, employeeId);
      if (!current) throw employeeNotFound(department, employeeId);
      if (
        options.ifMatch !== undefined &&
        !(await versionMatches(table, current, options.ifMatch))
      ) {
        throw staleVersion(`Employee ${employeeId}`);
      }
      const next = applyChanges(current.data, changes);
      const emailChanged = emailRowKey(next.email) !== emailRowKey(current.data.email);
      const oldName = normalizeLastName(current.data.lastName);
      const newName = normalizeLastName(next.lastName);
      const nameChanged = oldName !== newName;
      const managerCopyChanged =
        current.meta.isManager &&
        (next.firstName !== current.data.firstName ||
          next.lastName !== current.data.lastName ||
          next.email !== current.data.email);

      const [dept, oldIndex, newIndex] = await Promise.all([
        managerCopyChanged ? loadDepartment(context, table, department, useCache) : undefined,
        nameChanged ? loadLastNameIndex(context, table, department, oldName, useCache) : undefined,
        nameChanged ? loadLastNameIndex(context, table, department, newName, useCache) : undefined,
      ]);

      const primary = employeeEntity(partitionKey, next, {
        isManager: current.meta.isManager,
        writeId,
        incarnation: current.meta.incarnation,
        reviewYears: current.meta.reviewYears,
        preserved: { ...current.meta.preserved, ...photoProperties },
        // A photo change is not a change of the data a PATCH writes: the data version stays.
        ...(photoOnly ? { dataEtag: current.meta.dataEtag ?? current.etag } : {}),
      });
      const plan = new PlannedTransaction<Role>().add(
        ['update', primary, 'Replace', { etag: current.etag }],
        'employee',
      );
      if (emailChanged) {
        if (missingCopyOf !== current.data.email) {
          plan.add(
            ['delete', { partitionKey, rowKey: emailRowKey(current.data.email) }],
            'oldEmail',
          );
        }
        plan.add(['create', emailCopyEntity(primary)], 'email');
      } else {
        plan.add(['upsert', emailCopyEntity(primary), 'Replace'], 'email');
      }

      let oldIds: string[] | undefined;
      let newIds: string[] | undefined;
      if (nameChanged) {
        // Conditional on the old name's index as read even when it does not list the employee (a
        // cached version may predate another process adding it): see lastNameIndexRemoval. No
        // entity was read from storage just now, after the employee, and only a write of this
        // employee (which fails this transaction's condition on its ETag) can list it since.
        if (oldIndex) {
          const removal = lastNameIndexRemoval(partitionKey, oldIndex, [employeeId]);
          oldIds = removal.ids;
          plan.add(removal.action, 'oldIndex');
        }
        newIds = withIds(newIndex?.value.ids ?? [], [employeeId]);
        const entity = lastNameIndexEntity(partitionKey, { lastName: newName, ids: newIds });
        plan.add(replaceOrCreate(entity, newIndex?.etag), 'newIndex');
      }
      let nextDepartment: Department | undefined;
      if (dept) {
        const isListedManager = dept.value.manager?.employeeId === employeeId;
        const manager = managerCopyChanged && isListedManager ? managerOf(next) : undefined;
        nextDepartment = manager ? { ...dept.value, manager } : dept.value;
        plan.add(
          ['update', departmentMerge(department, { manager }), 'Merge', { etag: dept.etag }],
          'department',
        );
      }

      replaced = Object.fromEntries(
        Object.keys(photoProperties).map((name) => [name, current.entity[name]]),
      );
      previous = {
        ...(emailChanged ? { email: current.data.email } : {}),
        ...(nameChanged ? { lastName: current.data.lastName } : {}),
      };
      if (context.outbox) {
        plan.add(
          outboxAction(partitionKey, {
            employeeId,
            reason: 'updated',
            current: { email: next.email, lastName: next.lastName },
            ...(Object.keys(previous).length > 0 ? { previous } : {}),
          }),
          'outbox',
        );
      }
      const outcome = await submitPlan(table, plan);
      if ('refused' in outcome) {
        const { refused: failure } = outcome;
        forgetVersions(context, department, nameChanged ? [oldName, newName] : []);
        switch (failure.role) {
          case 'employee': {
            const own = await ownCommit(table, department, employeeId, writeId);
            if (own) return own;
            // Changed after our read. The next attempt checks the caller's version again: a
            // review write changed only the review list, which the caller's ETag still covers.
            return RETRY;
          }
          case 'oldEmail':
            // The employee did not change (its operation came first and passed): the copy is
            // missing.
            missingCopyOf = current.data.email;
            return RETRY;
          case 'email':
            throw emailTaken(department, next.email);
          default:
            return retryUnexplained(failure, attempt);
        }
      }
      const { etags } = outcome;
      const etagOf = (role: Role): string | undefined => etags[plan.roles.indexOf(role)];
      if (dept && nextDepartment) {
        const etag = etagOf('department');
        if (etag) rememberDepartment(context, department, { value: nextDepartment, etag });
      }
      if (oldIds) rememberIndexWrite(context, department, oldName, oldIds, etagOf('oldIndex'));
      if (newIds) rememberIndexWrite(context, department, newName, newIds, etagOf('newIndex'));
      return {
        value: toEmployee(department, next),
        etag: etagOf('employee') ?? (await currentEtag(table, partitionKey, primary.rowKey)),
      };
    },
  );
  const change: EmployeeChange = { department, employeeId, reason: 'updated' };
  if (previous && Object.keys(previous).length > 0) change.previous = previous;
  return { updated, change, replaced };
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
