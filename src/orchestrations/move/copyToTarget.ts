/**
 * Step 2 of a move: write the employee into the target department's partition — the employee
 * entity, its email copy, the department's count and the same-partition last-name index — in ONE
 * entity group transaction there, the directory's own insert (insertEmployee.ts). Then its yearly
 * reviews follow (upserts: repeatable).
 *
 * Idempotent: the copy carries the move's write id, so a repeated try that finds the employee
 * already there with that id knows its own earlier commit; any other employee with the id (or
 * another employee with the email) is a permanent refusal, and nothing is written.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import type { DirectoryContext } from '../../directory/context';
import { employeeNotFound } from '../../directory/directoryErrors';
import type { StoredProperties } from '../../directory/employeeEntity';
import { readEmployeeState } from '../../directory/employeeState';
import { insertEmployee } from '../../directory/insertEmployee';
import { readWholeRange } from '../../directory/paging';
import {
  MAX_TRANSACTION_OPERATIONS,
  PlannedTransaction,
  submitPlanned,
} from '../../directory/transaction';
import { departmentPartitionKey, reviewRowKeyRange } from '../../storage/keys';
import { moveWriteId, type MoveInput } from './moveRequest';

/** What the copy did. */
export interface CopyResult {
  /** False when an earlier try of this move (or the whole move) had already done it. */
  copied: boolean;
  /** Yearly reviews written to the target. */
  reviews: number;
}

/**
 * Copies the employee of a move into the target partition (see the module comment).
 *
 * @throws {NotFoundError} `EmployeeNotFound` (in neither department), `DepartmentNotFound` (target).
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target, `LastNameIndexFull`.
 * @throws {ThrottledError} when the target department kept changing, or storage is busy.
 */
export async function copyEmployeeToTarget(
  context: DirectoryContext,
  move: MoveInput,
): Promise<CopyResult> {
  const table = await context.table();
  const sourcePk = departmentPartitionKey(move.department);
  const targetPk = departmentPartitionKey(move.toDepartment);
  const source = await readEmployeeState(table, sourcePk, move.employeeId);
  if (!source) {
    // Already removed from the source: fine only if the target holds it (a finished earlier try).
    const target = await readEmployeeState(table, targetPk, move.employeeId);
    if (target) return { copied: false, reviews: 0 };
    throw employeeNotFound(move.department, move.employeeId);
  }
  const { inserted: copied } = await insertEmployee(context, move.toDepartment, source.data, {
    writeId: moveWriteId(move.moveId),
    preserved: source.meta.preserved,
  });
  const reviews = await copyReviews(table, sourcePk, targetPk, move.employeeId);
  return { copied, reviews };
}

/** Properties the SDK adds to a read entity, which must not be written back. */
const READ_ONLY_PROPERTIES = new Set(['partitionKey', 'rowKey', 'etag', 'timestamp']);

/**
 * Upserts every yearly review of the employee into the target partition (same RowKeys), in
 * transactions of at most 100 operations. Repeating it writes the same entities again.
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function copyReviews(
  table: TableClient,
  sourcePk: string,
  targetPk: string,
  employeeId: string,
): Promise<number> {
  const reviews = await readWholeRange(table, {
    partitionKey: sourcePk,
    ...reviewRowKeyRange(employeeId),
  });
  for (let i = 0; i < reviews.length; i += MAX_TRANSACTION_OPERATIONS) {
    const plan = new PlannedTransaction<string>();
    for (const review of reviews.slice(i, i + MAX_TRANSACTION_OPERATIONS)) {
      const copy: TableEntity<StoredProperties> = { partitionKey: targetPk, rowKey: review.rowKey };
      for (const [name, value] of Object.entries(review)) {
        if (!READ_ONLY_PROPERTIES.has(name) && !name.startsWith('odata.')) copy[name] = value;
      }
      plan.add(['upsert', copy, 'Replace'], review.rowKey);
    }
    await submitPlanned(table, plan);
  }
  return reviews.length;
}
