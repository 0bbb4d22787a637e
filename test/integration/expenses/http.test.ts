/**
 * The expenses adapter, invoked the way the Functions host invokes it: statuses, ETag, JSON error
 * shape, and no claim stored for any bad request.
 */
import { listExpenseClaims, submitExpenseClaim } from '../../../functions/expenses';
import { invokeHttp, type InvokeOptions } from '../../support/invokeHttp';
import { employeePrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const tableName = uniqueTableName('ExpHttp');
process.env.EXPENSES_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

/** Each call is made by the employee its route names (claims are the employee's own). */
const call = (
  handler: Parameters<typeof invokeHttp>[0],
  method: string,
  params: { dept: string; id: string },
  options: InvokeOptions = {},
): ReturnType<typeof invokeHttp> =>
  invokeHttp(handler, method, params, {
    principal: employeePrincipal(params.dept, params.id),
    ...options,
  });

const employee = { dept: 'Sales', id: '000223' };
/** Bad requests go to another employee, whose partition must stay empty. */
const other = { dept: 'Sales', id: '000999' };

it('POST answers 201 with the claim id and an ETag; GET lists newest first', async () => {
  const first = await call(submitExpenseClaim, 'POST', employee, {
    body: JSON.stringify({
      amount: 12.5,
      currency: 'EUR',
      description: 'Taxi',
      submittedAt: '2026-04-01T10:00:00+02:00',
    }),
  });
  expect(first.status).toBe(201);
  expect(first.headers).toMatchObject({ etag: expect.stringMatching(/^W\//) });
  expect(first.jsonBody).toEqual({
    claimId: expect.stringMatching(/^\d{19}_[0-9a-f]{8}$/),
    department: 'Sales',
    employeeId: '000223',
    amount: 12.5,
    currency: 'EUR',
    description: 'Taxi',
    submittedAt: '2026-04-01T08:00:00.000Z',
  });
  const second = await call(submitExpenseClaim, 'POST', employee, {
    body: JSON.stringify({ amount: 3, currency: 'EUR', description: 'Coffee' }),
  });
  expect(second.status).toBe(201);
  const list = await call(listExpenseClaims, 'GET', employee, { query: { top: '1' } });
  expect(list.status).toBe(200);
  expect(list.jsonBody?.items?.map((c) => c.description)).toEqual(['Coffee']);
  const both = await call(listExpenseClaims, 'GET', employee);
  expect(both.jsonBody?.items?.map((c) => c.description)).toEqual(['Coffee', 'Taxi']);
});

it.each([
  ['bad JSON', other, '{"amount":'],
  ['missing amount', other, JSON.stringify({ currency: 'EUR', description: 'x' })],
  ['negative amount', other, JSON.stringify({ amount: -1, currency: 'EUR', description: 'x' })],
  ['three decimals', other, JSON.stringify({ amount: 1.234, currency: 'EUR', description: 'x' })],
  ['amount as text', other, JSON.stringify({ amount: '5', currency: 'EUR', description: 'x' })],
  ['too large', other, JSON.stringify({ amount: 1e9, currency: 'EUR', description: 'x' })],
  ['bad currency', other, JSON.stringify({ amount: 1, currency: 'Euro', description: 'x' })],
  ['blank description', other, JSON.stringify({ amount: 1, currency: 'EUR', description: ' ' })],
  [
    'long description',
    other,
    JSON.stringify({ amount: 1, currency: 'EUR', description: 'x'.repeat(1001) }),
  ],
  [
    'time without zone',
    other,
    JSON.stringify({
      amount: 1,
      currency: 'EUR',
      description: 'x',
      submittedAt: '2026-01-01T00:00:00',
    }),
  ],
  [
    'time before 1601',
    other,
    JSON.stringify({
      amount: 1,
      currency: 'EUR',
      description: 'x',
      submittedAt: '1600-12-31T23:59:59Z',
    }),
  ],
  [
    'unknown field',
    other,
    JSON.stringify({ amount: 1, currency: 'EUR', description: 'x', approved: true }),
  ],
  [
    'bad department',
    { dept: 'Sa/les', id: '000999' },
    JSON.stringify({ amount: 1, currency: 'EUR', description: 'x' }),
  ],
  [
    'bad employee id',
    { dept: 'Sales', id: '999' },
    JSON.stringify({ amount: 1, currency: 'EUR', description: 'x' }),
  ],
])('POST answers 400 with a JSON error for %s and stores nothing', async (_, params, body) => {
  const response = await call(submitExpenseClaim, 'POST', params, { body });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error).toEqual(
    expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  );
  const rows: unknown[] = [];
  for await (const entity of testClients()
    .table(tableName)
    .listEntities({ queryOptions: { filter: "PartitionKey ne 'Sales_000223'" } }))
    rows.push(entity);
  expect(rows).toEqual([]);
});

it.each(['0', '1001', 'ten', '1.5', '-1'])('GET answers 400 for top=%s', async (top) => {
  const response = await call(listExpenseClaims, 'GET', employee, { query: { top } });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error?.message).toContain('query.top');
});
