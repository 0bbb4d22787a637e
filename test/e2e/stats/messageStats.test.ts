/**
 * Message statistics through the local Functions host: concurrent increments over HTTP are all
 * counted, in the hourly series and in the yearly wide entity.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asPrincipal, asTelemetry, employeePrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const MESSAGE_STATS_TABLE = uniqueTableName('StatsE2e');
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { MESSAGE_STATS_TABLE } });
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(MESSAGE_STATS_TABLE).deleteTable();
});

const path = '/departments/Sales/employees/000223/messages';

/** Counts are posted by a telemetry service. */
function post(body: unknown): Promise<Response> {
  return fetch(
    `${host.baseUrl}${path}`,
    asTelemetry({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** The employee reads its own statistics. */
function read(query: string): Promise<Response> {
  return fetch(`${host.baseUrl}${path}${query}`, asPrincipal(employeePrincipal('Sales', '000223')));
}

it('counts 20 concurrent POSTs exactly in the hour and the day', async () => {
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) => post({ at: '2028-12-31T23:15:00Z', count: i + 1 })),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(20).fill(204));
  const hourly = await (await read('/hourly?day=2028-12-31')).json();
  expect(hourly).toEqual({
    day: '2028-12-31',
    hours: Array.from({ length: 24 }, (_, h) => (h === 23 ? 210 : 0)),
  });
  const daily = (await (await read('/daily?year=2028')).json()) as {
    year: number;
    days: number[];
  };
  expect(daily.year).toBe(2028);
  expect(daily.days).toHaveLength(366);
  expect(daily.days[365]).toBe(210);
});

it('answers 400 with the JSON error shape for bad input', async () => {
  const bad = await post({ count: -1 });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({
    error: expect.objectContaining({
      code: 'InvalidInput',
      message: expect.stringContaining('body.count'),
    }),
  });
  expect((await read('/hourly?day=2027-02-29')).status).toBe(400);
  expect((await read('/daily')).status).toBe(400);
});
