/**
 * Archive over HTTP through the local host's queue trigger: 202 + Location, then the employee is
 * gone from the directory and every index and present in the archive; a message that always fails
 * ends in `<queue>-poison` after maxDequeueCount deliveries; the same request delivered again after
 * the employee was re-created touches neither the new employee nor the first archive record.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { encodeQueueMessage } from '../../../src/storage/queue';
import { WAIT_MS } from '../../support/waits';

const env = {
  EMPLOYEES_TABLE: uniqueTableName('EmpArc'),
  ARCHIVE_TABLE: uniqueTableName('Arc'),
  EMPLOYEE_INDEX_TABLE: uniqueTableName('Idx'),
  ARCHIVE_QUEUE: uniqueName('arc'),
  INDEX_QUEUE: uniqueName('idx'),
  LASTNAME_INDEX_CONTAINER: uniqueName('ln'),
};
let host: RunningHost;
beforeAll(async () => {
  host = await startHost({ env });
});
afterAll(async () => {
  await host?.stop();
  const clients = testClients();
  await Promise.allSettled([
    clients.table(env.EMPLOYEES_TABLE).deleteTable(),
    clients.table(env.ARCHIVE_TABLE).deleteTable(),
    clients.table(env.EMPLOYEE_INDEX_TABLE).deleteTable(),
    clients.queue(env.ARCHIVE_QUEUE).delete(),
    clients.queue(`${env.ARCHIVE_QUEUE}-poison`).delete(),
    clients.queue(env.INDEX_QUEUE).delete(),
    clients.container(env.LASTNAME_INDEX_CONTAINER).deleteIfExists(),
  ]);
});

async function send(method: string, path: string, body?: unknown) {
  // Not a test of authorization: a DirectoryAdmin sets up, archives and reads back.
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : {} };
}

async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('archives through the queue and the indexes follow', async () => {
  await send('PUT', '/departments/Sales', {});
  const created = await send('POST', '/departments/Sales/employees', {
    employeeId: '000223',
    firstName: 'Jo',
    lastName: 'Jones',
    email: 'jo@contoso.com',
  });
  expect(created.status).toBe(201);
  const indexed = await eventually(
    () => send('GET', '/employees?lastName=jones'),
    (r) => r.json.items?.length === 1,
  );
  expect(indexed.json.items[0]).toEqual(expect.objectContaining({ employeeId: '000223' }));
  const eventual = await eventually(
    () => send('GET', '/departments/Sales/employees/by-email/jo@contoso.com?consistency=eventual'),
    (r) => r.status === 200,
  );
  expect(eventual.json.lastName).toBe('Jones');

  expect((await send('POST', '/departments/Sales/employees/000999/archive')).status).toBe(404);
  const queued = await send('POST', '/departments/Sales/employees/000223/archive');
  expect(queued.status).toBe(202);
  expect(queued.json).toEqual({ status: 'queued' });
  expect(queued.headers.get('location')).toBe('/api/archive/departments/Sales/employees/000223');

  const archived = await eventually(
    () => send('GET', '/archive/departments/Sales/employees/000223'),
    (r) => r.status === 200,
  );
  expect(archived.json).toEqual(
    expect.objectContaining({ employeeId: '000223', lastName: 'Jones' }),
  );
  expect(archived.headers.get('etag')).toMatch(/^W\/"/);
  expect((await send('GET', '/departments/Sales/employees/000223')).status).toBe(404);
  const gone = await eventually(
    () => send('GET', '/employees?lastName=jones'),
    (r) => r.json.items?.length === 0,
  );
  expect(gone.json.items).toEqual([]);
  const emailGone = await eventually(
    () => send('GET', '/departments/Sales/employees/by-email/jo@contoso.com?consistency=eventual'),
    (r) => r.status === 404,
  );
  expect(emailGone.status).toBe(404);
});

it('moves a message that always fails to the poison queue after maxDequeueCount', async () => {
  const clients = testClients();
  const queue = clients.queue(env.ARCHIVE_QUEUE);
  await queue.createIfNotExists();
  await queue.sendMessage(
    encodeQueueMessage({ v: 1, department: 'Sales', employeeId: 'not-an-id' }),
  );
  const poison = clients.queue(`${env.ARCHIVE_QUEUE}-poison`);
  const peeked = await eventually(
    async () => {
      if (!(await poison.exists())) return [];
      return (await poison.peekMessages({ numberOfMessages: 1 })).peekedMessageItems;
    },
    (items) => items.length === 1,
    60_000,
  );
  expect(peeked).toHaveLength(1);
  expect(host.output()).toMatch(/Not an archive request/);
});

it('a redelivered archive request leaves the re-created employee and the first archive record intact', async () => {
  // Queues deliver at least once: a host may crash after the function returned, before the
  // message delete, and the same request comes again — here after the employee was re-created.
  await send('PUT', '/departments/Sales', {});
  const employee = {
    employeeId: '000224',
    firstName: 'First',
    lastName: 'Once',
    email: 'once@contoso.com',
  };
  expect((await send('POST', '/departments/Sales/employees', employee)).status).toBe(201);
  // The message `POST .../archive` enqueues, byte for byte (src/archive/archiveRequests.ts): it
  // names the incarnation the request was accepted for.
  const stored = await testClients()
    .table(env.EMPLOYEES_TABLE)
    .getEntity<{ Incarnation: string }>('Sales', 'empid_000224');
  const message = encodeQueueMessage({
    v: 2,
    department: 'Sales',
    employeeId: '000224',
    incarnation: stored.Incarnation,
  });

  expect((await send('POST', '/departments/Sales/employees/000224/archive')).status).toBe(202);
  const first = await eventually(
    () => send('GET', '/archive/departments/Sales/employees/000224'),
    (r) => r.status === 200,
  );
  expect(first.json).toEqual(expect.objectContaining({ firstName: 'First' }));
  expect((await send('GET', '/departments/Sales/employees/000224')).status).toBe(404);

  const again = { ...employee, firstName: 'Again' };
  expect((await send('POST', '/departments/Sales/employees', again)).status).toBe(201);
  await testClients().queue(env.ARCHIVE_QUEUE).sendMessage(message);
  // The worker logs each request it handles: wait for the second of this incarnation.
  const handled = new RegExp(
    `Archive Sales/000224 incarnation ${stored.Incarnation} \\(delivery \\d+\\): (\\w+)`,
    'g',
  );
  const outcomes = async (): Promise<string[]> =>
    [...host.output().matchAll(handled)].map((match) => match[1]!);
  expect(await eventually(outcomes, (seen) => seen.length >= 2)).toHaveLength(2);

  // The re-created employee is intact, and so is the first archive record.
  const current = await send('GET', '/departments/Sales/employees/000224');
  expect(current.status).toBe(200);
  expect(current.json).toEqual(expect.objectContaining({ firstName: 'Again', lastName: 'Once' }));
  const record = await send('GET', '/archive/departments/Sales/employees/000224');
  expect(record.status).toBe(200);
  expect(record.json).toEqual(first.json);
  expect(record.headers.get('etag')).toBe(first.headers.get('etag'));
  const archived: string[] = [];
  for await (const e of testClients().table(env.ARCHIVE_TABLE).listEntities()) {
    if (String(e.rowKey).includes('000224')) archived.push(String(e.rowKey));
  }
  expect(archived).toHaveLength(1);
  // The second delivery was for an incarnation that is gone: it touched nothing.
  expect(await outcomes()).toEqual(['archived', 'superseded']);
});
