/**
 * The outbox sweep: drains the index outbox of every listed department, and of every department
 * partition that holds outbox rows, for rows whose nudge was lost (the process died between the
 * commit and the nudge, or the nudge's send failed after the commit). A department whose outbox
 * is empty costs one range query; the department list is one partition query (`.departments`);
 * the departments with outbox rows are one query across partitions (directory/
 * departmentDiscovery.ts), so a department missing from the listing (its creating `PUT` failed
 * between its two writes) is swept too.
 */
import { mapBounded } from '../storage/parallel';
import { departmentsHoldingRows } from '../directory/storedEntities';
import { ensureTable } from '../storage/createOnce';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  outboxRowKeyRange,
  parseDepartmentListRowKey,
} from '../storage/keys';
import type { SharedDrains } from './sharedDrains';
import { readWholeRange } from '../storage/rangePages';

/** What a sweep did. */
export interface SweepReport {
  departments: number;
  /** Outbox rows drained over all departments. */
  rows: number;
  /** Departments whose drain failed (the next sweep or nudge tries again). */
  failed: { department: string; error: unknown }[];
}

/**
 * Drains the outbox of every listed department and of every department with outbox rows (4 at a
 * time), through the process's shared drains (gone employees go to their handler) so
 * a sweep and the nudges of the same process never drain one department twice at once, each
 * under the department's drain lease and within an invocation's budget (leasedDrain.ts): a
 * department drained elsewhere is left to its holder, one with a long backlog continues through
 * a nudge, so the sweep ends well within the host's `functionTimeout`.
 *
 * @throws {DomainError} when the department list cannot be read.
 */
export async function sweepOutboxes(drains: SharedDrains): Promise<SweepReport> {
  const { stores } = drains;
  await ensureTable(stores.employees);
  // Department names use only characters from " " (U+0020) to "z": this range holds them all.
  const listed = await readWholeRange(
    stores.employees,
    { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, ge: ' ', lt: '~' },
    ['RowKey'],
  );
  const withRows = await departmentsHoldingRows(stores.employees, outboxRowKeyRange());
  const departments = [
    ...new Set([
      ...listed
        .map((entity) => parseDepartmentListRowKey(entity.rowKey))
        .filter((name): name is string => name !== undefined),
      ...withRows,
    ]),
  ];
  const report: SweepReport = { departments: departments.length, rows: 0, failed: [] };
  await mapBounded(departments, 4, async (department) => {
    try {
      report.rows += (await drains.request(department)).rows;
    } catch (error) {
      report.failed.push({ department, error });
    }
  });
  return report;
}
