/**
 * The index audit through the local host: once the index worker has built the indexes, an audit
 * reports no drift; drift injected into storage is reported by `{"repair": false}` (and left as
 * it is), fixed by `{"repair": true}`, and gone on the next audit.
 */
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';
import {
  executionHistories,
  HUB_SETTING,
  hostWith,
  isolatedSettings,
  pollUntilEnded,
  seedDepartment,
  send,
} from './support';

const settings = isolatedSettings();
let host: RunningHost;

beforeAll(async () => {
  host = await hostWith(settings);
  await seedDepartment(host, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
    { employeeId: '000002', lastName: 'Smith', email: 'smith@contoso.com' },
  ]);
});
afterAll(async () => {
  await host?.stop();
});

async function audit(repair: boolean): Promise<Record<string, unknown>> {
  const started = await send(host, 'POST', '/maintenance/indexes/audit', { repair });
  expect(started.status).toBe(202);
  const status = await pollUntilEnded(host, String(started.json.statusUri));
  expect(status.runtimeStatus).toBe('Completed');
  return status.output as Record<string, unknown>;
}

it('reports drift without repair, repairs it with repair, then finds none', async () => {
  // Let the index worker catch up: the audit (repairing) converges either way.
  await audit(true);
  expect(await audit(false)).toMatchObject({ missing: 0, stale: 0, repaired: 0, departments: 1 });

  const employees = testClients().table(settings.EMPLOYEES_TABLE!);
  await employees.deleteEntity('Sales', 'email_jones@contoso.com');
  await employees.upsertEntity({
    partitionKey: 'Sales',
    rowKey: 'lastname_ghost',
    EntityType: 'LastNameIndex.v1',
    LastName: 'ghost',
    Count: 1,
    Ids00: '000777',
  });

  expect(await audit(false)).toMatchObject({ missing: 1, stale: 1, repaired: 0, repair: false });
  expect(
    (await send(host, 'GET', '/departments/Sales/employees/by-email/jones@contoso.com')).status,
  ).toBe(404);
  expect(await audit(true)).toMatchObject({ missing: 1, stale: 1, repaired: 2, repair: true });
  expect(await audit(false)).toMatchObject({ missing: 0, stale: 0, repaired: 0 });
  expect(
    (await send(host, 'GET', '/departments/Sales/employees/by-email/jones@contoso.com')).status,
  ).toBe(200);
});

it('refuses a body that is not {"repair": boolean} with 400', async () => {
  const response = await send(host, 'POST', '/maintenance/indexes/audit', { repair: 'yes' });
  expect(response.status).toBe(400);
  expect(response.json.error).toMatchObject({ code: expect.any(String) });
});

it('audits a department in pages with a history bounded by the rounds, not the size', async () => {
  // 40 employees in pages of 5 run the activities 400 in pages of 50 would, at a tenth of the
  // reads (every employee costs a few); departments of thousands are the bench's scale case.
  const size = 40;
  await seedDepartment(
    host,
    'Paged',
    Array.from({ length: size }, (_, i) => {
      const id = String(i + 1).padStart(6, '0');
      return {
        employeeId: id,
        lastName: ['Jones', 'Smith', 'Ng'][i % 3]!,
        email: `q${id}@contoso.com`,
      };
    }),
  );
  const run = async (repair: boolean) => {
    const started = await send(host, 'POST', '/maintenance/indexes/audit', {
      repair,
      pageSize: 5,
    });
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri), 150_000);
    expect(status.runtimeStatus).toBe('Completed');
    return { status, histories: await executionHistories(settings[HUB_SETTING]!, status.id) };
  };
  // The import's index changes are drained asynchronously: start from indexes an audit finds
  // clean (a repairing audit, then audits until one finds nothing), not from whatever a single
  // repairing run left while the drains were still at work.
  await run(true);
  const settledBy = Date.now() + WAIT_MS;
  while (((await run(false)).status.output as { missing?: number }).missing !== 0) {
    if (Date.now() > settledBy) throw new Error('the indexes never audited clean');
  }
  const employees = testClients().table(settings.EMPLOYEES_TABLE!);
  await employees.deleteEntity('Paged', 'email_q000035@contoso.com');

  const found = await run(false);
  expect(found.status.output).toMatchObject({ missing: 1, stale: 0, repaired: 0 });
  const fixed = await run(true);
  expect(fixed.status.output).toMatchObject({ missing: 1, stale: 0, repaired: 1 });
  expect((await run(false)).status.output).toMatchObject({ missing: 0, stale: 0, repaired: 0 });

  // 40 employees in pages of 5: 8 forward pages and the reverse passes' pages, 5 rounds of page
  // activities per execution: many executions, each small.
  expect(fixed.histories.length).toBeGreaterThanOrEqual(5);
  const largest = Math.max(...fixed.histories.map((h) => h.events));
  expect(largest).toBeLessThanOrEqual(60);
}, 300_000);
