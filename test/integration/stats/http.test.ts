/**
 * The message statistics adapter, invoked the way the Functions host invokes it: 204 on
 * increment, the hourly and daily shapes of API.md, 400 with a JSON error and nothing stored for
 * bad input.
 */
import { dailyMessages, hourlyMessages, recordMessages } from '../../../functions/messageStats';
import { invokeHttp } from '../../support/invokeHttp';
import { employeePrincipal, telemetryPrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const tableName = uniqueTableName('StatsHttp');
process.env.MESSAGE_STATS_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

const call = invokeHttp;

const employee = { dept: 'Sales', id: '000223' };
/** Counts are posted by a telemetry service; the employee reads its own. */
const asTelemetry = { principal: telemetryPrincipal };
const asEmployee = { principal: employeePrincipal(employee.dept, employee.id) };

it('counts messages (204) and reads them per hour and per day', async () => {
  expect(
    (
      await call(recordMessages, 'POST', employee, {
        ...asTelemetry,
        body: JSON.stringify({ at: '2028-02-29T23:30:00+01:00', count: 4 }),
      })
    ).status,
  ).toBe(204);
  expect(
    (
      await call(recordMessages, 'POST', employee, {
        ...asTelemetry,
        body: JSON.stringify({ at: '2028-02-29T22:59:59.999Z' }),
      })
    ).status,
  ).toBe(204);
  const hourly = await call(hourlyMessages, 'GET', employee, {
    ...asEmployee,
    query: { day: '2028-02-29' },
  });
  expect(hourly.status).toBe(200);
  expect(hourly.jsonBody).toEqual({
    day: '2028-02-29',
    hours: Array.from({ length: 24 }, (_, h) => (h === 22 ? 5 : 0)),
  });
  const daily = await call(dailyMessages, 'GET', employee, {
    ...asEmployee,
    query: { year: '2028' },
  });
  expect(daily.jsonBody?.year).toBe(2028);
  const days = daily.jsonBody?.days as number[];
  expect(days).toHaveLength(366);
  expect(days[59]).toBe(5);
  expect(
    (
      await call(recordMessages, 'POST', employee, {
        ...asTelemetry,
        body: JSON.stringify({ at: '2027-06-01T08:00:00Z' }),
      })
    ).status,
  ).toBe(204);
  expect(
    (await call(dailyMessages, 'GET', employee, { ...asEmployee, query: { year: '2027' } }))
      .jsonBody?.days,
  ).toHaveLength(365);
  // An empty body counts one message now.
  expect((await call(recordMessages, 'POST', employee, asTelemetry)).status).toBe(204);
});

it.each([
  ['bad JSON', employee, '{"count":'],
  ['zero count', employee, JSON.stringify({ count: 0 })],
  ['fractional count', employee, JSON.stringify({ count: 1.5 })],
  ['huge count', employee, JSON.stringify({ count: 1_000_001 })],
  ['count as text', employee, JSON.stringify({ count: '2' })],
  ['time without zone', employee, JSON.stringify({ at: '2028-02-29T10:00:00' })],
  ['time in year 10000', employee, JSON.stringify({ at: '+010000-01-01T00:00:00Z' })],
  ['time before 1601', employee, JSON.stringify({ at: '1600-01-01T00:00:00Z' })],
  ['unknown field', employee, JSON.stringify({ hour: 3 })],
  ['bad department', { dept: 'Sales?', id: '000223' }, JSON.stringify({})],
  ['bad employee id', { dept: 'Sales', id: 'abcdef' }, JSON.stringify({})],
])('POST answers 400 with a JSON error for %s and stores nothing', async (_, params, body) => {
  const before: string[] = [];
  for await (const e of testClients().table(tableName).listEntities())
    before.push(`${e.rowKey}@${e.etag}`);
  const response = await call(recordMessages, 'POST', params, { ...asTelemetry, body });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error).toEqual(
    expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  );
  const after: string[] = [];
  for await (const e of testClients().table(tableName).listEntities())
    after.push(`${e.rowKey}@${e.etag}`);
  expect(after).toEqual(before);
});

it.each([
  ['hourly', hourlyMessages, {}],
  ['hourly', hourlyMessages, { day: '2027-02-29' }],
  ['hourly', hourlyMessages, { day: '20280229' }],
  ['hourly', hourlyMessages, { day: '1600-01-01' }],
  ['daily', dailyMessages, {}],
  ['daily', dailyMessages, { year: '1600' }],
  ['daily', dailyMessages, { year: '10000' }],
  ['daily', dailyMessages, { year: '20x8' }],
])('GET %s answers 400 for query %j', async (_, handler, query) => {
  const response = await call(handler, 'GET', employee, { ...asEmployee, query });
  expect(response.status).toBe(400);
  expect(response.jsonBody?.error?.message).toMatch(/query\./);
});
