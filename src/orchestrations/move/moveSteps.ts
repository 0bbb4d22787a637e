/**
 * Steps 1 and 4 of a move: check that it can happen (read-only), and remove the employee from
 * the source once the target holds it.
 */
import type { DirectoryContext } from '../../directory/context';
import { deleteEmployee } from '../../directory/deleteEmployee';
import {
  departmentNotFound,
  emailTaken,
  employeeExists,
  employeeNotFound,
} from '../../directory/directoryErrors';
import { readEmployeeState } from '../../directory/employeeState';
import { loadDepartment, readEntity } from '../../directory/state';
import { ValidationError } from '../../errors';
import { departmentPartitionKey, emailRowKey } from '../../storage/keys';
import { moveWriteId, type MovedEmployee, type MoveInput } from './moveRequest';

/** What the validation found. */
export type MovePlan =
  | { state: 'ready'; employee: MovedEmployee }
  /** The source no longer has the employee and the target does: an earlier run moved it. */
  | { state: 'alreadyMoved' };

/**
 * Checks a move before anything is written: the source has the employee, the target department
 * exists, and neither the id nor the email is taken in the target (except by this very move's
 * copy, from an earlier try).
 *
 * @throws {ValidationError} `SameDepartment` when source and target are one department.
 * @throws {NotFoundError} `EmployeeNotFound`, `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target.
 * @throws {DomainError} for storage faults.
 */
export async function validateMove(context: DirectoryContext, move: MoveInput): Promise<MovePlan> {
  if (move.department === move.toDepartment) {
    throw new ValidationError(
      `Employee ${move.employeeId} is already in department "${move.department}".`,
      'body.toDepartment',
      'SameDepartment',
    );
  }
  const table = await context.table();
  const targetPk = departmentPartitionKey(move.toDepartment);
  const [source, targetDepartment, target] = await Promise.all([
    readEmployeeState(table, departmentPartitionKey(move.department), move.employeeId),
    loadDepartment(context, move.toDepartment, false),
    readEmployeeState(table, targetPk, move.employeeId),
  ]);
  if (!targetDepartment) throw departmentNotFound(move.toDepartment);
  if (!source) {
    if (target) return { state: 'alreadyMoved' };
    throw employeeNotFound(move.department, move.employeeId);
  }
  if (target && target.meta.writeId !== moveWriteId(move.moveId)) {
    throw employeeExists(move.toDepartment, move.employeeId);
  }
  const emailCopy = await readEntity(table, targetPk, emailRowKey(source.data.email), [
    'EmployeeId',
  ]);
  if (emailCopy && emailCopy.EmployeeId !== move.employeeId) {
    throw emailTaken(move.toDepartment, source.data.email);
  }
  return { state: 'ready', employee: { email: source.data.email, lastName: source.data.lastName } };
}

/**
 * Removes the employee from the source department (employee, email copy, count, last-name index
 * entry in one transaction, then its reviews) — only once the target holds an employee with the
 * id, so a mistaken call can never lose it. Deleting what is already gone is not an error.
 *
 * @returns whether this call deleted it.
 * @throws {NotFoundError} `EmployeeNotFound` when the target does not hold the employee.
 * @throws {ThrottledError} when the source department kept changing, or storage is busy.
 */
export async function removeFromSource(
  context: DirectoryContext,
  move: MoveInput,
): Promise<{ removed: boolean }> {
  const table = await context.table();
  const target = await readEmployeeState(
    table,
    departmentPartitionKey(move.toDepartment),
    move.employeeId,
  );
  if (!target) throw employeeNotFound(move.toDepartment, move.employeeId);
  const { deleted } = await deleteEmployee(context, move.department, move.employeeId, {
    mustExist: false,
  });
  return { removed: deleted };
}
