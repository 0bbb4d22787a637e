/**
 * A department of 1,500 employees archived through the local host (chunk activities of 100,
 * pages of 1,000, continue-as-new): every employee lands in the archive exactly once and is gone
 * from the directory, and — once the host's index worker has drained the outbox rows the grouped
 * deletes committed — from the inter-partition index (`EmployeeIndex`) and the org-wide last-name
 * index. Prints the rate.
 */
import { parseArchiveRowKey } from '../../../src/storage/keys';
import { odata } from '@azure/data-tables';
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { lastNameStoreFor } from '../../../src/indexing/lastNameStores';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
  isIndexFenceRowKey,
} from '../../../src/storage/keys';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';

const SIZE = 1_500;
const LAST_NAMES = ['Jones', 'Smith', 'Ng', 'Okafor', 'Lee'];
const people = Array.from({ length: SIZE }, (_, i) => {
  const id = String(i + 1).padStart(6, '0');
  return {
    employeeId: id,
    lastName: LAST_NAMES[i % LAST_NAMES.length]!,
    email: `e${id}@contoso.com`,
  };
});

const settings = isolatedSettings();
let host: RunningHost;
beforeAll(async () => {
  host = await hostWith(settings);
  await seedDepartment(host, 'Sales', people);
}, 120_000);
afterAll(async () => {
  await host?.stop();
});

/** Row keys of one partition of a table (none when the table does not exist yet). */
async function rowKeys(table: string, partitionKey: string): Promise<string[]> {
  const keys: string[] = [];
  try {
    for await (const e of testClients()
      .table(table)
      .listEntities({ queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` } })) {
      keys.push(String(e.rowKey));
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
  return keys.sort();
}

/** Index entries that still name a Sales employee (fences, the worker's own marks, aside). */
async function indexEntries(): Promise<number> {
  const index = settings.EMPLOYEE_INDEX_TABLE!;
  const entries = async (partitionKey: string): Promise<number> =>
    (await rowKeys(index, partitionKey)).filter((k) => !isIndexFenceRowKey(k)).length;
  const byId = await entries(idIndexPartitionKey('Sales'));
  const byEmail = await entries(emailIndexPartitionKey('Sales'));
  const lastNames = lastNameStoreFor(
    'entity',
    testClients().table(index),
    testClients().container(settings.LASTNAME_INDEX_CONTAINER!),
  );
  let members = 0;
  for (const name of LAST_NAMES) {
    members += (await lastNames.members(name.toLowerCase())).length;
  }
  return byId + byEmail + members;
}

it('archives 1,500 employees exactly once; gone from the directory and every index', async () => {
  // The index worker has built the indexes of the seeded employees.
  const built = Date.now() + 60_000;
  while ((await indexEntries()) < SIZE * 3 && Date.now() < built) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(await indexEntries()).toBeGreaterThanOrEqual(SIZE * 3);

  const began = Date.now();
  const started = await send(host, 'POST', '/departments/Sales/archive');
  expect(started.status).toBe(202);
  const status = await pollUntilEnded(host, String(started.json.statusUri), 240_000);
  const seconds = (Date.now() - began) / 1000;
  process.stdout.write(
    `archive of ${SIZE} through the host: ${seconds.toFixed(1)} s, ${(SIZE / seconds).toFixed(0)} employees/s\n`,
  );
  expect(status).toMatchObject({
    runtimeStatus: 'Completed',
    output: { department: 'Sales', archived: SIZE, notFound: 0 },
  });

  // Archive records are per incarnation: the directory's key with the incarnation after it.
  const archived = (await rowKeys(settings.ARCHIVE_TABLE!, 'Sales'))
    .map((k) => parseArchiveRowKey(k).rowKey)
    .filter((k) => k.startsWith('empid_'));
  expect(archived).toEqual(people.map((p) => `empid_${p.employeeId}`));
  const left = (await rowKeys(settings.EMPLOYEES_TABLE!, 'Sales')).filter(
    (k) => k !== 'department' && !k.startsWith('department_count_') && !k.startsWith('outbox_'),
  );
  expect(left).toEqual([]);
  expect((await send(host, 'GET', '/departments/Sales')).json.employeeCount).toBe(0);

  // The worker drains the outbox rows of the grouped deletes: the indexes empty, the rows gone.
  const outboxRows = async (): Promise<number> =>
    (await rowKeys(settings.EMPLOYEES_TABLE!, 'Sales')).filter((k) => k.startsWith('outbox_'))
      .length;
  const drained = Date.now() + 60_000;
  while (((await indexEntries()) > 0 || (await outboxRows()) > 0) && Date.now() < drained) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(await indexEntries()).toBe(0);
  expect(await outboxRows()).toBe(0);
}, 300_000);
