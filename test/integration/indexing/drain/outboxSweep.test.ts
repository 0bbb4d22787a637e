/**
 * The outbox sweep at its documented cost, counted by the proxy in front of Azurite: one query of
 * the pending-work markers (with the walk's checkpoint) whatever the number of departments; the
 * walk, a scan across partitions that finds every department holding outbox rows (listed or not),
 * runs once an hour. More in pendingWork.test.ts.
 */
import { createDirectory } from '../../../../src/directory/directory';
import { sweepOutboxes, DISCOVERY_INTERVAL_MS } from '../../../../src/indexing/drain/outboxSweep';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../../../src/storage/keys/tables/employees';
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { testClients } from '../../../support/storage';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let proxy: FaultProxy;
let fx: IndexingFixture;
beforeEach(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  fx = createIndexingFixture({ clients: testClients(proxy.connectionString) });
});
afterEach(async () => {
  await fx.cleanup();
  await proxy.stop();
});

const start = 1_700_000_000_000;
const minutes = (n: number): number => n * 60_000;
/** A directory over the fixture's tables that records outbox rows and sends no nudge. */
const silentDirectory = () => createDirectory({ employees: fx.stores.employees, outbox: true });
const indexed = (department: string, email: string) =>
  getEmployeeByEmailEventually(fx.stores.index, department, email).then(
    (found) => found.value.employeeId,
    () => undefined,
  );

it('costs one query when idle, whatever the departments; the table scan runs once an hour', async () => {
  for (const department of ['Eng', 'Ops', 'Sales', 'Support']) {
    await fx.directory.departments.put(department, {});
  }
  const drains = new SharedDrains(fx.stores);
  let now = start;
  const sweep = () => sweepOutboxes(drains, { now: () => now });
  // The first sweep ever has no checkpoint: it walks.
  expect(await sweep()).toMatchObject({ departments: 0, rows: 0, discovered: true, failed: [] });

  now += minutes(5);
  proxy.resetCounts();
  expect(await sweep()).toMatchObject({ departments: 0, rows: 0, discovered: false, failed: [] });
  // The markers with the checkpoint: no listing, no outbox read, no lease.
  expect(proxy.counts().byKind).toEqual({ 'table:GET': 1 });

  now = start + DISCOVERY_INTERVAL_MS;
  proxy.resetCounts();
  expect(await sweep()).toMatchObject({ departments: 0, discovered: true, failed: [] });
  // Once an hour: the scan across partitions and the checkpoint's write on top.
  expect(proxy.counts().byKind).toEqual({ 'table:GET': 2, 'table:PUT': 1 });
});

it('finds a department missing from the listing by the hourly walk', async () => {
  await fx.directory.departments.put('Sales', {});
  await fx.directory.departments.put('Lost', {});
  // Lost's creating PUT failed between the department entity and its listing.
  await fx.stores.employees.deleteEntity(
    DEPARTMENT_LIST_PARTITION_KEY,
    departmentListRowKey('Lost'),
  );
  // A change nobody was asked to drain, nor marked (its process died before its cover).
  await silentDirectory().employees.create('Lost', body(1));
  const drains = new SharedDrains(fx.stores);
  let now = start;
  const sweep = () => sweepOutboxes(drains, { now: () => now });

  expect(await sweep()).toMatchObject({ departments: 1, rows: 1, discovered: true, failed: [] });
  expect(await indexed('Lost', 'u1@contoso.com')).toBe('000001');

  // Another such change after the walk: left to the next walk (or a marker, had one been written).
  await silentDirectory().employees.create('Lost', body(3));
  now += minutes(5);
  expect(await sweep()).toMatchObject({ departments: 0, rows: 0, discovered: false });
  now = start + DISCOVERY_INTERVAL_MS;
  expect(await sweep()).toMatchObject({ departments: 1, rows: 1, discovered: true, failed: [] });
  expect(await indexed('Lost', 'u3@contoso.com')).toBe('000003');
});
