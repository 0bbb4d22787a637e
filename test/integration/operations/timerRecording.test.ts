/**
 * `recordingRuns` (functions/shared/timerRuns.ts), as the host invokes a timer: each run leaves
 * the timer's last-run entity — succeeded, or failed with its message while the failure still
 * reaches the host, or deferred when busy storage stopped it (not a failure: the next run picks
 * the work up) — and a run whose recording fails keeps its own outcome.
 */
import { InvocationContext, type Timer } from '@azure/functions';
import type * as TimerRuns from '../../../functions/shared/timerRuns';
import type * as Services from '../../../functions/shared/services';
import { resetConfig } from '../../../src/config';
import { TimerRunLog } from '../../../src/operations/timerRuns';
import { testClients, uniqueTableName } from '../../support/storage';
import { startFaultProxy } from '../../../tools/faultProxy/faultProxy';
import { TargetsLimiter } from '../../../tools/targets/targetsLimiter';

const clients = testClients();
const table = uniqueTableName('OpsRuns');
const timer = { isPastDue: false } as Timer;
let wrap: typeof TimerRuns.recordingRuns;
let unfinishedRun: typeof TimerRuns.unfinishedRun;
let services: typeof Services;

beforeAll(async () => {
  process.env.OPERATIONS_TABLE = table;
  resetConfig();
  services = await import('../../../functions/shared/services');
  services.resetServices();
  ({ recordingRuns: wrap, unfinishedRun } = await import('../../../functions/shared/timerRuns'));
});
afterAll(async () => {
  await clients
    .table(table)
    .deleteTable()
    .catch(() => undefined);
});

const runs = () => new TimerRunLog(clients.table(table)).list();

it('records a run that succeeded, then one that failed, and still fails the invocation', async () => {
  const before = new Date();
  await wrap('sweepSomething', async () => undefined)(timer, new InvocationContext());
  expect(await runs()).toEqual([
    expect.objectContaining({ timer: 'sweepSomething', outcome: 'succeeded' }),
  ]);
  const [first] = await runs();
  expect(first!.startedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
  expect(first!.finishedAt.getTime()).toBeGreaterThanOrEqual(first!.startedAt.getTime());

  const failure = new Error('the department list could not be read');
  await expect(
    wrap('sweepSomething', async () => {
      throw failure;
    })(timer, new InvocationContext()),
  ).rejects.toBe(failure);
  expect(await runs()).toEqual([
    expect.objectContaining({
      timer: 'sweepSomething',
      outcome: 'failed',
      error: 'the department list could not be read',
    }),
  ]);
});

it('keeps the run outcome when its recording fails, and says so in the log', async () => {
  const warnings: string[] = [];
  const context = new InvocationContext({
    logHandler: (level, ...args) => {
      if (level === 'warning') warnings.push(String(args[0]));
    },
  });
  // Not a Functions name: the record is refused before any storage call.
  await wrap('not a timer name', async () => undefined)(timer, context);
  expect(warnings).toEqual(['not a timer name: its last run could not be recorded']);
});

const quiet = () => new InvocationContext({ logHandler: () => undefined });

/** What storage held to 1 request/s answers a burst of reads, once the SDK's retries are spent. */
async function busyStorageError(): Promise<unknown> {
  const front = await startFaultProxy({
    target: JSON.parse(process.env.TEST_AZURITE_PORTS!),
    targets: new TargetsLimiter({
      accountRequests: 1,
      partitionEntities: 1,
      queueMessages: 1,
      blobRequests: 1,
    }),
  });
  try {
    const busy = testClients(front.connectionString).table(table);
    const reads = Array.from({ length: 20 }, () => busy.getEntity('timer', 'none'));
    const outcomes = await Promise.allSettled(reads);
    const refused = outcomes.find(
      (o): o is PromiseRejectedResult =>
        o.status === 'rejected' && (o.reason as { statusCode?: number }).statusCode === 503,
    );
    expect(refused).toBeDefined();
    return refused!.reason;
  } finally {
    await front.stop();
  }
}

it('records a run busy storage stopped as deferred, and ends it without a failure', async () => {
  const busy = await busyStorageError();
  const warnings: string[] = [];
  const context = new InvocationContext({
    logHandler: (level, ...args) => {
      if (level === 'warning') warnings.push(String(args[0]));
    },
  });
  await wrap('sweepBusy', async () => {
    throw busy;
  })(timer, context);
  expect(warnings).toEqual([
    'sweepBusy: storage was busy; the next scheduled run picks up the rest',
  ]);
  expect((await runs()).find((r) => r.timer === 'sweepBusy')).toMatchObject({
    outcome: 'deferred',
    error: expect.stringContaining('ServerBusy'),
  });

  // A sweep that left parts undone: deferred only when every part was refused by busy storage.
  await wrap('sweepParts', async () => {
    throw unfinishedRun('2 departments left', [{ error: busy }, { error: busy }]);
  })(timer, quiet());
  expect((await runs()).find((r) => r.timer === 'sweepParts')).toMatchObject({
    outcome: 'deferred',
    error: '2 departments left',
  });
  const mixed = unfinishedRun('2 departments left', [
    { error: busy },
    { error: new Error('a bug') },
  ]);
  await expect(
    wrap('sweepParts', async () => {
      throw mixed;
    })(timer, quiet()),
  ).rejects.toBe(mixed);
  expect((await runs()).find((r) => r.timer === 'sweepParts')).toMatchObject({ outcome: 'failed' });
});
