/**
 * Creating one employee: one entity group transaction in the department's partition (see
 * insertEmployee.ts), then a `created` change for the asynchronous indexes.
 */
import { randomUUID } from 'node:crypto';
import type { DirectoryContext } from '../context';
import { newIncarnation, type Employee } from '../entities/employeeEntity';
import { insertEmployee } from './insertEmployee';
import { newEmployeeSchema, validateInput } from '../validation';
import type { Versioned } from '../entities/versionCache';

/**
 * Creates an employee and publishes a `created` change.
 *
 * @param input - `{employeeId, firstName, lastName, email, age?}` (validated here).
 * @returns the employee and the new ETag of its entity.
 * @throws {ValidationError} for invalid input or department name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken`, `LastNameIndexFull`.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
export async function createEmployee(
  context: DirectoryContext,
  department: string,
  input: unknown,
): Promise<Versioned<Employee>> {
  const data = validateInput(newEmployeeSchema, input, 'body');
  const { value, etag } = await insertEmployee(context, department, data, {
    writeId: randomUUID(),
    incarnation: newIncarnation(),
  });
  await context.changes.publish([{ department, employeeId: data.employeeId, reason: 'created' }]);
  return { value, etag };
}
