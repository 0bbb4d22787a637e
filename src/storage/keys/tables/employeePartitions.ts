/** PartitionKey of per-employee data (expenses, message stats, access log). */
import { assertDepartment, assertEmployeeId, isDepartmentName } from '../identifiers';

/**
 * PartitionKey of per-employee data: `Sales_000223`. Spreads writes over one partition per
 * employee rather than one per time bucket (prepend/append anti-pattern).
 *
 * @throws {ValidationError} for an invalid department or employee id.
 */
export function employeePartitionKey(department: string, employeeId: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  return `${department}_${employeeId}`;
}

/** Reverses {@link employeePartitionKey}; the fixed-width id makes `_` in departments safe. */
export function parseEmployeePartitionKey(
  partitionKey: string,
): { department: string; employeeId: string } | undefined {
  const match = /^(.+)_(\d{6})$/.exec(partitionKey);
  if (!match || !isDepartmentName(match[1]!)) return undefined;
  return { department: match[1]!, employeeId: match[2]! };
}
