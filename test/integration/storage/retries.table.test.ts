/**
 * Tables through the project's client factory, with the proxy breaking requests: transient faults
 * are retried until the write lands, while answers that cannot change (400, 404, 409) are not.
 */
import type { TableEntity } from '@azure/data-tables';
import { NotFoundError, ConflictError } from '../../../src/domainErrors';
import { withStorageErrors } from '../../../src/storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import type { FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueTableName } from '../../support/storage';
import { clientsThrough, collect, inSequence, startTestProxy } from './proxyFixture';

const pk = departmentPartitionKey('Sales');
const ids = (count: number): string[] =>
  Array.from({ length: count }, (_, n) => String(n).padStart(6, '0'));

let proxy: FaultProxy;
let tableName: string;
beforeAll(async () => {
  proxy = await startTestProxy();
});
afterAll(() => proxy.stop());
beforeEach(async () => {
  tableName = uniqueTableName('Retry');
  await testClients().tableService().createTable(tableName);
  proxy.setFaults(null);
  proxy.resetCounts();
});

it('lands all 200 upserts while 30% of requests get 503, retrying each fault', async () => {
  const table = clientsThrough(proxy).table(tableName);
  proxy.setFaults({ rate: 0.3, kinds: ['503'], seed: 200 });

  await inSequence(ids(200), (id) =>
    table.upsertEntity(
      { partitionKey: pk, rowKey: employeeRowKey(id), Sequence: Number(id) },
      'Replace',
    ),
  );

  const counts = proxy.counts();
  expect(counts.faultsInjected).toBeGreaterThan(30);
  expect(counts.byStatus['503']).toBe(counts.faultsInjected);
  expect(counts.byStatus['204']).toBe(200);
  // Every 503 was followed by another try of the same upsert.
  expect(counts.byKind).toEqual({ 'table:PUT': 200 + counts.faultsInjected });

  proxy.setFaults(null);
  const stored = await collect(
    testClients().table(tableName).listEntities<TableEntity<{ Sequence: number }>>(),
  );
  expect(stored).toHaveLength(200);
  expect(stored.map((e) => e.Sequence).sort((a, b) => a - b)).toEqual(ids(200).map(Number));
});

it('honours Retry-After: each throttled try waits at least a second', async () => {
  const table = clientsThrough(proxy).table(tableName);
  proxy.setFaults({ rate: 0.3, kinds: ['503-retry-after'], seed: 11 });
  const started = Date.now();

  await inSequence(ids(10), (id) =>
    table.upsertEntity({ partitionKey: pk, rowKey: employeeRowKey(id) }),
  );

  const faults = proxy.counts().faultsInjected;
  expect(faults).toBeGreaterThan(0);
  expect(Date.now() - started).toBeGreaterThanOrEqual(faults * 1_000 - 50);
});

it('asks once for a missing entity: a 404 is an answer, not a fault', async () => {
  const table = clientsThrough(proxy).table(tableName);

  const lookup = withStorageErrors(() => table.getEntity(pk, employeeRowKey('000404')), {
    notFound: { code: 'EmployeeNotFound', message: 'Employee 000404 does not exist.' },
  });

  await expect(lookup).rejects.toThrow(NotFoundError);
  await expect(lookup).rejects.toMatchObject({ code: 'EmployeeNotFound' });
  expect(proxy.counts().byKind).toEqual({ 'table:GET': 1 });
});

it('sends an invalid entity once: a 400 is not retried', async () => {
  const table = clientsThrough(proxy).table(tableName);

  await expect(
    table.createEntity({
      partitionKey: pk,
      rowKey: employeeRowKey('000400'),
      Notes: 'x'.repeat(70_000),
    }),
  ).rejects.toMatchObject({ statusCode: 400 });
  expect(proxy.counts().byKind).toEqual({ 'table:POST': 1 });
});

it('sends a duplicate insert once: a 409 becomes a conflict naming the employee', async () => {
  const table = clientsThrough(proxy).table(tableName);
  const entity = { partitionKey: pk, rowKey: employeeRowKey('000409') };
  await table.createEntity(entity);
  proxy.resetCounts();

  await expect(
    withStorageErrors(() => table.createEntity(entity), {
      conflict: { code: 'EmployeeExists', message: 'Employee 000409 already exists in Sales.' },
    }),
  ).rejects.toEqual(
    new ConflictError('EmployeeExists', 'Employee 000409 already exists in Sales.'),
  );
  expect(proxy.counts().byKind).toEqual({ 'table:POST': 1 });
});
