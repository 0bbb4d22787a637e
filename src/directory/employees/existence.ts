/**
 * Whether a department or an employee exists, for reads that found nothing: a list of an unknown
 * department or a record list of an unknown employee answers 404, like a write to it, rather than
 * an empty page. A read that found something needs no check (the directory's own lists are proof
 * enough), so the check costs one projected point read, and only when the answer would be empty.
 */
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
  employeeRowKey,
} from '../../storage/keys/tables/employees';
import { readEntity } from '../../storage/tables/entities';
import type { DirectoryContext } from '../context';
import { departmentNotFound, employeeNotFound } from '../directoryErrors';
import {
  ENTITY_TYPE_PROPERTY,
  EntityTypes,
  isEntityOfType,
  type EntityTypeName,
} from '../entities/entityTypes';

/**
 * Returns when the employee exists, else throws `EmployeeNotFound`: what services of records kept
 * per employee outside the directory (expenses, message counts, access events) are given, to tell
 * an unknown employee from one with no records.
 */
export type EmployeeCheck = (department: string, employeeId: string) => Promise<void>;

async function exists(
  context: DirectoryContext,
  partitionKey: string,
  rowKey: string,
  type: EntityTypeName,
): Promise<boolean> {
  const entity = await readEntity(await context.table(), partitionKey, rowKey, [
    'RowKey',
    ENTITY_TYPE_PROPERTY,
  ]);
  return entity !== undefined && isEntityOfType(entity, type);
}

/**
 * Returns when the department exists: one projected point read of its entity.
 *
 * @throws {ValidationError} for an invalid name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {DomainError} for storage faults.
 */
export async function requireDepartment(context: DirectoryContext, name: string): Promise<void> {
  const partitionKey = departmentPartitionKey(name);
  if (!(await exists(context, partitionKey, DEPARTMENT_ROW_KEY, EntityTypes.department))) {
    throw departmentNotFound(name);
  }
}

/**
 * Returns when the employee exists in the department: one projected point read of its entity.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {DomainError} for storage faults.
 */
export async function requireEmployee(
  context: DirectoryContext,
  department: string,
  employeeId: string,
): Promise<void> {
  const keys = [departmentPartitionKey(department), employeeRowKey(employeeId)] as const;
  if (!(await exists(context, ...keys, EntityTypes.employee))) {
    throw employeeNotFound(department, employeeId);
  }
}
