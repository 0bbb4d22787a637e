/**
 * Expense claims through the local Functions host: a client submits claims and reads the newest
 * ones back, with the statuses and error bodies of API.md.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asPrincipal, employeePrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const EXPENSES_TABLE = uniqueTableName('ExpE2e');
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { EXPENSES_TABLE } });
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(EXPENSES_TABLE).deleteTable();
});

/** Sends a request as the employee the path names (`/departments/{dept}/employees/{id}/...`). */
async function send(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; etag: string | null; json: Record<string, unknown> }> {
  const [, dept, id] = /^\/departments\/([^/]+)\/employees\/([^/?]+)/.exec(path)!;
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asPrincipal(employeePrincipal(decodeURIComponent(dept!), decodeURIComponent(id!)), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    json: text ? JSON.parse(text) : {},
  };
}

it('submits claims (201 with claimId and ETag) and lists the newest first with top', async () => {
  const path = '/departments/Sales%20EU/employees/000223/expenses';
  const base = Date.parse('2026-04-01T09:00:00Z');
  for (const minutes of [30, 10, 50, 20, 40]) {
    const created = await send('POST', path, {
      amount: minutes + 0.5,
      currency: 'EUR',
      description: `at ${minutes}`,
      submittedAt: new Date(base + minutes * 60_000).toISOString(),
    });
    expect(created.status).toBe(201);
    expect(created.etag).toMatch(/^W\//);
    expect(created.json.claimId).toMatch(/^\d{19}_/);
  }
  const newest = await send('GET', `${path}?top=3`);
  expect(newest.status).toBe(200);
  expect((newest.json.items as { description: string }[]).map((c) => c.description)).toEqual([
    'at 50',
    'at 40',
    'at 30',
  ]);
  expect(((await send('GET', path)).json.items as unknown[]).length).toBe(5);
});

it('answers 400 with the JSON error shape for bad claims and bad top', async () => {
  const path = '/departments/Sales/employees/000224/expenses';
  const bad = await send('POST', path, { amount: 10.001, currency: 'EUR', description: 'x' });
  expect(bad.status).toBe(400);
  expect(bad.json).toEqual({
    error: expect.objectContaining({
      code: 'InvalidInput',
      message: expect.stringContaining('body.amount'),
    }),
  });
  expect((await send('GET', `${path}?top=0`)).status).toBe(400);
  expect((await send('GET', '/departments/Sales/employees/12/expenses')).status).toBe(400);
  // No claim and no such employee in the directory: 404, as a write to the directory answers.
  const unknown = await send(
    'GET',
    `/departments/Nobody%20${Date.now()}/employees/000224/expenses`,
  );
  expect(unknown.status).toBe(404);
  expect(unknown.json).toEqual({ error: expect.objectContaining({ code: 'EmployeeNotFound' }) });
});
