/**
 * The outbox sweep with one data account unreachable (docs/accounts.md "Reading across
 * accounts"): the timer's run drains every department of the other accounts, reports the account
 * and its departments, and the next sweep goes on with the walk of that account.
 */
import { createServer } from 'node:net';
import { InvocationContext, type Timer } from '@azure/functions';
import { createServices, resetServices, type Services } from '../../../functions/shared/services';
import { resetConfig } from '../../../src/config';
import { markPending, sweepOutboxes } from '../../../src/indexing';
import { normalizeLastName } from '../../../src/storage/keys/text';
import { removeEverywhere, spreadConfig, spreadSettings } from '../../support/accounts';

// Writes nudge through the queue only (no writer's drain), so outboxes wait for the sweep.
const settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '0' });
const config = spreadConfig(settings);
let services: Services;
const saved = { ...process.env };

beforeAll(() => {
  services = createServices(() => config);
});
afterAll(async () => {
  process.env = saved;
  resetConfig();
  resetServices();
  await removeEverywhere(settings);
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function pending(): Promise<string[]> {
  const overview = await services.operations().overview();
  return overview.outbox.departments.map((d) => `${d.department}@${d.account}`).sort();
}

/**
 * A last name whose org-wide list is not kept in DATA2: a drain of Sales's change then needs no
 * DATA2 (one whose list is there waits for DATA2 like HR).
 */
function lastNameOutsideData2(): string {
  for (let n = 1; ; n++) {
    const name = `Last${n}`;
    if (
      services.accounts()!.placement.forKey('lastName', normalizeLastName(name)).name !== 'DATA2'
    ) {
      return name;
    }
  }
}

it('drains the other accounts when one is unreachable, and names it', async () => {
  const { departments, employees } = services.directory();
  // Sales lives in DATA1, HR in DATA2 (rendezvous of the names).
  for (const [department, n] of [
    ['Sales', 1],
    ['HR', 2],
  ] as const) {
    await departments.put(department, {});
    await employees.create(department, {
      employeeId: String(n).padStart(6, '0'),
      firstName: 'Pat',
      lastName: department === 'Sales' ? lastNameOutsideData2() : 'Jones',
      email: `u${n}@contoso.com`,
    });
  }
  await services.changeQueue().settled();
  // As if neither cover had been stored: both departments marked pending (in home).
  for (const department of ['Sales', 'HR']) {
    await markPending(services.indexDrains().stores.employees, department, 'cover-failed');
  }
  expect(await pending()).toEqual(['HR@DATA2', 'Sales@DATA1']);

  // The timer's own run, in a process whose DATA2 connection names a port nobody listens on.
  const port = await closedPort();
  process.env = {
    ...saved,
    ...settings,
    DATA2: settings.DATA2!.replace(/127\.0\.0\.1:\d+/g, `127.0.0.1:${port}`),
  };
  resetConfig();
  resetServices();
  const { runOutboxSweep } = await import('../../../functions/outboxSweep');
  const errors: string[] = [];
  const context = new InvocationContext({
    logHandler: (level, ...args) => {
      if (level === 'error') errors.push(String(args[0]));
    },
  });
  await expect(runOutboxSweep({} as Timer, context)).rejects.toThrow(
    /could not drain 1 department\(s\) nor sweep account\(s\) DATA2/,
  );
  expect(errors).toEqual([
    'sweepIndexOutboxes: account DATA2 could not be swept',
    'sweepIndexOutboxes: HR failed',
  ]);
  // Sales was drained all the same; HR waits for its account.
  expect(await pending()).toEqual(['HR@DATA2']);

  // The walk missed an account, so it keeps that account's cursor: the next sweep walks it.
  const report = await sweepOutboxes(services.indexDrains());
  expect(report).toMatchObject({ discovered: true, failed: [], failedAccounts: [] });
  expect(await pending()).toEqual([]);
});
