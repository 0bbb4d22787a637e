/**
 * What the archive benchmarks share: counting archived employees, waiting for the archive queue to
 * empty, and sending archive messages as a steady stream (bench/cases/archive.ts,
 * bench/cases/departmentArchive.ts).
 */
import { odata, type TableClient } from '@azure/data-tables';
import type { QueueClient } from '@azure/storage-queue';
import { mapBounded } from '../src/storage/parallel';
import { employeeRowKeyRange } from '../src/storage/keys';
import { sendJsonMessage } from '../src/storage/queue';

/** The host's `batchSize` (host.json): how many archive messages it handles at once. */
export const ARCHIVE_HOST_BATCH = 16;

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
      sendJsonMessage(queue, { v: 1, department: e.department, employeeId: e.employeeId }),
    );
  }
}
