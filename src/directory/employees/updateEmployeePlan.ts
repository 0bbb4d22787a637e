/**
 * The transaction of {@link writeChanges} (updateEmployee.ts): what a change of an employee
 * rewrites beside the employee entity (its email copy, the last-name index entities, the
 * department's manager copy, the index outbox row), each operation with its role, and the
 * versions it leaves in the version cache once it committed. No storage call here: the attempt
 * that reads, decides and retries stays in updateEmployee.ts.
 */
import { emailRowKey } from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import type { EmployeeChange } from '../changes';
import type { DirectoryContext } from '../context';
import { departmentMerge, type Department, type Manager } from '../entities/departmentEntity';
import { emailCopyEntity, employeeEntity, type EmployeeData } from '../entities/employeeEntity';
import type { EmployeeState } from '../entities/employeeState';
import { outboxAction } from '../entities/outbox';
import {
  lastNameIndexEntity,
  lastNameIndexRemoval,
  withIds,
  type LastNameIndex,
} from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import { rememberDepartment } from '../writes/departmentVersions';
import { rememberIndexWrite } from '../writes/lastNameVersions';
import { PlannedTransaction, replaceOrCreate } from '../writes/plannedTransaction';

/** What each operation of a change's transaction stands for (a refusal is explained by it). */
export type Role =
  'employee' | 'oldEmail' | 'email' | 'oldIndex' | 'newIndex' | 'department' | 'outbox';

/** What a change touches beside the employee entity, decided from the employee as read. */
export interface ChangeScope {
  emailChanged: boolean;
  /** Normalised last names before and after. */
  oldName: string;
  newName: string;
  nameChanged: boolean;
  /** The employee is a manager whose name or email changes: the department's copy follows. */
  managerCopyChanged: boolean;
  /** The values the change replaced, as an `updated` change reports them. */
  previous: NonNullable<EmployeeChange['previous']>;
}

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

/** The employee data after `changes` (`null` clears an optional field). */
export function applyChanges(current: EmployeeData, changes: EmployeeChanges): EmployeeData {
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

/** What changes from `current` to `next`, beside the employee entity itself. */
export function changeScope(current: EmployeeState, next: EmployeeData): ChangeScope {
  const emailChanged = emailRowKey(next.email) !== emailRowKey(current.data.email);
  const oldName = normalizeLastName(current.data.lastName);
  const newName = normalizeLastName(next.lastName);
  const nameChanged = oldName !== newName;
  const managerCopyChanged =
    current.meta.isManager &&
    (next.firstName !== current.data.firstName ||
      next.lastName !== current.data.lastName ||
      next.email !== current.data.email);
  const previous = {
    ...(emailChanged ? { email: current.data.email } : {}),
    ...(nameChanged ? { lastName: current.data.lastName } : {}),
  };
  return { emailChanged, oldName, newName, nameChanged, managerCopyChanged, previous };
}

/** A change as this attempt decided it. */
export interface PlannedChange {
  department: string;
  partitionKey: string;
  current: EmployeeState;
  next: EmployeeData;
  scope: ChangeScope;
  writeId: string;
  /** The change is of the photo alone: the data version (`DataETag`) stays. */
  photoOnly: boolean;
  /** The photo feature's own properties, written over the stored ones. */
  photoProperties: Readonly<Record<string, string>>;
  /** Skip the old email copy's delete: a refused transaction showed it missing. */
  oldEmailMissing: boolean;
  /** Add the index outbox row (the directory keeps one). */
  outbox: boolean;
}

/** The versions the transaction is decided from (each maybe from the cache). */
export interface ChangeReads {
  dept: Versioned<Department> | undefined;
  oldIndex: Versioned<LastNameIndex> | undefined;
  newIndex: Versioned<LastNameIndex> | undefined;
}

/** The transaction, with what {@link rememberChange} needs once it committed. */
export interface ChangePlan {
  plan: PlannedTransaction<Role>;
  /** The ids the old and new names' index entities hold after the transaction. */
  oldIds?: string[];
  newIds?: string[];
  /** The department as the transaction leaves it (when it is part of it). */
  nextDepartment?: Department;
}

/**
 * The change's transaction: the employee under the ETag read, with every copy and index entry
 * that follows its data.
 */
export function changePlan(change: PlannedChange, reads: ChangeReads): ChangePlan {
  const { partitionKey, current, next, scope } = change;
  const primary = employeeEntity(partitionKey, next, {
    isManager: current.meta.isManager,
    writeId: change.writeId,
    incarnation: current.meta.incarnation,
    reviewYears: current.meta.reviewYears,
    preserved: { ...current.meta.preserved, ...change.photoProperties },
    // A photo change is not a change of the data a PATCH writes: the data version stays.
    ...(change.photoOnly ? { dataEtag: current.meta.dataEtag ?? current.etag } : {}),
  });
  const plan = new PlannedTransaction<Role>().add(
    ['update', primary, 'Replace', { etag: current.etag }],
    'employee',
  );
  if (scope.emailChanged) {
    if (!change.oldEmailMissing) {
      plan.add(['delete', { partitionKey, rowKey: emailRowKey(current.data.email) }], 'oldEmail');
    }
    plan.add(['create', emailCopyEntity(primary)], 'email');
  } else {
    plan.add(['upsert', emailCopyEntity(primary), 'Replace'], 'email');
  }
  const ids = scope.nameChanged ? planIndexMove(plan, change, reads) : {};
  const nextDepartment = reads.dept && planManagerCopy(plan, change, reads.dept);
  if (change.outbox) {
    const { previous } = scope;
    plan.add(
      outboxAction(partitionKey, {
        employeeId: next.employeeId,
        reason: 'updated',
        current: { email: next.email, lastName: next.lastName },
        ...(Object.keys(previous).length > 0 ? { previous } : {}),
      }),
      'outbox',
    );
  }
  return { plan, ...ids, ...(nextDepartment ? { nextDepartment } : {}) };
}

/**
 * The employee's id moved from the old name's index entity to the new one's. Conditional on the
 * old name's index as read even when it does not list the employee (a cached version may predate
 * another process adding it): see lastNameIndexRemoval. No entity was read from storage just now,
 * after the employee, and only a write of this employee (which fails this transaction's condition
 * on its ETag) can list it since.
 */
function planIndexMove(
  plan: PlannedTransaction<Role>,
  { partitionKey, next, scope }: PlannedChange,
  { oldIndex, newIndex }: ChangeReads,
): { oldIds?: string[]; newIds: string[] } {
  let oldIds: string[] | undefined;
  if (oldIndex) {
    const removal = lastNameIndexRemoval(partitionKey, oldIndex, [next.employeeId]);
    oldIds = removal.ids;
    plan.add(removal.action, 'oldIndex');
  }
  const newIds = withIds(newIndex?.value.ids ?? [], [next.employeeId]);
  const entity = lastNameIndexEntity(partitionKey, { lastName: scope.newName, ids: newIds });
  plan.add(replaceOrCreate(entity, newIndex?.etag), 'newIndex');
  return { ...(oldIds ? { oldIds } : {}), newIds };
}

/**
 * The department, conditional on the version read: its manager copy rewritten when it lists this
 * employee, else only checked (a Merge of nothing). Returns the department as left.
 */
function planManagerCopy(
  plan: PlannedTransaction<Role>,
  { department, next, scope }: PlannedChange,
  dept: Versioned<Department>,
): Department {
  const isListedManager = dept.value.manager?.employeeId === next.employeeId;
  const manager = scope.managerCopyChanged && isListedManager ? managerOf(next) : undefined;
  plan.add(
    ['update', departmentMerge(department, { manager }), 'Merge', { etag: dept.etag }],
    'department',
  );
  return manager ? { ...dept.value, manager } : dept.value;
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
 * Remembers the versions the committed transaction gave (`etags`, by operation).
 *
 * @returns the employee entity's new ETag (`undefined` when the answer did not carry it).
 */
export function rememberChange(
  context: DirectoryContext,
  { department, scope }: PlannedChange,
  { plan, oldIds, newIds, nextDepartment }: ChangePlan,
  etags: readonly (string | undefined)[],
): string | undefined {
  const etagOf = (role: Role): string | undefined => etags[plan.roles.indexOf(role)];
  const departmentEtag = etagOf('department');
  if (nextDepartment && departmentEtag) {
    rememberDepartment(context, department, { value: nextDepartment, etag: departmentEtag });
  }
  if (oldIds) rememberIndexWrite(context, department, scope.oldName, oldIds, etagOf('oldIndex'));
  if (newIds) rememberIndexWrite(context, department, scope.newName, newIds, etagOf('newIndex'));
  return etagOf('employee');
}
