/**
 * A process's shared drains (src/indexing/drain/sharedDrains.ts) carry the handler of gone employees
 * that the composition root gives them: every path that drains through them — a queue nudge, a v1
 * change message an earlier deploy left on the queue, the outbox sweep, the writer's own drain —
 * reports the employees it found gone to that handler, and to nothing kept per module.
 */
import { createDirectory, type Directory } from '../../../../src/directory/directory';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import { handleIndexUpdateMessage } from '../../../../src/indexing/queue/indexUpdates';
import { sweepOutboxes } from '../../../../src/indexing/drain/outboxSweep';
import { SharedDrains } from '../../../../src/indexing/drain/sharedDrains';
import { writerDrains } from '../../../../src/indexing/drain/writerDrain';
import { nothingDrained } from '../../../../src/indexing/drain/leasedDrain';
import { outboxPending } from '../../../../src/indexing/drain/outboxDrainWork';
import { departmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  await fx.directory.departments.put('Sales', {});
});
afterEach(() => fx.cleanup());

/** Shared drains of the fixture's stores whose handler records each gone employee. */
function recordingDrains(): { drains: SharedDrains; gone: string[] } {
  const gone: string[] = [];
  const drains = new SharedDrains(fx.stores, {
    onGone: async (department, employeeId) => {
      gone.push(`${department}/${employeeId}`);
    },
  });
  return { drains, gone };
}

/** A directory over the fixture's tables that records outbox rows and sends no nudge. */
const silentDirectory = (): Directory =>
  createDirectory({ employees: fx.stores.employees, outbox: true });

/** Whether Sales's outbox holds a row. */
const outboxHolds = () => outboxPending(fx.stores.employees, departmentPartitionKey('Sales'));

/** Employees 1 and 2 indexed, then 1 deleted without a nudge: its outbox row waits. */
async function oneDeletedUndrained(): Promise<void> {
  const directory = silentDirectory();
  await directory.employees.create('Sales', body(1));
  await directory.employees.create('Sales', body(2));
  await handleIndexUpdateMessage(fx.drains, { v: 2, departments: ['Sales'] });
  await directory.employees.delete('Sales', '000001');
}

it("reports the employees a nudge's drain found gone to the handler it was built with", async () => {
  await oneDeletedUndrained();
  const { drains, gone } = recordingDrains();

  const outcome = await handleIndexUpdateMessage(drains, { v: 2, departments: ['Sales'] });

  expect(outcome).toMatchObject({ employees: 1, gone: 1 });
  expect(gone).toEqual(['Sales/000001']);
  expect(await fx.drift()).toEqual([]);
});

it('still reads a v1 change message left on the queue, and reports its gone employees', async () => {
  await oneDeletedUndrained();
  const { drains, gone } = recordingDrains();

  const outcome = await handleIndexUpdateMessage(drains, {
    v: 1,
    changes: [
      { department: 'Sales', employeeId: '000001', reason: 'announced' },
      { department: 'Sales', employeeId: '000002', reason: 'updated' },
    ],
  });

  expect(outcome).toEqual({ employees: 2, gone: 1 });
  expect(gone).toEqual(['Sales/000001']);
});

it('reports the gone employees of the outbox sweep', async () => {
  await oneDeletedUndrained();
  const { drains, gone } = recordingDrains();

  const report = await sweepOutboxes(drains);

  expect(report).toMatchObject({ rows: 1, failed: [] });
  expect(gone).toEqual(['Sales/000001']);
});

it("reports the gone employees of the writer's own drain to the process's handler", async () => {
  await oneDeletedUndrained();
  const { drains, gone } = recordingDrains();

  const result = await writerDrains(drains)('Sales');

  expect(result).toMatchObject({ outcome: 'drained', gone: 1 });
  expect(gone).toEqual(['Sales/000001']);
});

it('keeps nothing between two processes: drains of the same stores built apart share no handler', async () => {
  await oneDeletedUndrained();
  const first = recordingDrains();
  const second = recordingDrains();

  await handleIndexUpdateMessage(second.drains, { v: 2, departments: ['Sales'] });

  expect(second.gone).toEqual(['Sales/000001']);
  expect(first.gone).toEqual([]);
});

it('drains again for a request made while the hand-over nudge was stored but not yet answered', async () => {
  // 150 employees imported: more than one writer round, so the writer's drain hands over.
  const imported = await silentDirectory().employees.import(
    'Sales',
    Array.from({ length: 150 }, (_, i) => body(101 + i)),
  );
  expect(imported.created).toBe(150);
  // The hand-over nudge reaches the queue, and its answer is held until the test releases it.
  let stored!: () => void;
  let release!: () => void;
  const nudgeStored = new Promise<void>((resolve) => (stored = resolve));
  const answered = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const drains = writerDrains(
    new SharedDrains({
      ...fx.stores,
      nudge: async (department, delay, holder) => {
        await fx.stores.nudge!(department, delay, holder);
        if (held) return;
        held = true;
        stored();
        await answered;
      },
    }),
  );

  const first = drains('Sales');
  await nudgeStored;
  // A worker takes that nudge and drains the outbox to its end...
  expect(await fx.drain()).toBeGreaterThanOrEqual(1);
  // ...then a write commits and its writer asks for a drain, which joins the one still waiting
  // for its nudge's answer. That nudge was drained before this commit: it cannot stand for it.
  await silentDirectory().employees.create('Sales', body(999));
  const second = drains('Sales');
  release();
  await Promise.all([first, second]);
  await fx.drain();

  expect(
    await getEmployeeByEmailEventually(fx.stores.index, 'Sales', 'u999@contoso.com').then(
      (found) => found.value.employeeId,
      () => undefined,
    ),
  ).toBe('000999');
  expect(await fx.drift()).toEqual([]);
});

it('answers a request with the drain that started after it, not with the drains later requests keep asking for', async () => {
  // A department written to without pause while this process drains it: during every round a
  // write commits and its request joins (a cover, a writer's request folded into the leased drain).
  const directory = silentDirectory();
  await directory.employees.create('Sales', body(1));
  let reads = 0;
  let written = 1;
  const later: Promise<unknown>[] = [];
  const drains = new SharedDrains(fx.stores, {
    afterStep: async (step) => {
      if (step !== 'read') return;
      reads += 1;
      if (written >= 6) return;
      written += 1;
      await directory.employees.create('Sales', body(written));
      later.push(drains.request('Sales'));
    },
  });

  const first = await drains.request('Sales').then((result) => ({ result, reads }));

  // The first caller (a queue message's invocation) is done when its drain is: one round, its
  // row. Before, it waited until the requests stopped — here five more drains, in production as
  // long as the department is written to, past the invocation's budget.
  expect(first).toMatchObject({ reads: 1, result: { outcome: 'drained', rows: 1 } });
  // The later requests are still answered, each by a drain that read the outbox after its commit.
  while (drains.isRunning('Sales')) await Promise.all(later);
  const answers = await Promise.all(later);
  expect(answers).toHaveLength(5);
  expect(reads).toBeGreaterThanOrEqual(6);
  expect(await outboxHolds()).toBe(false);
  expect(await fx.drift()).toEqual([]);
});

it('fails every caller a failing drain answers, and the next request drains afresh', async () => {
  // A drain of this process's own, held until released, then failing once.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let drains = 0;
  const shared = new SharedDrains(fx.stores, {
    drain: async () => {
      drains += 1;
      if (drains > 1) return { ...nothingDrained(), complete: true };
      await held;
      throw new Error('storage went away');
    },
  });

  const first = shared.request('Sales');
  const second = shared.request('Sales');
  release();
  await expect(first).rejects.toThrow('storage went away');
  await expect(second).rejects.toThrow('storage went away');
  expect(shared.isRunning('Sales')).toBe(false);

  await expect(shared.request('Sales')).resolves.toMatchObject({ outcome: 'drained' });
  expect(drains).toBe(2);
});

it('runs the drain for requests that came during another in the call of one of them', async () => {
  // The first caller's drain is held; two requests join meanwhile. Once the first drain ends, its
  // caller is answered at once, and one drain more answers both of the others.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const started: number[] = [];
  const shared = new SharedDrains(fx.stores, {
    drain: async () => {
      started.push(started.length + 1);
      if (started.length === 1) await held;
      return { ...nothingDrained(), rows: started.length, complete: true };
    },
  });

  const first = shared.request('Sales');
  const second = shared.request('Sales');
  const third = shared.request('Sales');
  release();
  expect(await first).toMatchObject({ rows: 1 });
  expect(await Promise.all([second, third])).toMatchObject([{ rows: 2 }, { rows: 2 }]);
  expect(started).toEqual([1, 2]);
  expect(shared.isRunning('Sales')).toBe(false);
});
