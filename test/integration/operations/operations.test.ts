/**
 * The operations view over real storage: a backlog made on purpose (writes whose outbox is not
 * drained, their departments marked pending as a failed cover marks them) shows per department
 * with its oldest row's age, and is gone once drained; a department with rows a stored message
 * stands for is the queue's, not shown; poison
 * queue lengths, the log batch queue's head and each timer's last run are read as stored; only
 * the app's own queues can be inspected or replayed.
 */
import { splitIntoMessages } from '../../../src/logs/ingest/batchMessage';
import { OperationsService } from '../../../src/operations/operations';
import { markPending } from '../../../src/indexing/drain/pendingMarkers';
import { TimerRunLog } from '../../../src/operations/timerRuns';
import { poisonQueueName } from '../../../src/storage/keys/queues';
import { sendJsonMessage } from '../../../src/storage/queue';
import { ThrottleCounts } from '../../../src/storage/throttleCounts';
import { uniqueName, uniqueTableName } from '../../support/storage';
import { createIndexingFixture, employeeBody, type IndexingFixture } from '../indexing/fixture';

let fx: IndexingFixture;
let service: OperationsService;
let now: Date;
const queueNames = {
  archive: uniqueName('arc'),
  indexUpdates: uniqueName('idx'),
  logBatches: uniqueName('logs'),
};
const operationsTable = uniqueTableName('Ops');

beforeEach(async () => {
  fx = createIndexingFixture();
  now = new Date();
  service = new OperationsService({
    employees: fx.clients.table(fx.names.employees),
    queues: fx.clients,
    queueNames,
    timerRuns: new TimerRunLog(fx.clients.table(operationsTable)),
    clock: () => now,
  });
});
afterEach(() => fx.cleanup());
afterAll(async () => {
  await Promise.allSettled([
    fx.clients.table(operationsTable).deleteTable(),
    ...Object.values(queueNames).flatMap((name) => [
      fx.clients.queue(name).delete(),
      fx.clients.queue(poisonQueueName(name)).delete(),
    ]),
  ]);
});

describe('the operations view', () => {
  it('shows a made outbox backlog per department, oldest first, and nothing once drained', async () => {
    await fx.directory.departments.put('Sales', {});
    await fx.directory.departments.put('Support', {});
    await fx.directory.departments.put('Quiet', {});
    for (let n = 1; n <= 3; n++) await fx.directory.employees.create('Sales', employeeBody(n));
    await fx.directory.employees.create('Support', employeeBody(9));
    await fx.directory.employees.create('Quiet', employeeBody(20));
    // Sales and Support as if their covers had not been stored; Quiet's cover is on the queue.
    for (const department of ['Sales', 'Support']) {
      await markPending(fx.stores.employees, department, 'cover-failed');
    }
    now = new Date(Date.now() + 600_000); // ten minutes later, nothing drained yet

    const before = await service.overview();
    expect(before.generatedAt).toEqual(now);
    expect(before.outbox.departmentsChecked).toBe(2);
    expect(before.outbox.departmentsTruncated).toBe(false);
    expect(
      before.outbox.departments.map((d) => [d.department, d.pending, d.pendingCapped]),
    ).toEqual([
      ['Sales', 3, false],
      ['Support', 1, false],
    ]);
    for (const backlog of before.outbox.departments) {
      expect(backlog.oldestAgeSeconds).toBeGreaterThanOrEqual(595);
      expect(backlog.oldestAgeSeconds).toBeLessThan(700);
    }

    expect(await fx.drain()).toBeGreaterThan(0);
    // The markers stay until the sweep finds the outboxes empty (it removes them).
    const after = await service.overview();
    expect(after.outbox.departmentsChecked).toBe(2);
    expect(after.outbox.departments).toEqual([]);
  });

  it('reads an account where nothing was written yet', async () => {
    const overview = await service.overview();
    expect(overview.outbox).toEqual({
      departmentsChecked: 0,
      departmentsTruncated: false,
      pendingCap: 1_000,
      departments: [],
    });
    expect(overview.poisonQueues).toEqual(
      Object.values(queueNames).map((queue) => ({
        queue,
        poisonQueue: `${queue}-poison`,
        approximateCount: 0,
      })),
    );
    expect(overview.timers).toEqual([]);
    expect(overview.logBacklog).toEqual({
      queue: queueNames.logBatches,
      approximateCount: 0,
      oldestQueuedAt: null,
      oldestHour: null,
    });
  });

  it("shows this instance's throttle counts when given, and no throttling part without", async () => {
    expect(await service.overview()).not.toHaveProperty('throttling');
    const counts = new ThrottleCounts(now);
    const event = { account: 'home', service: 'table', resource: 'E', code: 'ServerBusy' } as const;
    counts.record({ ...event, partitionKey: 'Sales' });
    const counted = new OperationsService({
      employees: fx.clients.table(fx.names.employees),
      queues: fx.clients,
      queueNames,
      timerRuns: new TimerRunLog(fx.clients.table(operationsTable)),
      clock: () => now,
      throttling: () => counts.snapshot(),
    });
    expect((await counted.overview()).throttling).toEqual({
      since: now,
      throttled: 1,
      accounts: [
        {
          account: 'home',
          throttled: 1,
          scopes: [{ service: 'table', resource: 'E', partitionKey: 'Sales', throttled: 1 }],
        },
      ],
    });
  });

  it('counts poison messages, the log batches waiting, and shows each timer last run', async () => {
    const poison = fx.clients.queue(poisonQueueName(queueNames.archive));
    await poison.createIfNotExists();
    await sendJsonMessage(poison, { department: 'Sales', employeeId: '000001' });
    await sendJsonMessage(poison, { department: 'Sales', employeeId: '000002' });
    const logs = fx.clients.queue(queueNames.logBatches);
    await logs.createIfNotExists();
    const [batch] = splitIntoMessages('b1', 'web', [
      { at: new Date('2026-11-26T02:15:00Z'), level: 'Error', message: 'm', extra: {} },
    ]);
    await sendJsonMessage(logs, batch);
    const timers = new TimerRunLog(fx.clients.table(operationsTable));
    const startedAt = new Date('2026-11-26T01:00:00.000Z');
    const finishedAt = new Date('2026-11-26T01:00:02.500Z');
    await timers.record({
      timer: 'sweepIndexOutboxes',
      startedAt,
      finishedAt,
      outcome: 'succeeded',
    });
    await timers.record({
      timer: 'dropExpiredLoginTables',
      startedAt,
      finishedAt,
      outcome: 'failed',
      error: 'x'.repeat(5_000),
    });
    // A second run replaces the first.
    await timers.record({
      timer: 'sweepIndexOutboxes',
      startedAt: finishedAt,
      finishedAt,
      outcome: 'failed',
      error: 'boom',
    });

    const overview = await service.overview();
    expect(
      overview.poisonQueues.find((q) => q.queue === queueNames.archive)?.approximateCount,
    ).toBe(2);
    expect(overview.logBacklog.approximateCount).toBe(1);
    expect(overview.logBacklog.oldestQueuedAt).toBeInstanceOf(Date);
    expect(overview.logBacklog.oldestHour).toEqual(new Date('2026-11-26T02:00:00Z'));
    expect(overview.timers).toEqual([
      {
        timer: 'dropExpiredLoginTables',
        startedAt,
        finishedAt,
        outcome: 'failed',
        error: 'x'.repeat(1_000),
      },
      {
        timer: 'sweepIndexOutboxes',
        startedAt: finishedAt,
        finishedAt,
        outcome: 'failed',
        error: 'boom',
      },
    ]);
  });

  it('inspects and replays only the app queues', async () => {
    await expect(service.inspectPoison('other-queue', 5)).rejects.toMatchObject({
      code: 'UnknownQueue',
    });
    await expect(service.replayPoison(`${queueNames.archive}-poison`, 5)).rejects.toMatchObject({
      code: 'UnknownQueue',
    });
    const poison = fx.clients.queue(poisonQueueName(queueNames.indexUpdates));
    await poison.createIfNotExists();
    await sendJsonMessage(poison, { v: 2, department: 'Sales' });
    await poison.sendMessage('not base64 json');

    const inspected = await service.inspectPoison(queueNames.indexUpdates, 32);
    expect(inspected.map((m) => m.body ?? m.text)).toEqual([
      { v: 2, department: 'Sales' },
      'not base64 json',
    ]);
    const replayed = await service.replayPoison(queueNames.indexUpdates, 32);
    expect(replayed.map((m) => m.messageId)).toEqual(inspected.map((m) => m.messageId));
    expect(await service.inspectPoison(queueNames.indexUpdates, 32)).toEqual([]);
  });
});
