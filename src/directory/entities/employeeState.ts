/**
 * Reading one stored employee for a write: its data, bookkeeping and ETag, and checking a
 * caller's `If-Match` against it.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { normalizeLastName } from '../../storage/keys/text';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
} from '../../storage/keys/tables/employees';
import {
  readEmployeeData,
  readEmployeeMeta,
  toEmployee,
  type EmployeeData,
  type StoredEmployeeMeta,
} from './employeeEntity';
import { EntityTypes, isEntityOfType } from './entityTypes';
import type { Versioned } from './versionCache';
import type { Employee } from './employeeEntity';
import { type StoredEntity, readEntity } from '../../storage/tables/entities';
import { vanishedAfterWrite } from '../directoryErrors';

/** A stored primary employee entity, decoded. */
export interface EmployeeState {
  entity: StoredEntity;
  data: EmployeeData;
  meta: StoredEmployeeMeta;
  etag: string;
}

/**
 * The primary employee entity, or `undefined` when there is none (or it is of a type this
 * version does not know).
 *
 * @throws {DomainError} for storage faults.
 */
export async function readEmployeeState(
  table: TableAccess,
  partitionKey: string,
  employeeId: string,
): Promise<EmployeeState | undefined> {
  const entity = await readEntity(table, partitionKey, employeeRowKey(employeeId));
  return entity && employeeStateOf(entity);
}

/**
 * The employee's current last name, normalised as index keys hold it; `undefined` when the
 * employee is gone (what the org-wide index's audit and its migration check a member against).
 *
 * @throws {DomainError} for storage faults.
 */
export async function currentLastName(
  table: TableAccess,
  department: string,
  employeeId: string,
): Promise<string | undefined> {
  const state = await readEmployeeState(table, departmentPartitionKey(department), employeeId);
  return state && normalizeLastName(state.data.lastName);
}

/** Decodes a primary employee entity already read; `undefined` for any other entity. */
export function employeeStateOf(entity: StoredEntity): EmployeeState | undefined {
  if (!isEntityOfType(entity, EntityTypes.employee)) return undefined;
  const data = readEmployeeData(entity);
  return data ? { entity, data, meta: readEmployeeMeta(entity), etag: entity.etag } : undefined;
}

/**
 * True when `ifMatch` names the current version of the employee's data: the ETag of the primary
 * entity (from `GET .../employees/{id}`), the primary's ETag before review writes that changed
 * only its review years since (`DataETag`), or the ETag of its email copy (from
 * `GET .../by-email/{email}`). Every data write rewrites the primary and the copy in one
 * transaction and drops `DataETag`, so each of these is current exactly when the data the caller
 * saw is.
 *
 * @throws {DomainError} for storage faults.
 */
export async function versionMatches(
  table: TableAccess,
  state: EmployeeState,
  ifMatch: string,
): Promise<boolean> {
  if (ifMatch === state.etag || ifMatch === state.meta.dataEtag) return true;
  const copy = await readEntity(table, state.entity.partitionKey, emailRowKey(state.data.email), [
    'EmployeeId',
  ]);
  return copy !== undefined && copy.etag === ifMatch && copy.EmployeeId === state.data.employeeId;
}

/**
 * After a transaction failed on the employee operation: the employee as written by *this* write
 * if it did commit (an earlier try whose answer was lost, retried by the SDK), else `undefined`.
 *
 * @throws {DomainError} for storage faults.
 */
export async function ownCommit(
  table: TableAccess,
  department: string,
  employeeId: string,
  writeId: string,
): Promise<Versioned<Employee> | undefined> {
  const entity = await readEntity(
    table,
    departmentPartitionKey(department),
    employeeRowKey(employeeId),
  );
  const state = entity && employeeStateOf(entity);
  return state && state.meta.writeId === writeId
    ? { value: toEmployee(department, state.data), etag: state.etag }
    : undefined;
}

/**
 * The current ETag of an entity, for the rare transaction answer that lacks one.
 *
 * @throws {DomainError} for storage faults; a plain Error if the entity vanished meanwhile.
 */
export async function currentEtag(
  table: TableAccess,
  partitionKey: string,
  rowKey: string,
): Promise<string> {
  const entity = await readEntity(table, partitionKey, rowKey, ['RowKey']);
  if (!entity) throw vanishedAfterWrite(rowKey);
  return entity.etag;
}
