/**
 * The logins adapter, invoked the way the Functions host invokes it: statuses, JSON error shape,
 * and no day table or attempt stored for any bad request. The timer handler logs what it dropped.
 */
import {
  HttpRequest,
  InvocationContext,
  type HttpResponseInit,
  type Timer,
} from '@azure/functions';
import { randomBytes } from 'node:crypto';
import type * as LoginFunctions from '../../../functions/logins';
import type { HttpHandler } from '../../../functions/shared/http';
import { resetConfig } from '../../../src/config';
import { LoginDayTables } from '../../../src/logins/loginDayTables';
import { loginTableName } from '../../../src/storage/keys/tables/logins';
import { addUtcDays, startOfUtcDay } from '../../../src/time/instants';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients } from '../../support/storage';

const prefix = `LH${randomBytes(4).toString('hex')}`;
const clients = testClients();
const tables = new LoginDayTables(clients, prefix);
let functions: typeof LoginFunctions;

beforeAll(async () => {
  // functions/logins reads the configuration when it registers its timer, so set it first.
  process.env.LOGIN_TABLE_PREFIX = prefix;
  process.env.LOGIN_RETENTION_DAYS = '30';
  resetConfig();
  functions = await import('../../../functions/logins');
});
afterAll(async () => {
  for (const table of await tables.list()) await tables.drop(table.name);
});

type Response = Omit<HttpResponseInit, 'jsonBody'> & {
  jsonBody?: {
    items?: Record<string, unknown>[];
    error?: { code: string; message: string };
  } & Record<string, unknown>;
};

async function call(
  handler: HttpHandler,
  method: string,
  options: { params?: Record<string, string>; body?: string; query?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL('http://localhost/api/x');
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const request = new HttpRequest({
    method,
    url: url.toString(),
    params: options.params ?? {},
    headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: adminPrincipal },
    ...(options.body === undefined ? {} : { body: { string: options.body } }),
  });
  return (await handler(request, new InvocationContext())) as Response;
}

it('POST /logins answers 201; GET /logins/{userId} lists newest first', async () => {
  const now = Date.now();
  const older = await call(functions.recordLoginAttempt, 'POST', {
    body: JSON.stringify({
      userId: 'jane@contoso.com',
      succeeded: false,
      ip: '2001:db8::1',
      at: new Date(now - 86_400_000).toISOString(),
    }),
  });
  expect(older.status).toBe(201);
  expect(older.jsonBody).toMatchObject({
    userId: 'jane@contoso.com',
    succeeded: false,
    ip: '2001:db8::1',
  });
  const newer = await call(functions.recordLoginAttempt, 'POST', {
    body: JSON.stringify({ userId: 'jane@contoso.com', succeeded: true }),
  });
  expect(newer.status).toBe(201);
  const list = await call(functions.listLoginAttempts, 'GET', {
    params: { userId: 'jane@contoso.com' },
    query: { days: '2' },
  });
  expect(list.status).toBe(200);
  expect(list.jsonBody?.items?.map((a) => a.succeeded)).toEqual([true, false]);
  const today = await call(functions.listLoginAttempts, 'GET', {
    params: { userId: 'jane@contoso.com' },
    query: { days: '1' },
  });
  // 24 hours earlier is always yesterday in UTC.
  expect(today.jsonBody?.items).toHaveLength(1);
});

it.each([
  ['bad JSON', '{"userId":'],
  ['missing userId', JSON.stringify({ succeeded: true })],
  ['empty userId', JSON.stringify({ userId: '', succeeded: true })],
  ['long userId', JSON.stringify({ userId: 'u'.repeat(257), succeeded: true })],
  ['succeeded as text', JSON.stringify({ userId: 'bad', succeeded: 'yes' })],
  ['bad ip', JSON.stringify({ userId: 'bad', succeeded: true, ip: '999.1.1.1' })],
  [
    'time without zone',
    JSON.stringify({ userId: 'bad', succeeded: true, at: '2026-01-01T00:00:00' }),
  ],
  [
    'time older than retention',
    JSON.stringify({
      userId: 'bad',
      succeeded: true,
      at: new Date(Date.now() - 31 * 86_400_000).toISOString(),
    }),
  ],
  [
    'time two days ahead',
    JSON.stringify({
      userId: 'bad',
      succeeded: true,
      at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    }),
  ],
  ['unknown field', JSON.stringify({ userId: 'bad', succeeded: true, password: 'x' })],
])('POST /logins answers 400 with a JSON error for %s and stores nothing', async (_, body) => {
  const before = (await tables.list()).map((t) => t.name);
  const response = await call(functions.recordLoginAttempt, 'POST', { body });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error).toEqual(
    expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  );
  expect((await tables.list()).map((t) => t.name)).toEqual(before);
  const list = await call(functions.listLoginAttempts, 'GET', {
    params: { userId: 'bad' },
    query: { days: '30' },
  });
  expect(list.jsonBody?.items).toEqual([]);
});

it.each([['0'], ['31'], ['x'], ['-1']])(
  'GET /logins answers 400 for days=%s (retention 30)',
  async (days) => {
    const response = await call(functions.listLoginAttempts, 'GET', {
      params: { userId: 'jane' },
      query: { days },
    });
    expect(response.status).toBe(400);
    expect(response.jsonBody?.error?.message).toContain('query.days');
  },
);

it('the timer handler drops expired day tables, logs them, and prepares tomorrow', async () => {
  const today = startOfUtcDay(new Date());
  const expired = loginTableName(prefix, addUtcDays(today, -45));
  await clients.tableService().createTable(expired);
  const lines: string[] = [];
  const context = new InvocationContext({
    logHandler: (_level, ...args) => lines.push(args.join(' ')),
  });
  await functions.runLoginRetention({ isPastDue: false } as Timer, context);
  expect(lines.join('\n')).toContain(`dropped 1 day table(s) (${expired})`);
  const names = (await tables.list()).map((t) => t.name);
  expect(names).not.toContain(expired);
  expect(names).toContain(loginTableName(prefix, addUtcDays(today, 1)));
});
