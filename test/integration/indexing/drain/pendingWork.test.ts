/**
 * Pending work known without walking every department (issue #45), over 3,000 departments written
 * straight into the table: the idle sweep costs a handful of requests (counted by the proxy in
 * front of Azurite), a cover that cannot be stored marks its department, the operations view
 * shows that department — the last of the list — with no truncation, and the sweep drains it and
 * removes the marker; a marker written again during the sweep's drain stays; the outbox walk goes
 * on from its cursor, one bounded step a sweep.
 */
import type { TableClient } from '@azure/data-tables';
import { createDirectory } from '../../../../src/directory/directory';
import { sweepOutboxes } from '../../../../src/indexing/drain/outboxSweep';
import { walkStep } from '../../../../src/indexing/drain/outboxWalk';
import { markPending, readPendingWork } from '../../../../src/indexing/drain/pendingMarkers';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import { queueChangeSink } from '../../../../src/indexing/queue/queueChangeSink';
import { OperationsService } from '../../../../src/operations/operations';
import { TimerRunLog } from '../../../../src/operations/timerRuns';
import { mapBounded } from '../../../../src/storage/parallel';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
  departmentPartitionKey,
} from '../../../../src/storage/keys/tables/employees';
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';
import { refuseCovers } from '../../../support/queueFaults';
import { createIndexingFixture, employeeBody as body, pauseAfter } from '../fixture';
import type { IndexingFixture } from '../fixture';

let proxy: FaultProxy;
let fx: IndexingFixture;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());
beforeEach(() => {
  fx = createIndexingFixture({ clients: testClients(proxy.connectionString) });
});
afterEach(() => fx.cleanup());

const DEPARTMENTS = 3_000;
const LAST = 'zz Last';
const start = 1_700_000_000_000;
const nameOf = (n: number): string => `Dept ${String(n).padStart(5, '0')}`;

/** Departments as their creation leaves them (listing row, department entity), written raw. */
async function seedDepartments(table: TableClient, names: readonly string[]): Promise<void> {
  await table.createTable();
  for (let i = 0; i < names.length; i += 100) {
    await table.submitTransaction(
      names
        .slice(i, i + 100)
        .map((name) => [
          'upsert',
          { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, rowKey: departmentListRowKey(name) },
        ]),
    );
  }
  await mapBounded(names, 16, (name) =>
    table.upsertEntity({
      partitionKey: departmentPartitionKey(name),
      rowKey: 'department',
      EntityType: 'Department.v1',
    }),
  );
}

it('sweeps 3,000 idle departments in a few requests; a cover that failed is marked, shown and drained', async () => {
  const names = Array.from({ length: DEPARTMENTS }, (_, i) => nameOf(i + 1));
  await seedDepartments(fx.stores.employees, names);
  // The last of the list (names sort "Dept …" first), created as the API creates it.
  await createDirectory({ employees: fx.stores.employees }).departments.put(LAST, {});
  const drains = new SharedDrains(fx.stores);
  let now = start;
  const sweep = () => sweepOutboxes(drains, { now: () => now });

  // The first sweep ever walks the table (a scan across partitions, not a request per department).
  proxy.resetCounts();
  expect(await sweep()).toMatchObject({ departments: 0, discovered: true, walkFinished: true });
  expect(proxy.counts().requests).toBeLessThanOrEqual(50);

  now += 5 * 60_000;
  proxy.resetCounts();
  expect(await sweep()).toMatchObject({ departments: 0, marked: 0, discovered: false });
  // Idle: the `.pending` partition alone (markers and the walk's checkpoint in one query).
  expect(proxy.counts().byKind).toEqual({ 'table:GET': 1 });

  // A write in the last department whose cover cannot be stored, with no drain of its own.
  const failed: string[] = [];
  const sink = queueChangeSink(refuseCovers(fx.clients.queue(fx.names.queue)), {
    nudgeDelaySeconds: 10,
    onNudgeError: (_error, department) => failed.push(department),
    markUncovered: (department) => markPending(fx.stores.employees, department, 'cover-failed'),
  });
  const directory = createDirectory({ employees: fx.stores.employees, changes: sink });
  await directory.employees.create(LAST, body(1));
  expect(failed).toEqual([LAST]);
  expect((await readPendingWork(fx.stores.employees)).markers).toMatchObject([
    { department: LAST, reason: 'cover-failed' },
  ]);

  const operations = new OperationsService({
    employees: fx.stores.employees,
    queues: fx.clients,
    queueNames: {
      archive: uniqueName('a'),
      indexUpdates: fx.names.queue,
      logBatches: uniqueName('l'),
    },
    timerRuns: new TimerRunLog(fx.clients.table(uniqueTableName('Ops'))),
  });
  proxy.resetCounts();
  const before = (await operations.overview()).outbox;
  expect(before).toMatchObject({ departmentsChecked: 1, departmentsTruncated: false });
  expect(before.departments.map((d) => [d.department, d.pending])).toEqual([[LAST, 1]]);
  // The markers and the one marked outbox, not 3,001 departments (poison queues, timers, logs
  // besides).
  expect(proxy.counts().byKind['table:GET']).toBeLessThanOrEqual(4);

  now += 5 * 60_000;
  expect(await sweep()).toMatchObject({ departments: 1, marked: 1, cleared: 1, rows: 1 });
  expect((await readPendingWork(fx.stores.employees)).markers).toEqual([]);
  expect((await operations.overview()).outbox.departments).toEqual([]);
});

it('keeps a marker written again while the sweep drained its department', async () => {
  const silent = createDirectory({ employees: fx.stores.employees, outbox: true });
  await silent.departments.put('Sales', {});
  await silent.employees.create('Sales', body(1));
  await markPending(fx.stores.employees, 'Sales', 'cover-failed');
  const pause = pauseAfter('read');
  const drains = new SharedDrains(fx.stores, { afterStep: pause.afterStep });
  const now = Date.now();
  // A walk has run: this sweep is driven by the marker alone.
  await walkStep(fx.stores.employees, [{ name: '', employees: fx.stores.employees }], undefined, {
    now: () => now,
  });

  const swept = sweepOutboxes(drains, { now: () => now });
  await pause.reached;
  // Another write's cover fails while the sweep's drain runs: its row may be younger than the
  // drain's outbox read, so its marker must outlive this sweep.
  await markPending(fx.stores.employees, 'Sales', 'cover-failed');
  pause.release();
  expect(await swept).toMatchObject({ departments: 1, marked: 1, cleared: 0 });
  expect((await readPendingWork(fx.stores.employees)).markers).toMatchObject([
    { department: 'Sales' },
  ]);
});

it('walks the table in bounded steps, going on from its cursor, and not again before the hour', async () => {
  const table = fx.clients.table(uniqueTableName('Walk'));
  await table.createTable();
  try {
    // 1,001 departments holding an outbox row: more than one page of the scan.
    const holding = Array.from({ length: 1_001 }, (_, i) => nameOf(i + 1));
    await mapBounded(holding, 16, (name) =>
      table.upsertEntity({ partitionKey: departmentPartitionKey(name), rowKey: 'outbox_000001_1' }),
    );
    const accounts = [{ name: '', employees: table }];
    let now = start;
    const step = async () =>
      walkStep(table, accounts, (await readPendingWork(table)).checkpoint, {
        now: () => now,
        maxPages: 1,
      });
    const first = await step();
    expect(first).toMatchObject({ ran: true, finished: false });
    expect(first.departments).toHaveLength(1_000);
    now += 5 * 60_000;
    const second = await step();
    expect(second).toMatchObject({ ran: true, finished: true, departments: [nameOf(1_001)] });
    now += 5 * 60_000;
    expect(await step()).toMatchObject({ ran: false });
    now = start + 60 * 60_000;
    expect(await step()).toMatchObject({ ran: true });
  } finally {
    await table.deleteTable().catch(() => undefined);
  }
});
