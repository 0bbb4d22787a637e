/**
 * `reset-after`: storage applies the request, then the answer is lost and the SDK tries again.
 * This is why cross-partition and queue-driven steps use insert-or-replace and tolerate
 * duplicates: an upsert applied twice is still one entity, an insert applied twice is a conflict,
 * and a queue message sent twice is delivered twice.
 */
import type { TableEntity } from '@azure/data-tables';
import { isAlreadyExists } from '../../../src/storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import type { FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { clientsThrough, collect, inSequence, startTestProxy } from './proxyFixture';

const pk = departmentPartitionKey('Sales');
const ids = (count: number): string[] =>
  Array.from({ length: count }, (_, n) => String(n).padStart(6, '0'));

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startTestProxy();
});
afterAll(() => proxy.stop());
beforeEach(() => {
  proxy.setFaults(null);
  proxy.resetCounts();
});

async function tableNamed(prefix: string): Promise<string> {
  const name = uniqueTableName(prefix);
  await testClients().tableService().createTable(name);
  return name;
}

it('an upsert whose answer was lost is applied again and still leaves one entity', async () => {
  const name = await tableNamed('Upsert');
  const table = clientsThrough(proxy).table(name);
  proxy.setFaults({ rate: 0.3, kinds: ['reset-after'], services: ['table'], seed: 5 });

  await inSequence(ids(40), (id) =>
    table.upsertEntity({ partitionKey: pk, rowKey: employeeRowKey(id), Version: 2 }, 'Replace'),
  );

  const faults = proxy.counts().faultsInjected;
  expect(faults).toBeGreaterThan(0);
  // Storage saw (and applied) every try: the lost answers plus one good answer per upsert.
  expect(proxy.counts().byKind).toEqual({ 'table:PUT': 40 + faults });
  proxy.setFaults(null);
  const stored = await collect(
    testClients().table(name).listEntities<TableEntity<{ Version: number }>>(),
  );
  expect(stored).toHaveLength(40);
  expect(stored.every((e) => e.Version === 2)).toBe(true);
});

it('an insert whose answer was lost comes back as a conflict although it succeeded', async () => {
  const name = await tableNamed('Insert');
  const table = clientsThrough(proxy).table(name);
  proxy.setFaults({ rate: 0.3, kinds: ['reset-after'], services: ['table'], seed: 6 });
  const conflicts: string[] = [];

  await inSequence(ids(40), async (id) => {
    try {
      await table.createEntity({ partitionKey: pk, rowKey: employeeRowKey(id) });
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      conflicts.push(id);
    }
  });

  expect(conflicts.length).toBeGreaterThan(0);
  proxy.setFaults(null);
  const stored = await collect(testClients().table(name).listEntities());
  expect(stored).toHaveLength(40);
});

it('a queue message whose answer was lost is sent again: consumers must be idempotent', async () => {
  const name = uniqueName('dupes');
  await testClients().queue(name).create();
  const queue = clientsThrough(proxy).queue(name);
  proxy.setFaults({ rate: 0.3, kinds: ['reset-after'], services: ['queue'], seed: 9 });

  await inSequence(ids(20), (id) => queue.sendMessage(id));

  const faults = proxy.counts().faultsInjected;
  expect(faults).toBeGreaterThan(0);
  proxy.setFaults(null);
  expect((await testClients().queue(name).getProperties()).approximateMessagesCount).toBe(
    20 + faults,
  );
});
