/**
 * The daily clean-up drops exactly the expired day tables, in single delete-table requests, and
 * leaves every other table alone.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../../src/config';
import { LoginDayTables } from '../../../src/logins/loginDayTables';
import { dropExpiredLoginTables } from '../../../src/logins/retention';
import { loginTableName } from '../../../src/storage/keys/tables/logins';
import { addUtcDays } from '../../../src/time/instants';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());

async function tableNames(prefixes: string[]): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const table of clients.tableService().listTables()) {
    if (table.name && prefixes.some((p) => table.name!.toLowerCase().startsWith(p.toLowerCase()))) {
      names.add(table.name);
    }
  }
  return names;
}

describe('dropExpiredLoginTables', () => {
  // A unique prefix per test through the same setting the app reads.
  const prefix = loadConfig({
    ...process.env,
    LOGIN_TABLE_PREFIX: `LA${randomBytes(4).toString('hex')}`,
  }).tables.loginAttemptsPrefix;
  const unrelated = [
    `${prefix}Archive`,
    `${prefix}Today`,
    `${prefix.toLowerCase()}20260101`,
    `${prefix}2026013`,
    `${prefix}20260230`,
  ];
  const employees = uniqueTableName('Employees');
  const now = new Date('2026-05-10T01:00:00Z');
  const today = new Date('2026-05-10T00:00:00Z');
  const days = Array.from({ length: 90 }, (_, i) => addUtcDays(today, -i));
  // The service talks through the counting proxy, so its requests can be counted.
  let tables: LoginDayTables;

  beforeAll(async () => {
    tables = new LoginDayTables(testClients(proxy.connectionString), prefix);
    const service = clients.tableService();
    for (const name of [
      ...days.map((day) => loginTableName(prefix, day)),
      ...unrelated,
      employees,
    ]) {
      await service.createTable(name);
    }
  });

  afterAll(async () => {
    const service = clients.tableService();
    for (const name of await tableNames([prefix, employees])) await service.deleteTable(name);
  });

  it('drops exactly the day tables older than the retention, then nothing on a second run', async () => {
    proxy.resetCounts();
    const report = await dropExpiredLoginTables(tables, 60, () => now);
    const traffic = proxy.counts();

    // Days 61..89 back (2026-03-10 and older) hold only attempts older than 60 days.
    const expired = days.filter((day) => day < new Date('2026-03-11T00:00:00Z'));
    expect(expired).toHaveLength(29);
    expect(report.dropped.sort()).toEqual(expired.map((day) => loginTableName(prefix, day)).sort());
    expect(report.alreadyGone).toEqual([]);
    // One delete-table request per expired day, one listing (prefix range), one create (tomorrow).
    expect(traffic.byKind).toEqual({ 'table:GET': 1, 'table:DELETE': 29, 'table:POST': 1 });

    const remaining = await tableNames([prefix, employees]);
    const tomorrow = loginTableName(prefix, addUtcDays(today, 1));
    expect(remaining).toEqual(
      new Set([
        ...days.filter((day) => !expired.includes(day)).map((day) => loginTableName(prefix, day)),
        tomorrow,
        ...unrelated,
        employees,
      ]),
    );
    expect(report.preCreated).toBe(tomorrow);

    const second = await dropExpiredLoginTables(tables, 60, () => now);
    expect(second.dropped).toEqual([]);
    expect(second.alreadyGone).toEqual([]);
    expect(await tableNames([prefix, employees])).toEqual(remaining);
  });

  it('reports a table dropped by someone else in the meantime as already gone', async () => {
    const name = loginTableName(prefix, new Date('2025-01-01T00:00:00Z'));
    await clients.tableService().createTable(name);
    await clients.tableService().deleteTable(name);
    expect(await tables.drop(name)).toBe('alreadyGone');
  });
});
