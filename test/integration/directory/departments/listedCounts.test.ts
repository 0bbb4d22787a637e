/**
 * The department list carries counts (denormalization, eventually consistent): a page of 1,000
 * departments with their employee counts is one range query over the listing, and the counts the
 * index drains keep there converge after creates, deletes, imports, moves and archives; a
 * refresh that read an older count never overwrites a newer one; the writer's drain refreshes a
 * burst's first write at once and the cover the rest.
 */
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import type { TableClient } from '@azure/data-tables';
import { archiveEmployee } from '../../../../src/archive/archiveEmployee';
import { createContext } from '../../../../src/directory/context';
import { createDirectory, type Directory } from '../../../../src/directory/directory';
import { refreshListingCount } from '../../../../src/directory/departments';
import { newDrainCache } from '../../../../src/indexing/drain/drainCache';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import { writerDrains } from '../../../../src/indexing/drain/writerDrain';
import { queueChangeSink } from '../../../../src/indexing/queue/queueChangeSink';
import type { OrchestrationServices } from '../../../../src/orchestrations/services';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../../../src/storage/keys/tables/employees';
import { runCopyAndRemove } from '../../orchestrations/support';
import {
  createIndexingFixture,
  employeeBody as body,
  type IndexingFixture,
} from '../../indexing/fixture';
import { WAIT_MS } from '../../../support/waits';

let fx: IndexingFixture;
beforeEach(() => {
  fx = createIndexingFixture();
});
afterEach(() => fx.cleanup());

/** Counts the requests `table` sends while `work` runs. */
async function requestsOf<T>(
  table: TableClient,
  work: () => Promise<T>,
): Promise<{ result: T; requests: PipelineRequest[] }> {
  const requests: PipelineRequest[] = [];
  const name = `count-${Math.random().toString(36).slice(2)}`;
  table.pipeline.addPolicy({
    name,
    sendRequest(request, next) {
      requests.push(request);
      return next(request);
    },
  });
  try {
    return { result: await work(), requests };
  } finally {
    table.pipeline.removePolicy({ name });
  }
}

/** A reader with no cached page (another process). */
const reader = (): Directory =>
  createDirectory({ employees: fx.stores.employees, departmentCacheTtlMs: 0 });

/** The counts the list shows, by department (every page). */
async function listedCounts(directory: Directory = reader()): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let continuationToken: string | undefined;
  do {
    const page = await directory.departments.list({ pageSize: 1000, continuationToken });
    for (const item of page.items) counts[item.name] = item.employeeCount;
    continuationToken = page.continuationToken ?? undefined;
  } while (continuationToken);
  return counts;
}

/** The exact counts (`GET /departments/{dept}`) of `departments`. */
async function exactCounts(departments: string[]): Promise<Record<string, number>> {
  const directory = reader();
  const entries = await Promise.all(
    departments.map(
      async (d) => [d, (await directory.departments.get(d)).value.employeeCount] as const,
    ),
  );
  return Object.fromEntries(entries);
}

it('lists a page of 1,000 departments with their counts in at most 5 storage requests', async () => {
  const names = Array.from({ length: 1_010 }, (_, i) => `Dept ${String(i).padStart(4, '0')}`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((d) => fx.directory.departments.put(d, {})));
  }
  await fx.directory.employees.import(names[0]!, [body(1), body(2), body(3)]);
  await fx.directory.employees.create(names[999]!, body(4));
  await fx.drain();

  const directory = reader();
  await directory.departments.list({ pageSize: 1 }); // the table client's table, created once
  const { result: page, requests } = await requestsOf(fx.stores.employees, () =>
    directory.departments.list({ pageSize: 1000 }),
  );
  expect(requests.length).toBeLessThanOrEqual(5);
  expect(page.items).toHaveLength(1000);
  expect(page.items[0]).toEqual({
    name: names[0],
    description: '',
    employeeCount: 3,
    countAsOf: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(page.items[999]).toMatchObject({ name: names[999], employeeCount: 1 });
  expect(page.items[1]).toMatchObject({ name: names[1], employeeCount: 0 });
  // The next page continues where it ended.
  const rest = await directory.departments.list({
    pageSize: 1000,
    continuationToken: page.continuationToken!,
  });
  expect(rest.items.map((d) => d.name)).toEqual(names.slice(1000));
  expect(rest.continuationToken).toBeNull();
}, 120_000);

it('converges on the exact counts after creates, deletes, imports, moves and archives', async () => {
  const departments = ['Sales', 'Marketing', 'Ops'];
  for (const d of departments) await fx.directory.departments.put(d, {});
  await fx.directory.employees.import(
    'Sales',
    Array.from({ length: 20 }, (_, i) => body(i + 1)),
  );
  for (const n of [101, 102, 103]) await fx.directory.employees.create('Marketing', body(n));
  await fx.directory.employees.delete('Marketing', '000102');
  await fx.drain();
  expect(await listedCounts()).toEqual({ Sales: 20, Marketing: 2, Ops: 0 });

  // A move: the orchestration's own copy and removal.
  const changes = queueChangeSink(fx.clients.queue(fx.names.queue));
  const services: OrchestrationServices = {
    directory: createContext({ employees: fx.stores.employees, changes }),
    employees: fx.directory.employees,
    archive: fx.clients.table(fx.names.archive),
    photos: fx.clients.container(`${fx.names.container}p`),
    changes,
    indexStores: fx.stores,
  };
  await runCopyAndRemove(services, {
    department: 'Sales',
    employeeId: '000001',
    toDepartment: 'Ops',
    moveId: 'move-1',
  });
  // An archive: the worker's own sequence.
  await archiveEmployee(
    {
      employees: fx.stores.employees,
      archive: fx.clients.table(fx.names.archive),
      directory: fx.directory.employees,
      changes,
    },
    'Sales',
    '000002',
  );
  await changes.settled();
  await fx.drain();
  const expected = { Sales: 18, Marketing: 2, Ops: 1 };
  expect(await exactCounts(departments)).toEqual(expected);
  expect(await listedCounts()).toEqual(expected);
});

it('never lets a refresh that read an older count overwrite a newer one', async () => {
  await fx.directory.departments.put('Sales', {});
  await fx.directory.employees.create('Sales', body(1));
  await fx.drain();
  const table = fx.stores.employees;
  // A refresh reads the count (1) and is held before its write...
  let reached!: () => void;
  let release!: () => void;
  const atWrite = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const stale = refreshListingCount(table, 'Sales', {
    beforeWrite: async () => {
      reached();
      await released;
    },
  });
  await atWrite;
  // ...while an employee joins and another refresh lists the new count (2).
  await fx.directory.employees.create('Sales', body(2));
  await refreshListingCount(table, 'Sales');
  release();
  await stale;
  const listing = await table.getEntity(
    DEPARTMENT_LIST_PARTITION_KEY,
    departmentListRowKey('Sales'),
  );
  expect(listing.EmployeeCount).toBe(2);
  expect(await listedCounts()).toEqual({ Sales: 2 });
});

it("keeps a listing's count when a PUT replaces its description", async () => {
  await fx.directory.departments.put('Sales', { description: 'old' });
  await fx.directory.employees.import('Sales', [body(1), body(2)]);
  await fx.drain();
  await fx.directory.departments.put('Sales', { description: 'new' });
  const [item] = (await reader().departments.list()).items;
  expect(item).toMatchObject({ name: 'Sales', description: 'new', employeeCount: 2 });
});

it("gives a listing written before listings carried counts its department's count, once", async () => {
  await fx.directory.departments.put('Legacy', {});
  await fx.directory.employees.import('Legacy', [body(1), body(2)]);
  await fx.drain();
  // As an older version wrote it: no count.
  const table = fx.stores.employees;
  const rowKey = departmentListRowKey('Legacy');
  const old = await table.getEntity(DEPARTMENT_LIST_PARTITION_KEY, rowKey);
  const { EmployeeCount: _c, CountAsOf: _a, etag: _e, timestamp: _t, ...bare } = old;
  await table.updateEntity(
    { ...bare, partitionKey: DEPARTMENT_LIST_PARTITION_KEY, rowKey },
    'Replace',
  );

  const first = await requestsOf(table, () => reader().departments.list());
  expect(first.result.items).toEqual([
    { name: 'Legacy', description: '', employeeCount: 2, countAsOf: expect.any(String) },
  ]);
  expect(first.requests).toHaveLength(3); // the page, the department's count, its store
  const second = await requestsOf(table, () => reader().departments.list());
  expect(second.result.items[0]?.employeeCount).toBe(2);
  expect(second.requests).toHaveLength(1);
});

it("refreshes a burst's first write at once in the writer's drain, and the rest when the cover surfaces", async () => {
  await fx.directory.departments.put('Sales', {});
  const leased = new SharedDrains({ ...fx.stores, drainCache: newDrainCache() });
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), {
    drain: writerDrains(leased),
    drainLingerMs: 20,
    coverDelaySeconds: 1,
  });
  const writer = createDirectory({ employees: fx.stores.employees, changes: sink });
  await writer.employees.create('Sales', body(1));
  await sink.settled();
  expect(await listedCounts()).toEqual({ Sales: 1 }); // the writer's drain, at once
  await writer.employees.create('Sales', body(2));
  await sink.settled();
  // Drained (indexed) by the writer, but its count waits for the cover: one refresh a burst.
  expect(await listedCounts()).toEqual({ Sales: 1 });
  // The cover, once visible (a second after the window), brings the queue worker.
  const deadline = Date.now() + WAIT_MS;
  while ((await fx.drain()) === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(await listedCounts()).toEqual({ Sales: 2 });
});
