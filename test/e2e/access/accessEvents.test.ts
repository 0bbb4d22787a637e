/**
 * Access events through the local Functions host: record events, read a window oldest first and
 * page through it.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asPrincipal, asTelemetry, employeePrincipal } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const ACCESS_LOG_TABLE = uniqueTableName('AccessE2e');
/** Events are posted by a telemetry service; the employee reads its own. */
const asEmployee = (): RequestInit => asPrincipal(employeePrincipal('Sales', '000223'));
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { ACCESS_LOG_TABLE } });
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(ACCESS_LOG_TABLE).deleteTable();
});

it('records events and pages through a window oldest first', async () => {
  for (const minute of [3, 1, 2, 0]) {
    const response = await fetch(
      `${host.baseUrl}/access-events`,
      asTelemetry({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          department: 'Sales',
          employeeId: '000223',
          resource: `/doc/${minute}`,
          action: 'read',
          at: `2026-06-01T10:0${minute}:00Z`,
        }),
      }),
    );
    expect(response.status).toBe(201);
  }
  const window = `/departments/Sales/employees/000223/access-events?from=${encodeURIComponent('2026-06-01T12:00:00+02:00')}&to=2026-06-01T10:03:00Z&pageSize=2`;
  const first = (await (await fetch(`${host.baseUrl}${window}`, asEmployee())).json()) as {
    items: { resource: string }[];
    continuationToken: string;
  };
  expect(first.items.map((e) => e.resource)).toEqual(['/doc/0', '/doc/1']);
  const second = (await (
    await fetch(
      `${host.baseUrl}${window}&continuationToken=${first.continuationToken}`,
      asEmployee(),
    )
  ).json()) as { items: { resource: string }[]; continuationToken: string | null };
  expect(second).toEqual({
    items: [expect.objectContaining({ resource: '/doc/2' })],
    continuationToken: null,
  });
});

it('answers 400 with the JSON error shape for a bad event or window', async () => {
  const bad = await fetch(
    `${host.baseUrl}/access-events`,
    asTelemetry({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ department: 'Sales', employeeId: '000223', resource: 'x' }),
    }),
  );
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({
    error: expect.objectContaining({
      code: 'InvalidInput',
      message: expect.stringContaining('body.action'),
    }),
  });
  const reversed = await fetch(
    `${host.baseUrl}/departments/Sales/employees/000223/access-events?from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z`,
    asEmployee(),
  );
  expect(reversed.status).toBe(400);
});
