/**
 * Steps 1 and 4 of a move: check that it can happen (read-only), and remove the employee from
 * the source once the target holds it.
 */
import {
  departmentNotFound,
  employeeNotFound,
  loadDepartment,
  type DirectoryContext,
} from '../../directory';
import { sameDepartment } from './moveErrors';
import { departmentPartitionKey, emailRowKey } from '../../storage/keys/tables/employees';
import { PreconditionFailedError } from '../../domainErrors';
import type { CopyResult } from './copyToTarget';
import {
  isCopyOfThisMove,
  isMovedIncarnation,
  type MovedEmployee,
  type MoveInput,
} from './moveRequest';
import { deleteEmployee, emailTaken, employeeExists } from '../../directory/moveWrites';
import { incarnationOf, readEmployeeState } from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';

/** What the validation found. */
export type MovePlan =
  | { state: 'ready'; employee: MovedEmployee; incarnation: string }
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
    throw sameDepartment(move);
  }
  const table = await context.table();
  const targetPk = departmentPartitionKey(move.toDepartment);
  const [source, targetDepartment, target] = await Promise.all([
    readEmployeeState(table, departmentPartitionKey(move.department), move.employeeId),
    loadDepartment(context, table, move.toDepartment, false),
    readEmployeeState(table, targetPk, move.employeeId),
  ]);
  if (!targetDepartment) throw departmentNotFound(move.toDepartment);
  if (!source) {
    if (target) return { state: 'alreadyMoved' };
    throw employeeNotFound(move.department, move.employeeId);
  }
  if (target && !isCopyOfThisMove(target, move.moveId)) {
    throw employeeExists(move.toDepartment, move.employeeId);
  }
  const emailCopy = await readEntity(table, targetPk, emailRowKey(source.data.email), [
    'EmployeeId',
  ]);
  if (emailCopy && emailCopy.EmployeeId !== move.employeeId) {
    throw emailTaken(move.toDepartment, source.data.email);
  }
  return {
    state: 'ready',
    employee: { email: source.data.email, lastName: source.data.lastName },
    incarnation: incarnationOf(source.entity),
  };
}

/** Input of the removal: the move, and what its copy step copied. */
export interface RemoveInput extends MoveInput {
  copied: Pick<CopyResult, 'sourceEtag' | 'copiedReviews'>;
}

/** What the removal did. */
export type RemoveResult =
  | { removed: boolean }
  /** The source changed after the copy (employee or reviews): nothing removed, copy again. */
  | { removed: false; sourceChanged: true };

/**
 * Removes the employee from the source department (employee, email copy, count, last-name index
 * entry and the reviews it lists, see directory/employees/deleteEmployee.ts) — only if the source
 * entity is still exactly the version the copy step copied (every review write changes it too), and
 * only once the target holds an employee with the id, so neither a mistaken call nor an edit made
 * during the move can be lost. Deleting what is already gone is not an error.
 *
 * @returns whether this call deleted it, or `sourceChanged` when the employee or one of its reviews
 *   changed after the copy (the orchestrator copies again, then removes again).
 * @throws {NotFoundError} `EmployeeNotFound` when the target does not hold the employee.
 * @throws {ThrottledError} when the source department kept changing, or storage is busy.
 */
export async function removeFromSource(
  context: DirectoryContext,
  input: RemoveInput,
): Promise<RemoveResult> {
  const table = await context.table();
  const target = await readEmployeeState(
    table,
    departmentPartitionKey(input.toDepartment),
    input.employeeId,
  );
  if (!target) throw employeeNotFound(input.toDepartment, input.employeeId);
  const { sourceEtag } = input.copied;
  const sourcePk = departmentPartitionKey(input.department);
  const source = await readEmployeeState(table, sourcePk, input.employeeId);
  if (sourceEtag === undefined || !source || !isMovedIncarnation(source, input)) {
    // Already gone (an earlier try committed, reviews and all) — or created again with the id
    // since, an employee this move must not touch.
    return { removed: false };
  }
  try {
    // Exactly the version copied: a review written since changed the employee's ETag too.
    const { deleted } = await deleteEmployee(context, input.department, input.employeeId, {
      mustExist: false,
      exactEtag: sourceEtag,
    });
    return { removed: deleted };
  } catch (error) {
    if (error instanceof PreconditionFailedError) return { removed: false, sourceChanged: true };
    throw error;
  }
}
