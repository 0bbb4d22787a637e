/**
 * Login attempts through the local Functions host: HTTP record and read, and the
 * `dropExpiredLoginTables` timer fired both on demand (the host's admin API) and by its schedule.
 */
import { randomBytes } from 'node:crypto';
import { LoginDayTables } from '../../../src/logins/loginDayTables';
import { loginTableName } from '../../../src/storage/keys/tables/logins';
import { addUtcDays, startOfUtcDay } from '../../../src/time/instants';
import { startHost, type RunningHost } from '../../support/host';
import { asPrincipal, asTelemetry, userPrincipal } from '../../support/principals';
import { testClients } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

const clients = testClients();
let host: RunningHost | undefined;

afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function daysAgo(days: number): Date {
  return addUtcDays(startOfUtcDay(new Date()), -days);
}

async function tableExists(name: string): Promise<boolean> {
  for await (const table of clients
    .tableService()
    .listTables({ queryOptions: { filter: `TableName eq '${name}'` } })) {
    if (table.name === name) return true;
  }
  return false;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function withPrefix(
  run: (prefix: string, tables: LoginDayTables) => Promise<void>,
): Promise<void> {
  const prefix = `LE${randomBytes(4).toString('hex')}`;
  const tables = new LoginDayTables(clients, prefix);
  try {
    await run(prefix, tables);
  } finally {
    for (const table of await tables.list()) await tables.drop(table.name);
    for (const name of [`${prefix}Archive`]) await clients.tableService().deleteTable(name);
  }
}

it('records and reads attempts over HTTP, and drops expired tables when the admin API fires the timer', async () => {
  await withPrefix(async (prefix) => {
    // A yearly schedule: only the admin call below runs the timer during this test.
    host = await startHost({
      env: { LOGIN_TABLE_PREFIX: prefix, LOGIN_CLEANUP_SCHEDULE: '0 0 0 1 1 *' },
    });
    const userId = "zoë/o'neil@contoso.com";
    const post = (body: unknown): Promise<Response> =>
      fetch(
        `${host!.baseUrl}/logins`,
        asTelemetry({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );

    expect(
      (await post({ userId, succeeded: false, ip: '198.51.100.7', at: daysAgo(2).toISOString() }))
        .status,
    ).toBe(201);
    const created = await post({ userId, succeeded: true });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ userId, succeeded: true });
    const bad = await post({ userId, succeeded: 'yes' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: expect.objectContaining({
        code: 'InvalidInput',
        message: expect.stringContaining('body.succeeded'),
      }),
    });

    // The user reads its own attempts.
    const list = await fetch(
      `${host.baseUrl}/logins/${encodeURIComponent(userId)}?days=3`,
      asPrincipal(userPrincipal(userId)),
    );
    expect(list.status).toBe(200);
    const { items } = (await list.json()) as { items: { succeeded: boolean; userId: string }[] };
    expect(items.map((a) => a.succeeded)).toEqual([true, false]);
    expect(items.every((a) => a.userId === userId)).toBe(true);
    expect(
      (await fetch(`${host.baseUrl}/logins/x?days=61`, asPrincipal(userPrincipal('x')))).status,
    ).toBe(400);

    const expired = loginTableName(prefix, daysAgo(70));
    const kept = loginTableName(prefix, daysAgo(10));
    for (const name of [expired, kept, `${prefix}Archive`])
      await clients.tableService().createTable(name);
    const fired = await fetch(`${host.origin}/admin/functions/dropExpiredLoginTables`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fired.status).toBe(202);
    await waitFor(async () => !(await tableExists(expired)));
    await host.waitForOutput(new RegExp(`dropped 1 day table\\(s\\) \\(${expired}\\)`));
    expect(await tableExists(kept)).toBe(true);
    expect(await tableExists(`${prefix}Archive`)).toBe(true);
    expect(
      await tableExists(loginTableName(prefix, addUtcDays(startOfUtcDay(new Date()), 1))),
    ).toBe(true);
  });
});

it('fires dropExpiredLoginTables from its NCRONTAB schedule', async () => {
  await withPrefix(async (prefix) => {
    const expired = loginTableName(prefix, daysAgo(100));
    await clients.tableService().createTable(expired);
    host = await startHost({
      env: { LOGIN_TABLE_PREFIX: prefix, LOGIN_CLEANUP_SCHEDULE: '*/2 * * * * *' },
    });
    await waitFor(async () => !(await tableExists(expired)));
    await waitFor(() =>
      tableExists(loginTableName(prefix, addUtcDays(startOfUtcDay(new Date()), 1))),
    );
  });
});
