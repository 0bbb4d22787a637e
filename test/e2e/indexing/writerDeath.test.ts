/**
 * Nothing waits on a process that has stopped: two local hosts serve the same storage; the one
 * that takes a create is killed (SIGKILL) right after its 201, before its own drain could run,
 * and the other one — with the outbox sweep scheduled far away — brings the org-wide last-name
 * index up to date within 30 s, from the delayed queue message the write stored before it
 * answered (src/indexing/queue/queueChangeSink.ts, docs/queues.md "Nothing waits on the writer").
 */
import { randomBytes } from 'node:crypto';
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

const shared = {
  EMPLOYEES_TABLE: uniqueTableName('DeathEmp'),
  EMPLOYEE_INDEX_TABLE: uniqueTableName('DeathIdx'),
  INDEX_QUEUE: uniqueName('death-idx'),
  LASTNAME_INDEX_CONTAINER: uniqueName('death-ln'),
  // Once a year: no sweep during the test (and none at startup).
  INDEX_OUTBOX_SWEEP_SCHEDULE: '0 0 0 1 1 *',
};
const hosts: RunningHost[] = [];

afterAll(async () => {
  await Promise.allSettled(hosts.map((host) => host.stop()));
  const clients = testClients();
  await Promise.allSettled([
    clients.table(shared.EMPLOYEES_TABLE).deleteTable(),
    clients.table(shared.EMPLOYEE_INDEX_TABLE).deleteTable(),
    clients.queue(shared.INDEX_QUEUE).delete(),
    clients.container(shared.LASTNAME_INDEX_CONTAINER).deleteIfExists(),
  ]);
});

async function call(host: RunningHost, method: string, path: string, body?: unknown) {
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

it('indexes a create through another instance within 30 s when the writer dies right after its 201', async () => {
  const [writer, survivor] = await Promise.all([
    // The writer's own drain would start 5 s after the write: it is dead long before.
    startHost({ env: { ...shared, INDEX_DRAIN_LINGER_MS: '5000' } }),
    startHost({ env: shared }),
  ]);
  hosts.push(writer, survivor);
  expect((await call(writer, 'PUT', '/departments/Crash', {})).status).toBe(201);
  const lastName = `Gone${randomBytes(4).toString('hex')}`;

  const created = await call(writer, 'POST', '/departments/Crash/employees', {
    employeeId: '000001',
    firstName: 'Ada',
    lastName,
    email: 'ada@example.com',
  });
  const answeredAt = Date.now();
  writer.kill();
  expect(created.status).toBe(201);
  expect(await writer.exited()).toBeNull(); // killed by the signal

  let found: unknown[] = [];
  while (Date.now() - answeredAt < 30_000) {
    const page = await call(survivor, 'GET', `/employees?lastName=${lastName}`);
    expect(page.status).toBe(200);
    found = (page.body as { items: unknown[] }).items;
    if (found.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(found).toEqual([
    expect.objectContaining({ department: 'Crash', employeeId: '000001', lastName }),
  ]);
  expect(Date.now() - answeredAt).toBeLessThan(30_000);
});
