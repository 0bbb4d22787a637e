/**
 * When the index drains have caught up after an import: no outbox row left in the department's
 * partition and the index queue empty (its approximate count, delayed cover messages included),
 * read straight from the app's storage once a second, as the scale case does through its own
 * clients. The real-size scenario watches from its last import call while the search, the audit
 * and the log hour go on.
 */
import { odata, TableClient } from '@azure/data-tables';
import { QueueClient } from '@azure/storage-queue';
import { expandConnectionString } from '../../src/storage/clients';
import { departmentPartitionKey } from '../../src/storage/keys/tables/employees';
import { outboxRowKeyRange } from '../../src/storage/keys/tables/outbox';
import { sleep } from './api';

/** Where the drains leave their traces: the app's storage, employees table and index queue. */
export interface DrainTarget {
  connectionString: string;
  employeesTable: string;
  indexQueue: string;
}

/** What {@link watchDrains} saw. */
export interface DrainOutcome {
  /** ms after `since` when both were first seen empty; undefined when they never were. */
  convergedAfterMs?: number;
  /** ms after `since` when the watch ended. */
  watchedMs: number;
}

/** Outbox rows pending in the department (0 or 1: one is enough to say "not yet"). */
export async function outboxPending(table: TableClient, department: string): Promise<number> {
  const partitionKey = departmentPartitionKey(department);
  const outbox = outboxRowKeyRange();
  const page = await table
    .listEntities({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${outbox.ge} and RowKey lt ${outbox.lt}`,
        select: ['RowKey'],
      },
    })
    .byPage({ maxPageSize: 1 })
    .next();
  return page.done ? 0 : page.value.length;
}

/**
 * Polls until the department has no outbox row and the index queue is empty, or `waitMs` after
 * `since` has passed, or `signal` aborts. A poll that fails (the emulator busy) counts as "not
 * yet"; it never throws.
 */
export async function watchDrains(
  target: DrainTarget,
  department: string,
  since: number,
  waitMs: number,
  signal?: AbortSignal,
): Promise<DrainOutcome> {
  const connectionString = expandConnectionString(target.connectionString);
  const table = TableClient.fromConnectionString(connectionString, target.employeesTable, {
    allowInsecureConnection: true,
  });
  const queue = new QueueClient(connectionString, target.indexQueue);
  for (;;) {
    try {
      const pending =
        (await outboxPending(table, department)) ||
        ((await queue.getProperties()).approximateMessagesCount ?? 0);
      if (pending === 0) {
        const after = Date.now() - since;
        return { convergedAfterMs: after, watchedMs: after };
      }
    } catch {
      // Not yet: the next poll tells.
    }
    if (Date.now() - since > waitMs || signal?.aborted) return { watchedMs: Date.now() - since };
    try {
      await sleep(1000, signal);
    } catch {
      return { watchedMs: Date.now() - since };
    }
  }
}
