/**
 * A department archived through the local host across pages, chunks and executions (pages of 20
 * ids, chunk activities of 5, continue-as-new after 2 pages: `ARCHIVE_PAGE_SIZE`,
 * `ARCHIVE_CHUNK_SIZE`): every one of its 60 employees lands in the archive exactly once and is
 * gone from the directory, and — once the host's index worker has drained the outbox rows the
 * grouped deletes committed — from the inter-partition index (`EmployeeIndex`) and the org-wide
 * last-name index.
 *
 * The tiling is the same with the default sizes (1,000 and 100); the archive of thousands, with
 * its rate, is the bench's scale case (`bench/cases/scale.ts`, step `archive`), which checks the
 * same outcome.
 */
import { parseArchiveRowKey } from '../../../src/storage/keys/tables/archive';
import { odata } from '@azure/data-tables';
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { lastNameStoreFor } from '../../../src/indexing/lastNames/storeForMode';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
  isIndexFenceRowKey,
} from '../../../src/storage/keys/tables/employeeIndex';
import {
  executionHistories,
  HUB_SETTING,
  hostWith,
  isolatedSettings,
  pollUntilEnded,
  seedDepartment,
  send,
} from './support';

const SIZE = 60;
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
  host = await hostWith({ ...settings, ARCHIVE_PAGE_SIZE: '20', ARCHIVE_CHUNK_SIZE: '5' });
  await seedDepartment(host, 'Sales', people);
});
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

/** Polls until `done` holds; the test's timeout is the only limit (a hang detector). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 250));
}

it('archives 60 employees across 3 pages exactly once; gone from the directory and every index', async () => {
  // The index worker has built the indexes of the seeded employees.
  await until(async () => (await indexEntries()) >= SIZE * 3);

  const started = await send(host, 'POST', '/departments/Sales/archive');
  expect(started.status).toBe(202);
  const status = await pollUntilEnded(host, String(started.json.statusUri), 150_000);
  expect(status).toMatchObject({
    runtimeStatus: 'Completed',
    output: { department: 'Sales', archived: SIZE, notFound: 0 },
  });
  // 3 pages, 2 per execution: it continued as new once.
  expect(await executionHistories(settings[HUB_SETTING]!, status.id)).toHaveLength(2);

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
  await until(async () => (await indexEntries()) === 0 && (await outboxRows()) === 0);
}, 180_000);
