/**
 * Audit of a department's denormalized manager copy: the department entity copies its manager's
 * first name, last name and email (directory/departments/departments.ts `setManager`; a manager's
 * own update changes the copy in the same transaction). A copy that differs from the manager
 * employee, or names an employee that no longer exists, is stale.
 *
 * Race safety: the department entity is read BEFORE the manager employee. The repair is one
 * transaction in the department's partition: a Merge of the department conditional on the ETag
 * read, and — when the manager exists — a no-op Merge of the manager conditional on its ETag, so
 * it fails harmlessly if either changed since (a new manager set, the manager renamed or deleted).
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { tookEffect } from '../../storage/storageFaults';
import { DEPARTMENT_ROW_KEY, departmentPartitionKey } from '../../storage/keys/tables/employees';
import { noCounts, type AuditCounts } from './auditCounts';
import {
  departmentMerge,
  readDepartment,
  readEmployeeState,
  type Manager,
} from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';

/**
 * Compares (and with `repair`, fixes) the manager copy of one department.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults.
 */
export async function auditManagerCopy(
  table: TableAccess,
  department: string,
  repair: boolean,
  hooks: { beforeRepair?: () => Promise<void> } = {},
): Promise<AuditCounts> {
  const partitionKey = departmentPartitionKey(department);
  const entity = await readEntity(table, partitionKey, DEPARTMENT_ROW_KEY);
  const copy = entity && readDepartment(entity)?.manager;
  const counts = noCounts();
  if (!entity || !copy) return counts;
  counts.checked = 1;
  const employee = await readEmployeeState(table, partitionKey, copy.employeeId);
  const current: Manager | null = employee
    ? {
        employeeId: copy.employeeId,
        firstName: employee.data.firstName,
        lastName: employee.data.lastName,
        email: employee.data.email,
      }
    : null;
  if (current && JSON.stringify(current) === JSON.stringify(copy)) return counts;
  counts.stale = 1;
  if (!repair) return counts;
  await hooks.beforeRepair?.();
  const actions: EntityGroupAction[] = [
    ['update', departmentMerge(department, { manager: current }), 'Merge', { etag: entity.etag }],
  ];
  if (employee) {
    const keys = { partitionKey, rowKey: employee.entity.rowKey };
    actions.push(['update', keys, 'Merge', { etag: employee.etag }]);
  }
  if (await tookEffect(() => submitEntityGroupTransaction(table, actions))) counts.repaired = 1;
  return counts;
}
