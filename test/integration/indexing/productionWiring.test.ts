/**
 * The index path as the composition root (functions/shared/services.ts) wires it: an HTTP write
 * goes through the transactional outbox only — no pre-write announcement, no v1 change message on
 * `index-updates` — and the writing process's own drain, deferring to the process's one set of
 * shared drains, brings the indexes up to date.
 */
import { createServices } from '../../../functions/shared/services';
import { loadConfig } from '../../../src/config';
import { getEmployeeByEmailEventually } from '../../../src/indexing/employeeIndex/indexQueries';
import { rowKeyRangeFilter } from '../../../src/storage/tables/filters';
import { departmentPartitionKey } from '../../../src/storage/keys/tables/employees';
import { outboxRowKeyRange } from '../../../src/storage/keys/tables/outbox';
import {
  azuriteConnectionString,
  testClients,
  uniqueName,
  uniqueTableName,
} from '../../support/storage';
import { employeeBody as body } from './fixture';

const names = {
  employees: uniqueTableName('Emp'),
  index: uniqueTableName('Idx'),
  queue: uniqueName('idx'),
  container: uniqueName('ln'),
};
const config = loadConfig({
  ...process.env,
  AzureWebJobsStorage: azuriteConnectionString(),
  EMPLOYEES_TABLE: names.employees,
  EMPLOYEE_INDEX_TABLE: names.index,
  INDEX_QUEUE: names.queue,
  LASTNAME_INDEX_CONTAINER: names.container,
});

afterAll(async () => {
  const clients = testClients();
  await Promise.allSettled([
    clients.table(names.employees).deleteTable(),
    clients.table(names.index).deleteTable(),
    clients.queue(names.queue).deleteIfExists(),
    clients.container(names.container).deleteIfExists(),
  ]);
});

it('records HTTP writes in the outbox only, and the writing process drains them itself', async () => {
  const services = createServices(() => config);
  const { departments, employees } = services.directory();
  await departments.put('Sales', {});
  for (const n of [1, 2, 3]) await employees.create('Sales', body(n));
  await employees.patch('Sales', '000002', { lastName: 'Taylor' });
  await services.changeQueue().settled();

  // No announcement, no change message, no nudge needed: only the delayed cover the writes
  // waited for, still invisible (when it surfaces the outbox is empty: one outbox read).
  const queue = testClients().queue(names.queue);
  await queue.createIfNotExists();
  expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
  expect((await queue.peekMessages()).peekedMessageItems).toEqual([]);
  const filter = rowKeyRangeFilter(departmentPartitionKey('Sales'), outboxRowKeyRange());
  const rows = [];
  for await (const row of services
    .indexStores()
    .employees.listEntities({ queryOptions: { filter } }))
    rows.push(row);
  expect(rows).toEqual([]);
  const indexed = await getEmployeeByEmailEventually(
    services.indexStores().index,
    'Sales',
    'u3@contoso.com',
  );
  expect(indexed.value.employeeId).toBe('000003');
  expect(
    (await services.indexStores().lastNames.members('taylor')).map((m) => m.employeeId),
  ).toEqual(['000002']);
  // One set of drains per process, over the process's index stores.
  expect(services.indexDrains()).toBe(services.indexDrains());
  expect(services.indexDrains().stores).toBe(services.indexStores());
});
