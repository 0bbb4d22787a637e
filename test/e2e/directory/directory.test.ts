/**
 * The directory over HTTP through the local Functions host: a client creates a department and
 * employees, looks them up by id, email and last name, changes and deletes them, and writes
 * reviews — with the statuses, ETags and error bodies of API.md.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const EMPLOYEES_TABLE = uniqueTableName('EmpE2e');
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { EMPLOYEES_TABLE } });
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(EMPLOYEES_TABLE).deleteTable();
});

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  etag: string | null;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}> {
  // Not a test of authorization: a DirectoryAdmin walks the directory.
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json', ...headers },
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

const awkward = {
  employeeId: '000223',
  firstName: `Zoë "Z" O'Neil`,
  lastName: 'Ström-Øst',
  email: `zoë/o'neil#1&x@exämple.com`,
  age: 31,
};

it('creates a department (201, then 200) and reads it with one point read', async () => {
  expect(
    (await send('PUT', '/departments/Sales%20EU', { description: 'Sales in Europe' })).status,
  ).toBe(201);
  const again = await send('PUT', '/departments/Sales%20EU', { description: 'Sales, Europe' });
  expect(again.status).toBe(200);
  expect(again.etag).toMatch(/^W\//);
  const read = await send('GET', '/departments/Sales%20EU');
  expect(read.json).toEqual({
    name: 'Sales EU',
    description: 'Sales, Europe',
    employeeCount: 0,
    manager: null,
  });
  const list = await send('GET', '/departments?pageSize=10');
  expect(list.json.items).toEqual([
    {
      name: 'Sales EU',
      description: 'Sales, Europe',
      employeeCount: 0,
      countAsOf: expect.any(String),
    },
  ]);
});

it('creates an employee with awkward text and finds it by id, by email (encoded) and by last name', async () => {
  const created = await send('POST', '/departments/Sales%20EU/employees', awkward);
  expect(created.status).toBe(201);
  expect(created.etag).toMatch(/^W\//);
  expect(created.json).toEqual({ department: 'Sales EU', ...awkward });
  expect((await send('GET', '/departments/Sales%20EU/employees/000223')).json).toMatchObject(
    awkward,
  );
  const byEmail = await send(
    'GET',
    `/departments/Sales%20EU/employees/by-email/${encodeURIComponent(awkward.email.toUpperCase())}`,
  );
  expect(byEmail.status).toBe(200);
  expect(byEmail.json).toMatchObject({ employeeId: '000223', email: awkward.email });
  const byName = await send(
    'GET',
    `/employees?lastName=${encodeURIComponent('STRÖM-ØST')}&department=Sales%20EU`,
  );
  expect(byName.json.items).toEqual([expect.objectContaining({ employeeId: '000223' })]);
  expect((await send('GET', '/departments/Sales%20EU')).json.employeeCount).toBe(1);
});

it('answers the documented errors with the JSON error shape', async () => {
  const unknownDept = await send('POST', '/departments/Nowhere/employees', {
    ...awkward,
    employeeId: '000001',
  });
  expect(unknownDept.status).toBe(404);
  expect(unknownDept.json.error).toMatchObject({
    code: 'DepartmentNotFound',
    message: expect.any(String),
  });
  const taken = await send('POST', '/departments/Sales%20EU/employees', {
    ...awkward,
    employeeId: '000224',
  });
  expect(taken.status).toBe(409);
  expect(taken.json.error?.code).toBe('EmailTaken');
  const bad = await send('POST', '/departments/Sales%20EU/employees', {
    ...awkward,
    employeeId: '224',
  });
  expect(bad.status).toBe(400);
  expect(bad.json.error?.message).toMatch(/employeeId/);
  expect((await send('GET', '/departments/Sales%20EU/employees/000999')).status).toBe(404);
  expect((await send('GET', '/departments/Sales%20EU/employees?pageSize=5000')).status).toBe(400);
});

it('PATCHes with If-Match (200 with a new ETag, then 412 with the old one) and moves the email copy', async () => {
  const { etag } = await send('GET', '/departments/Sales%20EU/employees/000223');
  const patched = await send(
    'PATCH',
    '/departments/Sales%20EU/employees/000223',
    { email: 'zoe@example.com' },
    { 'if-match': etag! },
  );
  expect(patched.status).toBe(200);
  expect(patched.etag).not.toBe(etag);
  const stale = await send(
    'PATCH',
    '/departments/Sales%20EU/employees/000223',
    { age: 32 },
    { 'if-match': etag! },
  );
  expect(stale.status).toBe(412);
  expect(
    (
      await send(
        'GET',
        `/departments/Sales%20EU/employees/by-email/${encodeURIComponent(awkward.email)}`,
      )
    ).status,
  ).toBe(404);
  expect(
    (await send('GET', '/departments/Sales%20EU/employees/by-email/zoe@example.com')).status,
  ).toBe(200);
});

it('imports rows, pages through them, and deletes one (204, then 404)', async () => {
  const rows = Array.from({ length: 150 }, (_, i) => ({
    employeeId: String(1000 + i).padStart(6, '0'),
    firstName: 'Row',
    lastName: `Name${i % 5}`,
    email: `row${i}@example.com`,
  }));
  const imported = await send('POST', '/departments/Sales%20EU/employees/import', {
    employees: rows,
  });
  expect(imported.json).toEqual({ created: 150, failed: [] });
  const ids: string[] = [];
  let token: string | null = null;
  do {
    const query: string = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
    const page = await send(
      'GET',
      `/departments/Sales%20EU/employees?fromId=001000&toId=001999&pageSize=60&select=email${query}`,
    );
    expect(page.status).toBe(200);
    ids.push(...(page.json.items as { employeeId: string }[]).map((e) => e.employeeId));
    token = page.json.continuationToken as string | null;
  } while (token);
  expect(ids).toEqual(rows.map((r) => r.employeeId));
  expect((await send('DELETE', '/departments/Sales%20EU/employees/001000')).status).toBe(204);
  expect((await send('DELETE', '/departments/Sales%20EU/employees/001000')).status).toBe(404);
  expect((await send('GET', '/departments/Sales%20EU')).json.employeeCount).toBe(150);
});

it('sets the manager and keeps its copy current; writes and lists reviews by year', async () => {
  const manager = await send('PUT', '/departments/Sales%20EU/manager', { employeeId: '000223' });
  expect(manager.json.manager).toMatchObject({ employeeId: '000223', email: 'zoe@example.com' });
  await send('PATCH', '/departments/Sales%20EU/employees/000223', { firstName: 'Zoe' });
  expect((await send('GET', '/departments/Sales%20EU')).json.manager).toMatchObject({
    firstName: 'Zoe',
  });
  expect(
    (
      await send('PUT', '/departments/Sales%20EU/employees/000223/reviews/2025', {
        managerRating: 4,
        peerRating: 5,
      })
    ).status,
  ).toBe(200);
  await send('PUT', '/departments/Sales%20EU/employees/000223/reviews/2023', {
    managerRating: 3,
    peerRating: 3,
    comments: 'ok',
  });
  const reviews = await send(
    'GET',
    '/departments/Sales%20EU/employees/000223/reviews?select=managerRating',
  );
  expect(reviews.json).toEqual({
    items: [
      { year: 2023, managerRating: 3 },
      { year: 2025, managerRating: 4 },
    ],
    continuationToken: null,
  });
});
