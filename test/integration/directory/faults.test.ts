/**
 * Storage faults between the directory and Azurite (503s, resets, answers lost after the write
 * was applied): the SDK retries, and every write recognises its own earlier commit, so nothing is
 * lost, duplicated or half-written, and the count and indexes stay exact.
 */
import type { AzuritePorts } from '../../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { createDirectory } from '../../../src/directory/directory';
import { testClients, uniqueTableName } from '../../support/storage';
import { compareIndexes, employeeBody } from './fixture';

let proxy: FaultProxy;
const tableName = uniqueTableName('Faulty');
beforeAll(async () => {
  proxy = await startFaultProxy({
    target: JSON.parse(process.env.TEST_AZURITE_PORTS!) as AzuritePorts,
  });
});
afterAll(async () => {
  await proxy.stop();
  await testClients().table(tableName).deleteTable();
});

it('keeps every employee exactly once, with exact count and indexes, through 20% faults', async () => {
  const faulty = createDirectory({
    employees: testClients(proxy.connectionString).table(tableName),
  });
  await faulty.departments.put('Shaky', {});
  proxy.setFaults({
    rate: 0.2,
    kinds: ['503', '500', 'reset', 'reset-after', '503-retry-after'],
    seed: 7,
    services: ['table'],
  });

  for (let i = 1; i <= 30; i++)
    await faulty.employees.create('Shaky', employeeBody(i, { lastName: i % 3 ? 'Alpha' : 'Beta' }));
  const imported = await faulty.employees.import(
    'Shaky',
    Array.from({ length: 200 }, (_, i) => employeeBody(1000 + i)),
  );
  for (let i = 1; i <= 10; i++)
    await faulty.employees.patch('Shaky', String(i).padStart(6, '0'), {
      lastName: 'Gamma',
      email: `g${i}@x.com`,
    });
  for (let i = 11; i <= 20; i++) await faulty.employees.delete('Shaky', String(i).padStart(6, '0'));
  proxy.setFaults(null);

  expect(imported.failed).toEqual([]);
  expect(proxy.counts().faultsInjected).toBeGreaterThan(10);
  const direct = createDirectory({ employees: testClients().table(tableName) });
  expect((await direct.departments.get('Shaky')).value.employeeCount).toBe(30 + 200 - 10);
  const all = await direct.employees.list('Shaky', {}, { pageSize: 1000 });
  expect(all.items).toHaveLength(220);
  const { stored, expected } = await compareIndexes(testClients().table(tableName), 'Shaky');
  expect(stored).toEqual(expected);
});
