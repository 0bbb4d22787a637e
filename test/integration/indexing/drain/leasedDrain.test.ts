/**
 * Drains under the department's drain lease, in bounded invocations: a second drainer runs no
 * round while the first holds the lease, and the change behind its nudge is drained when the
 * first finishes; a lease whose holder died expires and the next drainer takes over; a long
 * backlog is worked off in several invocations, each within its bounds, continued by nudges.
 */
import { TableTransaction } from '@azure/data-tables';
import { createDirectory } from '../../../../src/directory/directory';
import { outboxEntity, type OutboxChange } from '../../../../src/directory/entities/outbox';
import { newDrainCache } from '../../../../src/indexing/drain/drainCache';
import { acquireDrainLease } from '../../../../src/indexing/drain/drainLease';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import type { IndexStores } from '../../../../src/indexing/indexStores';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import {
  drainDepartment,
  type LeasedDrainResult,
} from '../../../../src/indexing/drain/leasedDrain';
import type { DrainStep } from '../../../../src/indexing/drain/outboxDrainRounds';
import { departmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import { outboxRowKeyRange } from '../../../../src/storage/keys/tables/outbox';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import { handleIndexUpdateMessage } from '../../../../src/indexing/queue/indexUpdates';
import { indexFenceEntity } from '../../../../src/indexing/employeeIndex/indexEntities';
import {
  DRAIN_LEASE_ROW_KEY,
  drainLeasePartitionKey,
  emailIndexPartitionKey,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { rowKeyRangeFilter } from '../../../../src/storage/tables/filters';
import {
  createIndexingFixture,
  employeeBody as body,
  pauseAfter,
  type IndexingFixture,
} from '../fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  await fx.directory.departments.put('Sales', {});
});
afterEach(() => fx.cleanup());

/** The same stores as another process has them: its own drain cache. */
const anotherProcess = (): IndexStores => ({ ...fx.stores, drainCache: newDrainCache() });

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

/** A directory over the fixture's tables that records outbox rows and sends no nudge. */
const silentDirectory = () => createDirectory({ employees: fx.stores.employees, outbox: true });

it('runs no round in a second drainer while the first holds the lease, and drains its change when the first finishes', async () => {
  await fx.directory.employees.create('Sales', body(1));
  const first = pauseAfter('snapshot');
  const holding = drainDepartment(fx.stores, 'Sales', { afterStep: first.afterStep });
  await first.reached; // the first drainer read the outbox (employee 1 only) and holds the lease
  await fx.directory.employees.create('Sales', body(3)); // committed, then its nudge:
  const steps: DrainStep[] = [];
  const second = await drainDepartment(anotherProcess(), 'Sales', {
    afterStep: (step) => {
      steps.push(step);
    },
  });
  expect(second).toMatchObject({ outcome: 'absorbed', rounds: 0, rows: 0 });
  expect(steps).toEqual([]);
  expect(await indexed('u3@contoso.com')).toBeUndefined();

  first.release();
  const result = await holding;
  // The first drainer could not release the lease without seeing the absorbed nudge: it drained
  // again, so employee 3 is indexed when it returns, with no nudge or sweep after it.
  expect(result).toMatchObject({ outcome: 'drained', rows: 2, complete: true });
  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await indexed('u3@contoso.com')).toBe('000003');
  expect(await outboxRows()).toBe(0);
  expect(await fx.drift()).toEqual([]);
});

it('lets the next drainer take over a lease whose holder died, once it expired', async () => {
  let now = 1_700_000_000_000;
  const clock = { now: () => now, limits: { leaseMs: 60_000 } };
  await fx.directory.employees.create('Sales', body(1));
  // The holder takes the lease, reads the outbox and dies there: it never releases the lease.
  const dead = pauseAfter('read');
  void drainDepartment(fx.stores, 'Sales', { ...clock, afterStep: dead.afterStep });
  await dead.reached;

  now += 59_000;
  const early = await drainDepartment(anotherProcess(), 'Sales', clock);
  expect(early).toMatchObject({ outcome: 'absorbed', rounds: 0 });
  expect(await outboxRows()).toBe(1);

  now += 1_001; // past the dead holder's expiry
  const takeover = await drainDepartment(anotherProcess(), 'Sales', clock);
  expect(takeover).toMatchObject({ outcome: 'drained', rows: 1 });
  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await outboxRows()).toBe(0);
  // The lease is free again: the next drainer takes it at once.
  const held = await acquireDrainLease(fx.stores.index, 'Sales', 'next', {
    durationMs: 60_000,
    now: () => now,
  });
  expect('held' in held).toBe(true);
});

it('sends a nudge that outlives the holder when it absorbs the first request', async () => {
  let now = 1_700_000_000_000;
  const clock = { now: () => now };
  await silentDirectory().employees.create('Sales', body(1)); // something to drain
  await acquireDrainLease(fx.stores.index, 'Sales', 'dead holder', {
    durationMs: 60_000,
    now: () => now,
  });
  const sent: { department: string; delay: number; holder?: string }[] = [];
  const stores: IndexStores = {
    ...anotherProcess(),
    nudge: async (department, delay, holder) => {
      sent.push({ department, delay, holder });
    },
  };
  now += 10_000;
  await drainDepartment(stores, 'Sales', clock);
  // Already requested (and this drain does not answer that holder's expiry nudge): no second.
  await drainDepartment(stores, 'Sales', clock);
  expect(sent).toEqual([{ department: 'Sales', delay: 51, holder: 'dead holder' }]);
});

it('costs one outbox read and leaves the lease alone when there is nothing to drain', async () => {
  await acquireDrainLease(fx.stores.index, 'Sales', 'holder', {
    durationMs: 60_000,
    now: () => Date.now(),
  });
  const sent: number[] = [];
  const stores: IndexStores = {
    ...anotherProcess(),
    nudge: async (_department, delay) => {
      sent.push(delay);
    },
  };
  const lease = () =>
    fx.stores.index.getEntity(drainLeasePartitionKey('Sales'), DRAIN_LEASE_ROW_KEY);
  const before = (await lease()).etag;
  expect(await drainDepartment(stores, 'Sales')).toMatchObject({
    outcome: 'drained',
    rounds: 0,
    complete: true,
  });
  expect((await lease()).etag).toBe(before); // no request recorded: nothing was asked of the holder
  expect(sent).toEqual([]);
});

it("sends the expiry nudge again when it arrives while the lease still looks held: the receiving instance's clock runs behind the holder's", async () => {
  const holderTime = 1_700_000_000_000;
  await silentDirectory().employees.create('Sales', body(1));
  // The holder takes the lease at its time T (it expires at T + 60 s) and dies.
  await acquireDrainLease(fx.stores.index, 'Sales', 'dead holder', {
    durationMs: 60_000,
    now: () => holderTime,
  });
  const sent: { department: string; delay: number; holder?: string }[] = [];
  const stores: IndexStores = {
    ...anotherProcess(),
    nudge: async (department, delay, holder) => {
      sent.push({ department, delay, holder });
    },
  };
  // A nudge at T + 10 s is absorbed; the expiry nudge it sends surfaces at T + 61 s, naming the holder.
  const first = await drainDepartment(stores, 'Sales', { now: () => holderTime + 10_000 });
  expect(first).toMatchObject({ outcome: 'absorbed' });
  expect(sent).toEqual([{ department: 'Sales', delay: 51, holder: 'dead holder' }]);

  // The instance that receives it runs 2 s behind the holder: T + 59 s by its clock, so the lease
  // looks held, with the request (the one this nudge was sent for) still pending.
  const behind = new SharedDrains(stores, { now: () => holderTime + 59_000 });
  const handled = await handleIndexUpdateMessage(behind, {
    v: 2,
    departments: ['Sales'],
    holder: 'dead holder',
  });
  expect(handled).toEqual({ employees: 0, gone: 0 });
  // Not absorbed by that request: sent again, to surface once the lease expired by this clock.
  expect(sent).toEqual([
    { department: 'Sales', delay: 51, holder: 'dead holder' },
    { department: 'Sales', delay: 2, holder: 'dead holder' },
  ]);
  expect(await indexed('u1@contoso.com')).toBeUndefined();

  const later = new SharedDrains(stores, { now: () => holderTime + 61_500 });
  expect(await later.request('Sales', { holder: 'dead holder' })).toMatchObject({
    outcome: 'drained',
    rows: 1,
  });
  expect(await indexed('u1@contoso.com')).toBe('000001');
  expect(await outboxRows()).toBe(0);
});

it('checks the budget and renews the lease before it reruns a lost round', async () => {
  let now = 1_700_000_000_000;
  await silentDirectory().employees.create('Sales', body(1));
  const leaseExpiries: number[] = [];
  // Every round is lost: another writer writes the by-email fence between the round's reads and
  // its writes. Each round takes 20 s by the drainer's clock.
  const afterStep = async (step: DrainStep): Promise<void> => {
    if (step !== 'snapshot') return;
    now += 20_000;
    const lease = await fx.stores.index.getEntity<{ ExpiresAt: Date }>(
      drainLeasePartitionKey('Sales'),
      DRAIN_LEASE_ROW_KEY,
    );
    leaseExpiries.push(new Date(lease.ExpiresAt).getTime());
    await fx.stores.index.upsertEntity(
      indexFenceEntity(emailIndexPartitionKey('Sales')),
      'Replace',
    );
  };
  const sent: number[] = [];
  const stores: IndexStores = {
    ...anotherProcess(),
    nudge: async (_department, delay) => {
      sent.push(delay);
    },
  };

  const result = await drainDepartment(stores, 'Sales', {
    now: () => now,
    afterStep,
    sleep: async () => undefined,
    limits: { invocationMs: 30_000, leaseMs: 60_000 },
  });

  // Round 1 at 0 s, its rerun at 20 s (renewing the lease, a quarter of it having passed), then
  // 40 s: past the 30 s budget, so no further rerun; the drain continues through a nudge.
  expect(result).toMatchObject({ outcome: 'continued', rounds: 2, rows: 0 });
  expect(sent).toEqual([0]);
  const start = 1_700_000_000_000;
  expect(leaseExpiries).toEqual([start + 60_000, start + 20_000 + 60_000]);
  expect(await outboxRows()).toBe(1);
});

it('works off a long backlog in several invocations, each within its bounds', async () => {
  // A backlog of 30 rounds: 60 rows in rounds of 2 (the limits are the drain's options, and the
  // bounds work the same at any size; the audit at the end costs requests per employee).
  const BACKLOG = 60;
  const plain = createDirectory({ employees: fx.stores.employees });
  const rows = Array.from({ length: BACKLOG }, (_, i) => body(i + 1));
  expect((await plain.employees.import('Sales', rows)).created).toBe(BACKLOG);
  // Stored without outbox rows, then one outbox row each.
  const partitionKey = departmentPartitionKey('Sales');
  for (let start = 1; start <= BACKLOG; start += 100) {
    const transaction = new TableTransaction();
    for (let n = start; n < Math.min(start + 100, BACKLOG + 1); n++) {
      const employee = body(n);
      const change: OutboxChange = {
        employeeId: employee.employeeId,
        reason: 'imported',
        current: { email: employee.email, lastName: employee.lastName },
      };
      transaction.upsertEntity(outboxEntity(partitionKey, [change]), 'Replace');
    }
    await fx.stores.employees.submitTransaction(transaction.actions);
  }
  expect(await outboxRows()).toBe(BACKLOG);

  // A clock that moves 3 s a round: an invocation starts no round after 10 s, so it runs 4.
  let now = 1_700_000_000_000;
  const limits = { changesPerRound: 2, invocationMs: 10_000, changesPerInvocation: 10_000 };
  const drains = new SharedDrains(fx.stores, {
    limits,
    now: () => now,
    afterStep: (step) => {
      if (step === 'deleted') now += 3_000;
    },
  });
  const stores = fx.stores;
  const queue = fx.clients.queue(fx.names.queue);
  await stores.nudge!('Sales', 0);
  const invocations: (LeasedDrainResult & { ms: number })[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 1 });
    const item = receivedMessageItems[0];
    if (!item) break;
    expect(decodeQueueMessage(item.messageText)).toEqual({ v: 2, departments: ['Sales'] });
    const startedAt = now;
    const result = await drains.request('Sales');
    invocations.push({ ...result, ms: now - startedAt });
    await queue.deleteMessage(item.messageId, item.popReceipt);
    expect(invocations.length).toBeLessThan(20);
  }

  expect(invocations.length).toBeGreaterThanOrEqual(8);
  for (const invocation of invocations) {
    expect(invocation.rounds).toBeLessThanOrEqual(4); // 10 s, then one more round at most
    expect(invocation.ms).toBeLessThanOrEqual(limits.invocationMs + 3_000);
    expect(invocation.rows).toBeLessThanOrEqual(4 * limits.changesPerRound);
  }
  expect(invocations.slice(0, -1).every((i) => i.outcome === 'continued')).toBe(true);
  expect(invocations[invocations.length - 1]!.outcome).toBe('drained');
  expect(invocations.reduce((sum, i) => sum + i.rows, 0)).toBe(BACKLOG);
  expect(await outboxRows()).toBe(0);
  expect(await indexed('u59@contoso.com')).toBe('000059');
  expect(await fx.drift()).toEqual([]);
});
