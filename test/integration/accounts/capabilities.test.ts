/**
 * Every capability works whatever account holds the data (docs/accounts.md): the outbox sweep
 * finds and drains outboxes in every account, a move crosses accounts (its photo too), the
 * login retention drops expired day tables in each account, the operations view says which
 * account each backlog is in, and a log window is read across the accounts its hours went to.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { rendezvousPick } from '../../../src/accounts/rendezvous';
import { getEmployeeByEmailEventually } from '../../../src/indexing/employeeIndex/indexQueries';
import { sweepOutboxes } from '../../../src/indexing/drain/outboxSweep';
import { markPending } from '../../../src/indexing/drain/pendingMarkers';
import { dropExpiredLoginTables } from '../../../src/logins/retention';
import { drainAndFlush } from '../../../src/logs/flush/logDrain';
import { TagLedgers } from '../../../src/logs/flush/tagLedger';
import {
  reindexEmployeeActivity,
  validateMoveActivity,
} from '../../../src/orchestrations/move/moveActivities';
import { photoReadUrl, uploadPhoto } from '../../../src/photos/photos';
import { loginTableName } from '../../../src/storage/keys/tables/logins';
import {
  accountClients,
  removeEverywhere,
  spreadConfig,
  spreadSettings,
  spreadPerson,
} from '../../support/accounts';
import { pngImage } from '../../support/images';
import { runCopyAndRemove } from '../orchestrations/support';

// Writes nudge through the queue only (no writer's drain), so outboxes wait for the sweep.
const settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '0' });
const config = spreadConfig(settings);
let services: Services;

beforeAll(() => {
  services = createServices(() => config);
});
afterAll(() => removeEverywhere(settings));

it('sweeps the outboxes of every account, and the operations view says where each waits', async () => {
  const { departments, employees } = services.directory();
  // Sales lives in DATA1, HR in DATA2.
  await departments.put('Sales', {});
  await departments.put('HR', {});
  await employees.create('Sales', spreadPerson(1));
  await employees.create('HR', spreadPerson(2));
  await services.changeQueue().settled();
  // As if neither cover had been stored: both marked pending (in home), each shown in its account.
  for (const department of ['Sales', 'HR']) {
    await markPending(services.indexDrains().stores.employees, department, 'cover-failed');
  }
  const overview = await services.operations().overview();
  expect(overview.outbox.departments.map((d) => [d.department, d.account]).sort()).toEqual([
    ['HR', 'DATA2'],
    ['Sales', 'DATA1'],
  ]);
  expect(overview.outbox.accounts).toEqual([
    { account: 'home', departments: 0, pending: 0 },
    { account: 'DATA1', departments: 1, pending: 1 },
    { account: 'DATA2', departments: 1, pending: 1 },
  ]);
  const report = await sweepOutboxes(services.indexDrains());
  expect(report.failed).toEqual([]);
  expect(report.departments).toBe(2);
  const index = services.indexStores().index;
  for (const [department, email, id] of [
    ['HR', 'u2@contoso.com', '000002'],
    ['Sales', 'u1@contoso.com', '000001'],
  ]) {
    expect((await getEmployeeByEmailEventually(index, department!, email!)).value.employeeId).toBe(
      id,
    );
  }
  expect((await services.operations().overview()).outbox.departments).toEqual([]);
});

it('moves an employee, photo and indexes, between departments held by different accounts', async () => {
  const { employees } = services.directory();
  await uploadPhoto(await services.photosFor('Sales'), 'Sales', '000001', pngImage(), 'image/png');
  const move = { department: 'Sales', employeeId: '000001', toDepartment: 'HR', moveId: 'm1' };
  const orchestration = services.orchestrations();
  const plan = await validateMoveActivity(orchestration, move);
  expect(plan).toMatchObject({ state: 'ready' });
  const incarnation = (plan as { incarnation?: string }).incarnation;
  await runCopyAndRemove(orchestration, { ...move, incarnation });
  await reindexEmployeeActivity(orchestration, { department: 'HR', employeeId: '000001' });
  await reindexEmployeeActivity(orchestration, { department: 'Sales', employeeId: '000001' });
  const moved = (await employees.get('HR', '000001')).value;
  expect(moved.photoUrl).toContain('/data2account/');
  const photo = await photoReadUrl(await services.photosFor('HR'), 'HR', '000001');
  expect((await fetch(photo.url)).status).toBe(200);
  await expect(employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  const index = services.indexStores().index;
  expect((await getEmployeeByEmailEventually(index, 'HR', 'u1@contoso.com')).value.employeeId).toBe(
    '000001',
  );
});

it('drops expired login day tables in every account, each keeps today’s', async () => {
  const { attempts, allTables } = services.logins();
  // Users whose attempts go to each account (rendezvous hashing of the user id).
  const users = Array.from({ length: 12 }, (_, i) => `user${i}`);
  for (const userId of users) await attempts.record({ userId, succeeded: true });
  const { home, data1, data2 } = accountClients();
  const old = new Date(Date.now() - 90 * 86_400_000);
  const expired = loginTableName(config.tables.loginAttemptsPrefix, old);
  for (const clients of [home, data1, data2]) await clients.tableService().createTable(expired);
  let dropped = 0;
  for (const tables of allTables) {
    dropped += (await dropExpiredLoginTables(tables, config.logins.retentionDays)).dropped.length;
  }
  expect(dropped).toBe(3);
  // Every account that took a user's attempts still answers them.
  const accounts = new Set(
    users.map(
      (u) =>
        rendezvousPick(`login\n${u}`, [
          { name: 'home', weight: 0 },
          { name: 'DATA1', weight: 1 },
          { name: 'DATA2', weight: 1 },
        ]).name,
    ),
  );
  expect(accounts).toEqual(new Set(['DATA1', 'DATA2']));
  for (const userId of users) expect(await attempts.recent(userId, 1)).toHaveLength(1);
});

it('writes each log hour to the account its hour hashes to, and reads a window across them', async () => {
  const now = Date.UTC(2026, 0, 5, 10, 30);
  const hours = Array.from({ length: 6 }, (_, h) => now + h * 3_600_000);
  await services.logIngest().accept({
    source: 'web',
    entries: hours.map((at, i) => ({
      at: new Date(at),
      level: 'Error' as const,
      message: `entry ${i}`,
      extra: {},
    })),
  });
  const { home } = accountClients();
  const result = await drainAndFlush({
    container: home.container(config.containers.logs),
    hourContainer: services.accounts()!.logHourContainer,
    queue: home.queue(config.queues.logBatches),
    limits: config.logs,
    maxMessages: 32,
    ledgers: new TagLedgers(),
  });
  expect(result.failed).toEqual([]);
  const holders = new Set(
    hours.map((at) => {
      const hour = new Date(Math.floor(at / 3_600_000) * 3_600_000);
      return services.accounts()!.logHourContainer('web', hour).url;
    }),
  );
  expect(holders.size).toBeGreaterThan(1);
  const query = { source: 'web', from: new Date(now), to: new Date(now + 6 * 3_600_000) };
  const first = await services.logQuery()(query, { pageSize: 4 });
  const rest = await services.logQuery()(query, {
    pageSize: 10,
    continuationToken: first.continuationToken!,
  });
  expect([...first.items, ...rest.items].map((e) => e.message)).toEqual(
    hours.map((_, i) => `entry ${i}`),
  );
  expect(rest.continuationToken).toBeNull();
});
