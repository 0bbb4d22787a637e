/**
 * The writer drains: after a department's linger the writing process drains the department's
 * outbox itself (one round, no lease) and sends no queue message; the writes of a department
 * within the linger share that round; a round lost to another drainer, a backlog larger than one
 * round and a drain that fails all hand over to the queue worker through a nudge.
 */
import { createDirectory, type Directory } from '../../../src/directory/directory';
import { newDrainCache } from '../../../src/indexing/drainCache';
import { getEmployeeByEmailEventually } from '../../../src/indexing/indexQueries';
import type { IndexStores } from '../../../src/indexing/indexStores';
import { drainDepartment } from '../../../src/indexing/leasedDrain';
import { queueChangeSink, type ChangeQueue } from '../../../src/indexing/queueChangeSink';
import { SharedDrains } from '../../../src/indexing/sharedDrains';
import {
  drainAfterWrite,
  WRITER_DRAIN_CHANGES,
  writerDrains,
} from '../../../src/indexing/writerDrain';
import { ensureQueue } from '../../../src/storage/createOnce';
import { rowKeyRangeFilter } from '../../../src/storage/filters';
import { departmentPartitionKey, outboxRowKeyRange } from '../../../src/storage/keys';
import {
  createIndexingFixture,
  employeeBody as body,
  pauseAfter,
  type IndexingFixture,
} from './fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  await fx.directory.departments.put('Sales', {});
  await ensureQueue(fx.clients.queue(fx.names.queue));
});
afterEach(() => fx.cleanup());

/** A directory over the fixture's tables whose sink drains in the writing process. */
function writingProcess(drain: (department: string) => Promise<unknown>): {
  directory: Directory;
  sink: ChangeQueue;
} {
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), {
    drain,
  });
  return { directory: createDirectory({ employees: fx.stores.employees, changes: sink }), sink };
}

const queued = async (): Promise<number> =>
  (await fx.clients.queue(fx.names.queue).getProperties()).approximateMessagesCount ?? 0;
const outboxRows = async (): Promise<number> => {
  let rows = 0;
  const filter = rowKeyRangeFilter(departmentPartitionKey('Sales'), outboxRowKeyRange());
  for await (const _ of fx.stores.employees.listEntities({ queryOptions: { filter } })) rows++;
  return rows;
};
const indexed = (email: string) =>
  getEmployeeByEmailEventually(fx.stores.index, 'Sales', email).then(
    (found) => found.value.employeeId,
    () => undefined,
  );
/** The same stores as another process has them: its own drain cache. */
const anotherProcess = (): IndexStores => ({ ...fx.stores, drainCache: newDrainCache() });

it('drains in the writing process after the linger, one round for the writes of the linger, and sends no queue message', async () => {
  const drains = writerDrains(new SharedDrains({ ...fx.stores, drainCache: newDrainCache() }));
  const calls: string[] = [];
  const rounds: number[] = [];
  const { directory, sink } = writingProcess(async (department) => {
    calls.push(department);
    rounds.push((await drains(department)).rounds);
  });
  for (const n of [1, 3, 5]) await directory.employees.create('Sales', body(n));
  await sink.settled();

  expect(calls).toEqual(['Sales']);
  expect(rounds).toEqual([1]);
  expect(await queued()).toBe(0);
  for (const n of [1, 3, 5]) expect(await indexed(`u${n}@contoso.com`)).toBe(`00000${n}`);
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

/** A directory over the fixture's tables that records outbox rows and sends no nudge. */
const silentDirectory = (): Directory =>
  createDirectory({ employees: fx.stores.employees, outbox: true });

it('hands over to the queue when its round is lost to another drainer', async () => {
  const directory = silentDirectory();
  await directory.employees.create('Sales', body(1));
  await drainDepartment(fx.stores, 'Sales');
  await directory.employees.patch('Sales', '000001', { firstName: 'Renamed' });
  const writer = pauseAfter('snapshot');
  const writing = drainAfterWrite(fx.stores, 'Sales', undefined, { afterStep: writer.afterStep });
  await writer.reached; // the writer read the targets and the sources
  // The employee changes again and another drainer drains it (the fences move): the writer's
  // round, from its older read, must not be written, and nobody else has been nudged.
  await directory.employees.patch('Sales', '000001', { firstName: 'Again' });
  await drainDepartment(anotherProcess(), 'Sales');
  writer.release();

  expect(await writing).toMatchObject({ outcome: 'continued', rows: 0 });
  expect(await queued()).toBe(1);
  expect(await fx.drain()).toBe(1);
  const entry = await getEmployeeByEmailEventually(fx.stores.index, 'Sales', 'u1@contoso.com');
  expect(entry.value.firstName).toBe('Again');
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

it('hands over a round only the fence stops, and the newer change is indexed', async () => {
  // The other drainer's round leaves the entry the writer would write as it found it (absent), so
  // no entry ETag can stop the writer's stale create: only the by-email partition's fence does.
  const directory = silentDirectory();
  await directory.employees.create('Sales', body(1)); // u1@contoso.com, not drained yet
  const writer = pauseAfter('snapshot');
  const writing = drainAfterWrite(fx.stores, 'Sales', undefined, { afterStep: writer.afterStep });
  await writer.reached; // the writer read: no entries, no fences; u1@ held by 000001
  await directory.employees.patch('Sales', '000001', { email: 'moved@contoso.com' });
  await drainDepartment(anotherProcess(), 'Sales'); // indexes moved@, u1@ stays absent
  writer.release();

  expect(await writing).toMatchObject({ outcome: 'continued', rows: 0 });
  expect(await queued()).toBe(1);
  await fx.drain();
  // Without the fence the writer would have created u1@'s entry from its older read, and with
  // its rows gone nobody would ever look at u1@ again.
  expect(await indexed('u1@contoso.com')).toBeUndefined();
  expect(await indexed('moved@contoso.com')).toBe('000001');
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

it('takes one bounded round of a backlog and leaves the rest to the queue', async () => {
  const rows = Array.from({ length: 150 }, (_, i) => body(101 + i));
  const imported = await silentDirectory().employees.import('Sales', rows);
  expect(imported.created).toBe(150);

  const result = await drainAfterWrite(fx.stores, 'Sales');
  expect(result).toMatchObject({ outcome: 'continued', rounds: 1 });
  expect(result.employees).toBeGreaterThan(0);
  expect(result.employees).toBeLessThanOrEqual(WRITER_DRAIN_CHANGES);
  expect(await outboxRows()).toBeGreaterThan(0);
  expect(await queued()).toBe(1);
  await fx.drain();
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

it('sends the nudge after all when the writer drain fails', async () => {
  const { directory, sink } = writingProcess(() => Promise.reject(new Error('storage down')));
  await directory.employees.create('Sales', body(1));
  await sink.settled();
  expect(await queued()).toBe(1);
  await fx.drain();
  expect(await indexed('u1@contoso.com')).toBe('000001');
});
