/**
 * The writer drains: after a department's linger the writing process drains the department's
 * outbox itself (one round, no lease) and sends no queue message; the writes of a department
 * within the linger share that round; a round lost to another drainer, a backlog larger than one
 * round and a drain that fails all hand over to the queue worker through a nudge.
 */
import { createDirectory, type Directory } from '../../../../src/directory/directory';
import { newDrainCache } from '../../../../src/indexing/drain/drainCache';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import type { IndexStores } from '../../../../src/indexing/indexStores';
import { drainDepartment } from '../../../../src/indexing/drain/leasedDrain';
import { queueChangeSink, type ChangeQueue } from '../../../../src/indexing/queue/queueChangeSink';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import {
  drainAfterWrite,
  WRITER_DRAIN_CHANGES,
  writerDrains,
} from '../../../../src/indexing/drain/writerDrain';
import { handleIndexUpdateMessage } from '../../../../src/indexing/queue/indexUpdates';
import { ensureQueue } from '../../../../src/storage/createOnce';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import { rowKeyRangeFilter } from '../../../../src/storage/tables/filters';
import {
  DRAIN_LEASE_ROW_KEY,
  drainLeasePartitionKey,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { departmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import { outboxRowKeyRange } from '../../../../src/storage/keys/tables/outbox';
import {
  createIndexingFixture,
  employeeBody as body,
  pauseAfter,
  type IndexingFixture,
} from '../fixture';
import { WAIT_MS } from '../../../support/waits';
import { refuseCovers } from '../../../support/queueFaults';

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
  // A linger long enough for the test's writes on a loaded machine (each waits for its cover).
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), { drain, drainLingerMs: 2_000 });
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
  // Only the delayed cover the writes waited for (surfacing after the writer's round, it finds
  // the outbox empty); no nudge.
  expect(await queued()).toBe(1);
  expect((await fx.clients.queue(fx.names.queue).peekMessages()).peekedMessageItems).toEqual([]);
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
  expect(await queued()).toBe(2); // the delayed cover, and the nudge visible at once
  expect((await fx.clients.queue(fx.names.queue).peekMessages()).peekedMessageItems).toHaveLength(
    1,
  );
  await fx.drain();
  expect(await indexed('u1@contoso.com')).toBe('000001');
});

/** Receives the next message of the fixture's queue, waiting up to `ms` for one to surface. */
async function nextMessage(ms: number) {
  const queue = fx.clients.queue(fx.names.queue);
  const deadline = Date.now() + ms;
  for (;;) {
    const [item] = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems;
    if (item) return { queue, item };
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('returns a write once its delayed cover is stored, one for the writes of its window, and the cover costs no round when the writer drained first', async () => {
  const drains = writerDrains(new SharedDrains({ ...fx.stores, drainCache: newDrainCache() }));
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), {
    drain: drains,
    drainLingerMs: 50,
    coverDelaySeconds: 2,
  });
  const directory = createDirectory({ employees: fx.stores.employees, changes: sink });
  await directory.employees.create('Sales', body(1));
  // Stored before the write returned (no settled() here), and invisible.
  expect(await queued()).toBe(1);
  expect((await fx.clients.queue(fx.names.queue).peekMessages()).peekedMessageItems).toEqual([]);
  await directory.employees.create('Sales', body(3));
  await sink.settled(); // the writer's own drain after the linger
  expect(await queued()).toBe(1); // both writes share the cover
  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await indexed('u3@contoso.com')).toBe('000003');

  const cover = await nextMessage(WAIT_MS);
  expect(cover && decodeQueueMessage(cover.item.messageText)).toEqual({
    v: 2,
    departments: ['Sales'],
    before: expect.any(Number), // the end of its window: the rows it answers for are older
  });
  // The outbox is empty: no round, and the lease is not even read.
  const leased = new SharedDrains(anotherProcess());
  expect(
    await handleIndexUpdateMessage(leased, decodeQueueMessage(cover!.item.messageText)),
  ).toEqual({ employees: 0, gone: 0 });
  expect(
    await fx.stores.index.getEntity(drainLeasePartitionKey('Sales'), DRAIN_LEASE_ROW_KEY).then(
      () => 'read',
      () => 'none',
    ),
  ).toBe('none');
});

it("leaves no change to a writer that stops before its drain: the cover, stored before the write returned, brings another process's worker", async () => {
  // The writing process answers and then stops: its drain never runs.
  const neverDrains: string[] = [];
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), {
    drain: async (department) => {
      neverDrains.push(department);
    },
    coverDelaySeconds: 1,
  });
  const directory = createDirectory({ employees: fx.stores.employees, changes: sink });
  await directory.employees.create('Sales', body(1));
  expect(await outboxRows()).toBe(1);

  // Another process's queue worker, with nothing but the queue to go by.
  const cover = await nextMessage(WAIT_MS);
  expect(cover).toBeDefined();
  const other = new SharedDrains(anotherProcess());
  await handleIndexUpdateMessage(other, decodeQueueMessage(cover!.item.messageText));
  await cover!.queue.deleteMessage(cover!.item.messageId, cover!.item.popReceipt);

  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

it('makes a write whose cover cannot be stored wait for its own drain instead', async () => {
  const drains = writerDrains(new SharedDrains({ ...fx.stores, drainCache: newDrainCache() }));
  const failed: string[] = [];
  const sink = queueChangeSink(refuseCovers(fx.clients.queue(fx.names.queue)), {
    drain: drains,
    drainLingerMs: 60_000, // the prompt path would come long after the answer
    onNudgeError: (_error, department) => failed.push(department),
  });
  const directory = createDirectory({ employees: fx.stores.employees, changes: sink });

  await directory.employees.create('Sales', body(1));

  // Answered: nothing is left that needs this process to live on (before, the row waited for the
  // linger's timer, and for the sweep if the process stopped).
  expect(failed).toEqual(['Sales']);
  expect(await outboxRows()).toBe(0);
  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await queued()).toBe(0);
});

it('opens a new cover for a write published after the last one may have surfaced', async () => {
  let now = 1_700_000_000_000;
  const sink = queueChangeSink(fx.clients.queue(fx.names.queue), {
    drain: async () => undefined,
    coverDelaySeconds: 30,
    now: () => now,
  });
  const publish = () =>
    sink.publish([{ department: 'Sales', employeeId: '000001', reason: 'updated' }]);
  await publish();
  now += 29_000; // within the window (30 s less the margin)
  await publish();
  expect(await queued()).toBe(1);
  now += 800; // 29.8 s: past the window's margin
  await publish();
  expect(await queued()).toBe(2);
});

it("answers a cover only for rows written before its window closed: a younger row is left to its writer and that row's own cover", async () => {
  const windowClosed = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5));
  await silentDirectory().employees.create('Sales', body(1)); // written after the window
  const other = new SharedDrains(anotherProcess());
  const cover = (before: number) =>
    handleIndexUpdateMessage(other, { v: 2, departments: ['Sales'], before });

  expect(await cover(windowClosed)).toEqual({ employees: 0, gone: 0 });
  expect(await outboxRows()).toBe(1);
  expect(
    await fx.stores.index.getEntity(drainLeasePartitionKey('Sales'), DRAIN_LEASE_ROW_KEY).then(
      () => 'read',
      () => 'none',
    ),
  ).toBe('none');

  // A cover whose window closed after the row was written drains it.
  expect(await cover(Date.now() + 1)).toEqual({ employees: 1, gone: 0 });
  expect(await outboxRows()).toBe(0);
  expect(await indexed('u1@contoso.com')).toBe('000001');
});
