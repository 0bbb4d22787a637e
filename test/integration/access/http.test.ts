/**
 * The access events adapter, invoked the way the Functions host invokes it: 201 on record, the
 * list shape of API.md with continuation tokens, 400 with a JSON error and nothing stored for bad
 * input.
 */
import { listAccessEvents, recordAccessEvent } from '../../../functions/accessEvents';
import { invokeHttp } from '../../support/invokeHttp';
import { employeePrincipal, telemetryPrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const tableName = uniqueTableName('AccessHttp');
process.env.ACCESS_LOG_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

const call = invokeHttp;

/** Events are posted by a telemetry service; the employee reads its own. */
const asTelemetry = { principal: telemetryPrincipal };
const asEmployee = { principal: employeePrincipal('Sales', '000223') };

async function storedCount(): Promise<number> {
  let count = 0;
  for await (const _ of testClients().table(tableName).listEntities()) count++;
  return count;
}

it('records events (201) and pages through a window oldest first', async () => {
  for (const at of ['2026-06-01T10:00:00+02:00', '2026-06-01T07:00:00Z', '2026-06-01T09:00:00Z']) {
    const response = await call(
      recordAccessEvent,
      'POST',
      {},
      {
        ...asTelemetry,
        body: JSON.stringify({
          department: 'Sales',
          employeeId: '000223',
          resource: '/hr/salaries.xlsx',
          action: 'read',
          at,
        }),
      },
    );
    expect(response.status).toBe(201);
    expect(response.jsonBody).toMatchObject({
      department: 'Sales',
      employeeId: '000223',
      eventId: expect.any(String),
    });
  }
  const query = { from: '2026-06-01T00:00:00Z', to: '2026-06-02T00:00:00Z', pageSize: '2' };
  const first = await call(
    listAccessEvents,
    'GET',
    { dept: 'Sales', id: '000223' },
    {
      ...asEmployee,
      query,
    },
  );
  expect(first.status).toBe(200);
  expect(first.jsonBody?.items?.map((e) => e.at)).toEqual([
    '2026-06-01T07:00:00.000Z',
    '2026-06-01T08:00:00.000Z',
  ]);
  expect(first.jsonBody?.continuationToken).toEqual(expect.any(String));
  const second = await call(
    listAccessEvents,
    'GET',
    { dept: 'Sales', id: '000223' },
    {
      ...asEmployee,
      query: { ...query, continuationToken: first.jsonBody!.continuationToken! },
    },
  );
  expect(second.jsonBody).toEqual({
    items: [expect.objectContaining({ at: '2026-06-01T09:00:00.000Z' })],
    continuationToken: null,
  });
});

const good = { department: 'Sales', employeeId: '000224', resource: 'r', action: 'read' };

it.each([
  ['bad JSON', '{"department":'],
  ['missing department', JSON.stringify({ ...good, department: undefined })],
  ['bad department', JSON.stringify({ ...good, department: 'Sales#1' })],
  ['bad employee id', JSON.stringify({ ...good, employeeId: 224 })],
  ['empty resource', JSON.stringify({ ...good, resource: '' })],
  ['long resource', JSON.stringify({ ...good, resource: 'r'.repeat(1025) })],
  ['bad action', JSON.stringify({ ...good, action: 'read all' })],
  ['time without zone', JSON.stringify({ ...good, at: '2026-06-01T10:00:00' })],
  ['time before 1601', JSON.stringify({ ...good, at: '1066-10-14T09:00:00Z' })],
  ['unknown field', JSON.stringify({ ...good, ip: '1.2.3.4' })],
])('POST answers 400 with a JSON error for %s and stores nothing', async (_, body) => {
  const before = await storedCount();
  const response = await call(recordAccessEvent, 'POST', {}, { ...asTelemetry, body });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error).toEqual(
    expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  );
  expect(await storedCount()).toBe(before);
});

it.each([
  [{ to: '2026-06-02T00:00:00Z' }],
  [{ from: '2026-06-01T00:00:00Z' }],
  [{ from: '2026-06-02T00:00:00Z', to: '2026-06-01T00:00:00Z' }],
  [{ from: '2026-06-01T00:00:00Z', to: '2026-06-01T00:00:00Z' }],
  [{ from: '2026-06-01T00:00:00Z', to: '2026-08-01T00:00:00Z' }],
  [{ from: '2026-06-01', to: '2026-06-02' }],
  [{ from: '2026-06-01T00:00:00Z', to: '2026-06-02T00:00:00Z', pageSize: '0' }],
  [{ from: '2026-06-01T00:00:00Z', to: '2026-06-02T00:00:00Z', continuationToken: 'eyJ2IjoxfQ' }],
])('GET answers 400 for query %j', async (query) => {
  const response = await call(
    listAccessEvents,
    'GET',
    { dept: 'Sales', id: '000223' },
    { ...asEmployee, query: query as Record<string, string> },
  );
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error?.message).toMatch(/query\.|continuationToken/);
});
