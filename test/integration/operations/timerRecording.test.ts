/**
 * `recordingRuns` (functions/shared/timerRuns.ts), as the host invokes a timer: each run leaves
 * the timer's last-run entity — succeeded, or failed with its message while the failure still
 * reaches the host — and a run whose recording fails keeps its own outcome.
 */
import { InvocationContext, type Timer } from '@azure/functions';
import type * as TimerRuns from '../../../functions/shared/timerRuns';
import type * as Services from '../../../functions/shared/services';
import { resetConfig } from '../../../src/config';
import { TimerRunLog } from '../../../src/operations/timerRuns';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();
const table = uniqueTableName('OpsRuns');
const timer = { isPastDue: false } as Timer;
let wrap: typeof TimerRuns.recordingRuns;
let services: typeof Services;

beforeAll(async () => {
  process.env.OPERATIONS_TABLE = table;
  resetConfig();
  services = await import('../../../functions/shared/services');
  services.resetServices();
  wrap = (await import('../../../functions/shared/timerRuns')).recordingRuns;
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
