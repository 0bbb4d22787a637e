/**
 * The real-size scenario's drain watch against Azurite: not converged while the department holds
 * an outbox row or the index queue a message, converged once both are gone, and never beyond its
 * wait.
 */
import { TableClient } from '@azure/data-tables';
import { QueueClient } from '@azure/storage-queue';
import { watchDrains } from '../../../bench/scale/drainWatch';
import { expandConnectionString } from '../../../src/storage/clients';
import { departmentPartitionKey } from '../../../src/storage/keys/tables/employees';
import { outboxRowKey } from '../../../src/storage/keys/tables/outbox';
import { azuriteConnectionString, uniqueName, uniqueTableName } from '../../support/storage';

const DEPT = 'Watched';

async function target() {
  const connectionString = azuriteConnectionString();
  const employeesTable = uniqueTableName('Drain');
  const indexQueue = uniqueName('drain');
  const table = TableClient.fromConnectionString(
    expandConnectionString(connectionString),
    employeesTable,
    { allowInsecureConnection: true },
  );
  const queue = new QueueClient(expandConnectionString(connectionString), indexQueue);
  await table.createTable();
  await queue.create();
  return { connectionString, employeesTable, indexQueue, table, queue };
}

it('waits for the department’s outbox rows and the index queue, and says when both were gone', async () => {
  const t = await target();
  const row = { partitionKey: departmentPartitionKey(DEPT), rowKey: outboxRowKey('000001', 'a1') };
  await t.table.createEntity(row);
  await t.queue.sendMessage('nudge');

  // Both pending: the watch gives up after its wait.
  const since = Date.now();
  const pending = await watchDrains(t, DEPT, since, 1_500);
  expect(pending.convergedAfterMs).toBeUndefined();
  expect(pending.watchedMs).toBeGreaterThanOrEqual(1_500);

  // The row gone but the message still there: not yet.
  await t.table.deleteEntity(row.partitionKey, row.rowKey);
  expect((await watchDrains(t, DEPT, Date.now(), 1_200)).convergedAfterMs).toBeUndefined();

  // Both gone while it watches: converged, measured from `since`.
  const watching = watchDrains(t, DEPT, since, 30_000);
  await t.queue.clearMessages();
  const outcome = await watching;
  expect(outcome.convergedAfterMs).toBeGreaterThanOrEqual(Date.now() - since - 2_000);
  expect(outcome.convergedAfterMs).toBe(outcome.watchedMs);
});

it('ignores other departments’ outbox rows', async () => {
  const t = await target();
  await t.table.createEntity({
    partitionKey: departmentPartitionKey('Other'),
    rowKey: outboxRowKey('000001', 'a1'),
  });
  const outcome = await watchDrains(t, DEPT, Date.now(), 10_000);
  expect(outcome.convergedAfterMs).toBeLessThan(10_000);
});
