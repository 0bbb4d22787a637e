/**
 * Where a department's data lives inside one account: every table partition keyed by it (its
 * partition of `Employees` and `EmployeesArchive`, its by-id and by-email partitions of
 * `EmployeeIndex`, the per-employee partitions of `EmployeeExpenses`, `MessageStats` and
 * `AccessLog`) and its photo blobs. The fence (partitionFence.ts) guards exactly these partitions;
 * a relocation copies exactly these. Pure.
 */
import type { Config } from '../config';
import {
  departmentPartitionKey,
  parseDepartmentPartitionKey,
} from '../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
  parseIndexPartitionKey,
} from '../storage/keys/tables/employeeIndex';
import {
  employeePartitionKey,
  parseEmployeePartitionKey,
} from '../storage/keys/tables/employeePartitions';
import {
  parsePartitionRegistryRowKey,
  partitionRegistryRowKeyRange,
  type RegisteredTable,
} from '../storage/keys/tables/placement';
import type { TableClient } from '@azure/data-tables';
import { readWholeRange } from '../storage/tables/rangePages';

/** The table names of department-keyed data. */
export type DepartmentTables = Pick<
  Config['tables'],
  'employees' | 'archive' | 'employeeIndex' | 'expenses' | 'messageStats' | 'accessLog'
>;

/** A partition that belongs to a department, as the fence sees it. */
export interface DepartmentPartition {
  department: string;
  /**
   * For a per-employee partition: the registry entry, in the department's own partition, that
   * must exist before the partition's fence is created (a relocation finds the partition by it).
   */
  registry?: { table: RegisteredTable; employeeId: string };
}

/** The per-employee tables, by registry code. */
export function registeredTables(tables: DepartmentTables): Record<RegisteredTable, string> {
  return { expenses: tables.expenses, stats: tables.messageStats, access: tables.accessLog };
}

/** The department a partition of `tableName` belongs to, or `undefined` for any other partition. */
export function departmentPartitionOf(
  tables: DepartmentTables,
  tableName: string,
  partitionKey: string,
): DepartmentPartition | undefined {
  if (tableName === tables.employees || tableName === tables.archive) {
    const department = parseDepartmentPartitionKey(partitionKey);
    return department === undefined ? undefined : { department };
  }
  if (tableName === tables.employeeIndex) {
    const parsed = parseIndexPartitionKey(partitionKey);
    return parsed && { department: parsed.department };
  }
  for (const [code, table] of Object.entries(registeredTables(tables))) {
    if (tableName !== table) continue;
    const owner = parseEmployeePartitionKey(partitionKey);
    return (
      owner && {
        department: owner.department,
        registry: { table: code as RegisteredTable, employeeId: owner.employeeId },
      }
    );
  }
  return undefined;
}

/** A partition of a table. */
export interface TablePartition {
  table: string;
  partitionKey: string;
}

/** The department's partitions whose keys are known without looking (no registry needed). */
export function fixedPartitions(tables: DepartmentTables, department: string): TablePartition[] {
  return [
    { table: tables.employees, partitionKey: departmentPartitionKey(department) },
    { table: tables.archive, partitionKey: departmentPartitionKey(department) },
    { table: tables.employeeIndex, partitionKey: idIndexPartitionKey(department) },
    { table: tables.employeeIndex, partitionKey: emailIndexPartitionKey(department) },
  ];
}

/**
 * The per-employee partitions the department's registry names (every one it ever wrote), read
 * whole from its own partition in the `employees` table given.
 *
 * @throws {RestError} for storage faults.
 */
export async function registeredPartitions(
  tables: DepartmentTables,
  employees: TableClient,
  department: string,
): Promise<TablePartition[]> {
  const registry = await readWholeRange(employees, {
    partitionKey: department,
    ...partitionRegistryRowKeyRange(),
  });
  const names = registeredTables(tables);
  return registry.flatMap((row) => {
    const entry = parsePartitionRegistryRowKey(row.rowKey);
    if (!entry) return [];
    const partitionKey = employeePartitionKey(department, entry.employeeId);
    return [{ table: names[entry.table], partitionKey }];
  });
}
