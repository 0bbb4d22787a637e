/**
 * What the archive benchmarks share: counting archived employees, waiting for the archive queue to
 * empty, and sending archive messages as a steady stream (bench/cases/archive.ts,
 * bench/cases/departmentArchive.ts).
 */
import { odata, type TableClient } from '@azure/data-tables';
import type { QueueClient } from '@azure/storage-queue';
import type { ArchiveRequestMessage } from '../src/archive/archiveRequests';
import { mapBounded } from '../src/storage/parallel';
import {
  employeeRowKeyRange,
  parseDepartmentPartitionKey,
  parseEmployeeRowKey,
} from '../src/storage/keys/tables/employees';
import { sendJsonMessage } from '../src/storage/queue';
import { incarnationOf } from '../src/directory/entities';

/** The host's `batchSize` (host.json): how many archive messages it handles at once. */
export const ARCHIVE_HOST_BATCH = 16;

/** `department/employeeId` → the incarnation of each seeded employee (read once, uncounted). */
export type Incarnations = Map<string, string>;

/** The incarnations of every employee of a table, as `POST .../archive` reads them. */
export async function readIncarnations(table: TableClient): Promise<Incarnations> {
  const range = employeeRowKeyRange();
  const filter = odata`RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
  const incarnations: Incarnations = new Map();
  for await (const entity of table.listEntities<Record<string, unknown>>({
    queryOptions: { filter, select: ['PartitionKey', 'RowKey', 'Incarnation'] },
  })) {
    const department = parseDepartmentPartitionKey(entity.partitionKey ?? '');
    const employeeId = parseEmployeeRowKey(entity.rowKey ?? '');
    if (department !== undefined && employeeId !== undefined) {
      incarnations.set(`${department}/${employeeId}`, incarnationOf(entity));
    }
  }
  return incarnations;
}

/**
 * The `archive-requests` message `POST .../archive` enqueues for the employee.
 *
 * @throws {Error} when the employee was not seeded.
 */
export function archiveRequest(
  incarnations: Incarnations,
  department: string,
  employeeId: string,
): ArchiveRequestMessage {
  const incarnation = incarnations.get(`${department}/${employeeId}`);
  if (incarnation === undefined) throw new Error(`Employee ${employeeId} was not seeded.`);
  return { v: 2, department, employeeId, incarnation };
}

/** Employees in an archive table (primary entities only). */
export async function countArchived(table: TableClient): Promise<number> {
  const range = employeeRowKeyRange();
  const filter = odata`RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
  let count = 0;
  try {
    for await (const page of table
      .listEntities({ queryOptions: { filter, select: ['RowKey'] } })
      .byPage({ maxPageSize: 1000 })) {
      count += page.length;
    }
  } catch (error) {
    // The archive table appears with the first archived employee.
    if ((error as { statusCode?: number }).statusCode === 404) return 0;
    throw error;
  }
  return count;
}

/**
 * Waits until the host has handled (and deleted) every message of `queue`: a cheap queue-properties
 * poll rather than re-listing the archive table every time, which would load the emulator the
 * pattern is measured on.
 */
export async function waitForEmptyQueue(queue: QueueClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { approximateMessagesCount } = await queue.getProperties();
    if (approximateMessagesCount === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${approximateMessagesCount} archive messages left after ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Most archive messages waiting at once in the steady run (the host takes 16 per poll). */
export const STEADY_BACKLOG = 64;

/**
 * Sends one archive message per employee while keeping at most {@link STEADY_BACKLOG} waiting, as a
 * steady stream of `POST .../archive` calls would; queue length is read directly (not counted).
 */
export async function enqueueSteadily(
  incarnations: Incarnations,
  queue: QueueClient,
  direct: QueueClient,
  employees: readonly { department: string; employeeId: string }[],
): Promise<void> {
  for (let next = 0; next < employees.length;) {
    const { approximateMessagesCount = 0 } = await direct.getProperties();
    const room = Math.min(STEADY_BACKLOG - approximateMessagesCount, employees.length - next);
    if (room <= 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    const chunk = employees.slice(next, next + room);
    next += chunk.length;
    await mapBounded(chunk, ARCHIVE_HOST_BATCH, (e) =>
      sendJsonMessage(queue, archiveRequest(incarnations, e.department, e.employeeId)),
    );
  }
}
