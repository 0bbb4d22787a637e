/**
 * Departments found from the data rather than from the listing (`.departments`): the department
 * partitions that hold a row in a RowKey range. The listing is written after the department
 * entity (departments.ts), so a department whose creating `PUT` failed between the two writes is
 * missing from it; the outbox sweep and the index audit use this to reach such a department too.
 *
 * It is a query across partitions (`RowKey ge <from> and RowKey lt <to>`, built with the `odata`
 * template), so the service scans the table for it; it returns only the matching rows' partition
 * keys. Callers use it on a timer or in an audit, never on a request path.
 */
import { odata } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { withStorageErrors } from '../../storage/storageFaults';
import { parseDepartmentPartitionKey } from '../../storage/keys/tables/employees';

/**
 * The departments (sorted, each once) whose partition holds a row with a RowKey in `[ge, lt)`.
 * Partitions that are not departments (the listing's `.departments`) are left out.
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function departmentsHoldingRows(
  table: TableAccess,
  rowKeys: { ge: string; lt: string },
): Promise<string[]> {
  const departments = new Set<string>();
  await withStorageErrors(async () => {
    const rows = table.listEntities<Record<string, unknown>>({
      queryOptions: {
        filter: odata`RowKey ge ${rowKeys.ge} and RowKey lt ${rowKeys.lt}`,
        select: ['PartitionKey'],
      },
    });
    for await (const row of rows) {
      const department = parseDepartmentPartitionKey(String(row.partitionKey));
      if (department !== undefined) departments.add(department);
    }
  });
  return [...departments].sort();
}
