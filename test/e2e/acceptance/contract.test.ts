/**
 * Contract acceptance: a client walks /work/shared/API.md section by section over the shared test
 * Azurite (default table names, so every test works in a department and with user ids of its
 * own). Each response is checked for its status, JSON content type, `ETag` where API.md promises
 * one, list shape and error body.
 *
 * The same scenarios run twice: against the local host with hand-sent principal headers, and "as
 * deployed" (test/support/azureMode.ts): the host with a Flex Consumption instance's environment
 * behind the imitation of App Service authentication, where each caller is a bearer token and a
 * caller without a usable one is refused by the platform itself. The queue-triggered work (index
 * drains, the archive) runs in the host in both.
 */
import { randomBytes } from 'node:crypto';
import { startAzureMode } from '../../support/azureMode';
import { startHost } from '../../support/host';
import { adminPrincipal, employeePrincipal, readerPrincipal } from '../../support/principals';
import {
  bearerTransport,
  eventually,
  expectError,
  expectJson,
  principalHeaderTransport,
  send,
  seg,
  uniqueDepartment,
  type CallerTransport,
  type JsonObject,
  type Reply,
  type SendOptions,
} from './client';

/** The app as one run of the scenarios calls it. */
interface Target {
  baseUrl: string;
  transport: CallerTransport;
  stop(): Promise<void>;
}

const MODES: [string, () => Promise<Target>][] = [
  [
    'local host, hand-sent principal headers',
    async () => {
      const host = await startHost();
      return {
        baseUrl: host.baseUrl,
        transport: principalHeaderTransport,
        stop: () => host.stop(),
      };
    },
  ],
  [
    'Azure mode, behind App Service authentication',
    async () => {
      const azure = await startAzureMode();
      return {
        baseUrl: azure.baseUrl,
        transport: bearerTransport(azure),
        stop: () => azure.stop(),
      };
    },
  ],
];

/** The run in progress (jest runs the two modes' blocks one after the other). */
let target: Target;

const call = (method: string, path: string, options?: SendOptions): Promise<Reply> =>
  send(target.baseUrl, method, path, { transport: target.transport, ...options });

/** Text a user can type that breaks naive keys, filters and URLs. */
const AWKWARD_FIRST = `Zoë "Z" O'Neil/#?%&\\ 東京 🚀`;
const AWKWARD_LAST = `Ström-Øst'"/\\#?%&`;
/** What of that an email may hold (src/directory/emailRule.ts): no `"`, `?`, `%`, `\\` or emoji. */
const AWKWARD_EMAIL = `zoë/o'neil#1&{x}=y@exämple.com`;

async function createDepartment(prefix: string, description = 'Acceptance test'): Promise<string> {
  const dept = uniqueDepartment(prefix);
  expectJson(await call('PUT', `/departments/${seg(dept)}`, { json: { description } }), 201);
  return dept;
}

function employee(id: string, overrides: JsonObject = {}): JsonObject {
  return {
    employeeId: id,
    firstName: `First${id}`,
    lastName: `Last${id}`,
    email: `e${id}@example.com`,
    age: 30,
    ...overrides,
  };
}

async function createEmployee(dept: string, body: JsonObject): Promise<Reply> {
  return call('POST', `/departments/${seg(dept)}/employees`, { json: body });
}

describe.each(MODES)('the directory contract (%s)', (_mode, start) => {
  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target?.stop();
  });

  describe('Health', () => {
    it('GET /health answers 200 {"status":"ok","storage":"ok"}', async () => {
      const body = expectJson(await call('GET', '/health', { principal: null }), 200);
      // The report also names each storage service (`services`): an additive field.
      expect(body).toMatchObject({ status: 'ok', storage: 'ok' });
    });
  });

  describe('Departments', () => {
    it('PUT creates (201) then updates (200), GET is one point read with an ETag', async () => {
      const dept = uniqueDepartment('Dept');
      const created = await call('PUT', `/departments/${seg(dept)}`, {
        json: { description: `Ünïcode "desc" / # ? 🚀` },
      });
      expect(expectJson(created, 201)).toEqual({
        name: dept,
        description: `Ünïcode "desc" / # ? 🚀`,
        employeeCount: 0,
        manager: null,
      });
      expect(created.etag).toBeTruthy();

      const updated = await call('PUT', `/departments/${seg(dept)}`, {
        json: { description: 'x' },
      });
      expectJson(updated, 200);
      expect(updated.etag).toBeTruthy();
      expect(updated.etag).not.toBe(created.etag);

      const read = await call('GET', `/departments/${seg(dept)}`);
      expect(expectJson(read, 200)).toEqual({
        name: dept,
        description: 'x',
        employeeCount: 0,
        manager: null,
      });
      expect(read.etag).toBe(updated.etag);
    });

    it('PUT with a stale If-Match is 412 and changes nothing', async () => {
      const dept = await createDepartment('Stale', 'before');
      const stale = await call('GET', `/departments/${seg(dept)}`);
      await call('PUT', `/departments/${seg(dept)}`, { json: { description: 'second' } });
      expectError(
        await call('PUT', `/departments/${seg(dept)}`, {
          json: { description: 'lost' },
          headers: { 'if-match': stale.etag! },
        }),
        412,
      );
      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).description).toBe(
        'second',
      );
    });

    it('GET of an unknown department is 404; an invalid name is 400', async () => {
      expectError(await call('GET', `/departments/${seg(uniqueDepartment('Nobody'))}`), 404);
      expectError(await call('GET', `/departments/${seg('Sales!')}`), 400);
      expectError(await call('PUT', `/departments/${seg('x'.repeat(65))}`, { json: {} }), 400);
      expectError(await call('PUT', `/departments/${seg("Sales'or''='")}`, { json: {} }), 400);
    });

    it('GET /departments is a paged list {items, continuationToken}', async () => {
      const dept = await createDepartment('Listed');
      const first = expectJson(await call('GET', '/departments?pageSize=1'), 200);
      expect(Object.keys(first).sort()).toEqual(['continuationToken', 'items']);
      expect(first.items).toHaveLength(1);

      let token: string | null = null;
      let found: JsonObject | undefined;
      for (let page = 0; page < 100 && !found; page++) {
        const query = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
        const body = expectJson(await call('GET', `/departments?pageSize=1000${query}`), 200);
        found = (body.items as JsonObject[]).find((d) => d.name === dept);
        token = body.continuationToken as string | null;
        if (token === null) break;
      }
      expect(found).toMatchObject({ name: dept, description: 'Acceptance test' });

      expectError(await call('GET', '/departments?pageSize=0'), 400);
      expectError(await call('GET', '/departments?pageSize=1001'), 400);
      expectError(await call('GET', '/departments?continuationToken=garbage'), 400);
    });

    it('PUT /manager copies the manager; renaming the manager updates the copy; 404 for a stranger', async () => {
      const dept = await createDepartment('Mgr');
      expectJson(await createEmployee(dept, employee('000001')), 201);
      expectError(
        await call('PUT', `/departments/${seg(dept)}/manager`, { json: { employeeId: '000002' } }),
        404,
      );
      const set = await call('PUT', `/departments/${seg(dept)}/manager`, {
        json: { employeeId: '000001' },
      });
      expect(expectJson(set, 200).manager).toEqual({
        employeeId: '000001',
        firstName: 'First000001',
        lastName: 'Last000001',
        email: 'e000001@example.com',
      });
      expect(set.etag).toBeTruthy();

      expectJson(
        await call('PATCH', `/departments/${seg(dept)}/employees/000001`, {
          json: { lastName: AWKWARD_LAST, email: AWKWARD_EMAIL },
        }),
        200,
      );
      const read = expectJson(await call('GET', `/departments/${seg(dept)}`), 200);
      expect(read.manager).toEqual({
        employeeId: '000001',
        firstName: 'First000001',
        lastName: AWKWARD_LAST,
        email: AWKWARD_EMAIL,
      });
      expect(read.employeeCount).toBe(1);
    });
  });

  describe('Employees', () => {
    it('POST creates (201 + ETag) and awkward text round-trips through id and email reads', async () => {
      const dept = await createDepartment('Emp');
      const body = employee('000223', {
        firstName: AWKWARD_FIRST,
        lastName: AWKWARD_LAST,
        email: AWKWARD_EMAIL,
      });
      const created = await createEmployee(dept, body);
      expect(expectJson(created, 201)).toEqual({ department: dept, ...body });
      expect(created.etag).toBeTruthy();

      const read = await call('GET', `/departments/${seg(dept)}/employees/000223`);
      expect(expectJson(read, 200)).toEqual({ department: dept, ...body });
      expect(read.etag).toBe(created.etag);

      const byEmail = await call(
        'GET',
        `/departments/${seg(dept)}/employees/by-email/${seg(AWKWARD_EMAIL)}`,
      );
      expect(expectJson(byEmail, 200)).toEqual({ department: dept, ...body });
      expect(byEmail.etag).toBeTruthy();

      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(1);
    });

    it('by-email with consistency=eventual reads the index table once it has caught up', async () => {
      const dept = await createDepartment('Eventual');
      const body = employee('000500', { email: `ev'/#&{~}@exämple.com` });
      expectJson(await createEmployee(dept, body), 201);
      const path = `/departments/${seg(dept)}/employees/by-email/${seg(body.email as string)}?consistency=eventual`;
      const found = await eventually(async () => {
        const reply = await call('GET', path);
        return reply.status === 200 ? reply : undefined;
      });
      expect(expectJson(found, 200)).toMatchObject({ department: dept, employeeId: '000500' });
      expectError(
        await call('GET', `/departments/${seg(dept)}/employees/by-email/x%40y?consistency=sloppy`),
        400,
      );
    });

    it('POST answers 404 for an unknown department and 409 for a taken id or email; nothing extra is stored', async () => {
      expectError(await createEmployee(uniqueDepartment('Ghost'), employee('000001')), 404);
      const dept = await createDepartment('Dup');
      expectJson(await createEmployee(dept, employee('000001')), 201);
      expectError(
        await createEmployee(dept, employee('000001', { email: 'other@example.com' })),
        409,
      );
      expectError(
        await createEmployee(dept, employee('000002', { email: 'E000001@EXAMPLE.COM' })),
        409,
      );
      expectError(await call('GET', `/departments/${seg(dept)}/employees/000002`), 404);
      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(1);
    });

    it('POST refuses ill-typed or missing fields with 400 naming the field', async () => {
      const dept = await createDepartment('Bad');
      const cases: JsonObject[] = [
        { ...employee('000001'), employeeId: '223' },
        { ...employee('000001'), email: 'no-at-sign' },
        { ...employee('000001'), age: 'thirty' },
        { ...employee('000001'), firstName: '' },
        { ...employee('000001'), firstName: 'tab\there' },
        { ...employee('000001'), unknownField: 1 },
        { employeeId: '000001' },
      ];
      for (const body of cases) {
        const error = expectError(await createEmployee(dept, body), 400);
        expect(error.message).toMatch(/body/);
      }
      expectError(await call('GET', `/departments/${seg(dept)}/employees/000001`), 404);
    });

    it('import creates valid rows in transactions and reports invalid and duplicate ones', async () => {
      const dept = await createDepartment('Import');
      expectJson(await createEmployee(dept, employee('000010')), 201);
      const rows = [
        employee('000011'),
        employee('000012', { lastName: AWKWARD_LAST, email: `imp'/#&{~}@example.com` }),
        { ...employee('000013'), email: 'broken' },
        employee('000010'),
        employee('000014'),
        employee('000015', { email: 'e000014@example.com' }),
      ];
      const reply = await call('POST', `/departments/${seg(dept)}/employees/import`, {
        json: { employees: rows },
      });
      const body = expectJson(reply, 200);
      expect(body.created).toBe(3);
      const failed = body.failed as Array<{
        employeeId: string;
        error: { code: string; message: string };
      }>;
      expect(failed.map((f) => f.employeeId).sort()).toEqual(['000010', '000013', '000015']);
      for (const f of failed) {
        expect(typeof f.error.code).toBe('string');
        expect(typeof f.error.message).toBe('string');
      }
      expect(
        expectJson(await call('GET', `/departments/${seg(dept)}/employees/000012`), 200),
      ).toMatchObject({ lastName: AWKWARD_LAST });
      expectError(await call('GET', `/departments/${seg(dept)}/employees/000013`), 404);
      expectError(await call('GET', `/departments/${seg(dept)}/employees/000015`), 404);
      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(4);
      expectError(
        await call('POST', `/departments/${seg(dept)}/employees/import`, {
          json: { employees: [] },
        }),
        400,
      );
    });

    it('id range, email range, select and continuationToken paging', async () => {
      const dept = await createDepartment('Range');
      const ids = ['000101', '000102', '000103', '000104', '000105', '000200'];
      const emails = ['eve@x.io', 'bob@x.io', 'dan@x.io', 'amy@x.io', 'cat@x.io', 'fay@x.io'];
      const body = {
        employees: ids.map((id, i) => employee(id, { email: emails[i] })),
      };
      expect(
        expectJson(
          await call('POST', `/departments/${seg(dept)}/employees/import`, { json: body }),
          200,
        ).created,
      ).toBe(6);

      const base = `/departments/${seg(dept)}/employees`;
      const range = expectJson(await call('GET', `${base}?fromId=000100&toId=000199`), 200);
      expect(Object.keys(range).sort()).toEqual(['continuationToken', 'items']);
      expect((range.items as JsonObject[]).map((e) => e.employeeId)).toEqual(ids.slice(0, 5));
      expect(range.continuationToken).toBeNull();

      const byEmail = expectJson(await call('GET', `${base}?emailFrom=b&emailTo=e`), 200);
      expect((byEmail.items as JsonObject[]).map((e) => e.email)).toEqual([
        'bob@x.io',
        'cat@x.io',
        'dan@x.io',
      ]);

      const selected = expectJson(
        await call('GET', `${base}?fromId=000101&toId=000101&select=firstName`),
        200,
      );
      const only = (selected.items as JsonObject[])[0]!;
      // Only the selected field, plus the keys.
      expect(only).toEqual({ department: dept, employeeId: '000101', firstName: 'First000101' });
      expectError(await call('GET', `${base}?fromId=000101&select=password`), 400);

      const seen: string[] = [];
      let token: string | null = null;
      let pages = 0;
      do {
        const query = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
        const page = expectJson(
          await call('GET', `${base}?fromId=000100&toId=000299&pageSize=2${query}`),
          200,
        );
        expect((page.items as JsonObject[]).length).toBeLessThanOrEqual(2);
        seen.push(...(page.items as JsonObject[]).map((e) => e.employeeId as string));
        token = page.continuationToken as string | null;
        pages++;
      } while (token !== null && pages < 10);
      expect(seen).toEqual(ids);
      expect(pages).toBeGreaterThanOrEqual(3);

      expectError(await call('GET', `${base}?fromId=000100&pageSize=abc`), 400);
      expectError(await call('GET', `${base}?fromId=000100&continuationToken=not-a-token`), 400);
    });

    it('PATCH returns a new ETag; a stale If-Match is 412 (PATCH and DELETE); a taken email 409', async () => {
      const dept = await createDepartment('Patch');
      const created = await createEmployee(dept, employee('000001'));
      expectJson(await createEmployee(dept, employee('000002')), 201);
      const path = `/departments/${seg(dept)}/employees/000001`;

      const patched = await call('PATCH', path, {
        json: { firstName: AWKWARD_FIRST },
        headers: { 'if-match': created.etag! },
      });
      expect(expectJson(patched, 200)).toMatchObject({ firstName: AWKWARD_FIRST });
      expect(patched.etag).toBeTruthy();
      expect(patched.etag).not.toBe(created.etag);

      expectError(
        await call('PATCH', path, {
          json: { firstName: 'Lost' },
          headers: { 'if-match': created.etag! },
        }),
        412,
      );
      expectError(await call('DELETE', path, { headers: { 'if-match': created.etag! } }), 412);
      expectError(await call('PATCH', path, { json: { email: 'E000002@example.com' } }), 409);
      expectError(await call('PATCH', path, { json: {} }), 400);
      expectError(await call('PATCH', path, { json: { age: -1 } }), 400);
      expectError(
        await call('PATCH', `/departments/${seg(dept)}/employees/000404`, { json: { age: 1 } }),
        404,
      );

      const read = await call('GET', path);
      expect(expectJson(read, 200)).toMatchObject({
        firstName: AWKWARD_FIRST,
        email: 'e000001@example.com',
        age: 30,
      });
      expect(read.etag).toBe(patched.etag);

      // Email change moves the email copy: the new address finds the employee, the old does not.
      const moved = await call('PATCH', path, { json: { email: AWKWARD_EMAIL } });
      expectJson(moved, 200);
      expectJson(
        await call('GET', `/departments/${seg(dept)}/employees/by-email/${seg(AWKWARD_EMAIL)}`),
        200,
      );
      expectError(
        await call('GET', `/departments/${seg(dept)}/employees/by-email/e000001%40example.com`),
        404,
      );
    });

    it('DELETE answers 204, then the employee and its email copy are gone (404)', async () => {
      const dept = await createDepartment('Del');
      expectJson(await createEmployee(dept, employee('000001')), 201);
      const path = `/departments/${seg(dept)}/employees/000001`;
      const deleted = await call('DELETE', path);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expectError(await call('GET', path), 404);
      expectError(
        await call('GET', `/departments/${seg(dept)}/employees/by-email/e000001%40example.com`),
        404,
      );
      expectError(await call('DELETE', path), 404);
      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(0);
    });

    it('GET /employees?lastName finds employees in a department and across the organisation', async () => {
      const lastName = `Jones-${randomBytes(4).toString('hex')}'"/#?`;
      const sales = await createDepartment('LnA');
      const ops = await createDepartment('LnB');
      expectJson(await createEmployee(sales, employee('000001', { lastName })), 201);
      expectJson(await createEmployee(ops, employee('000002', { lastName })), 201);

      const inDept = expectJson(
        await call('GET', `/employees?lastName=${seg(lastName)}&department=${seg(sales)}`),
        200,
      );
      expect((inDept.items as JsonObject[]).map((e) => e.employeeId)).toEqual(['000001']);

      const everywhere = await eventually(async () => {
        const body = expectJson(await call('GET', `/employees?lastName=${seg(lastName)}`), 200);
        return (body.items as JsonObject[]).length === 2 ? body : undefined;
      });
      expect(
        (everywhere.items as JsonObject[])
          .map((e) => `${e.department as string}/${e.employeeId as string}`)
          .sort(),
      ).toEqual([`${sales}/000001`, `${ops}/000002`].sort());
      expectError(await call('GET', '/employees'), 400);
    });
  });

  describe('Archive', () => {
    it('POST archive is 202 with a Location; the queue then moves the employee out of the directory and every index', async () => {
      const dept = await createDepartment('Arch');
      const lastName = `Archer-${randomBytes(4).toString('hex')}'"/#?`;
      const body = employee('000042', { lastName, email: `arch'/#&{~}@exämple.com` });
      expectJson(await createEmployee(dept, body), 201);
      const path = `/departments/${seg(dept)}/employees/000042`;
      const eventualEmail = `/departments/${seg(dept)}/employees/by-email/${seg(body.email as string)}?consistency=eventual`;
      // The index drain has run before the archive, so the indexes below are emptied by it.
      await eventually(async () =>
        (await call('GET', eventualEmail)).status === 200 ? true : undefined,
      );
      expectError(await call('POST', `/departments/${seg(dept)}/employees/000043/archive`), 404);

      const queued = await call('POST', `${path}/archive`);
      expect(expectJson(queued, 202)).toEqual({ status: 'queued' });
      const location = queued.headers.get('location');
      expect(location).toBe(`/api/archive${path}`);

      const archived = await eventually(async () => {
        const reply = await call('GET', location!.slice('/api'.length));
        return reply.status === 200 ? reply : undefined;
      });
      expect(expectJson(archived, 200)).toMatchObject({ department: dept, ...body });
      expect(archived.etag).toBeTruthy();
      expectError(await call('GET', path), 404);
      expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(0);
      await eventually(async () =>
        (await call('GET', eventualEmail)).status === 404 ? true : undefined,
      );
      await eventually(async () => {
        const found = expectJson(await call('GET', `/employees?lastName=${seg(lastName)}`), 200);
        return (found.items as JsonObject[]).length === 0 ? true : undefined;
      });
    });
  });

  describe('Reviews', () => {
    it('PUT per year (200 + ETag); GET lists them ordered by year, with select', async () => {
      const dept = await createDepartment('Rev');
      expectJson(await createEmployee(dept, employee('000001')), 201);
      const base = `/departments/${seg(dept)}/employees/000001/reviews`;
      for (const year of [2024, 2019, 2021]) {
        const put = await call('PUT', `${base}/${year}`, {
          json: { managerRating: 7, peerRating: 8.5, comments: `Gut "${year}" / #?% 🚀` },
        });
        expect(expectJson(put, 200)).toMatchObject({ year, managerRating: 7, peerRating: 8.5 });
        expect(put.etag).toBeTruthy();
      }
      const list = expectJson(await call('GET', base), 200);
      expect((list.items as JsonObject[]).map((r) => r.year)).toEqual([2019, 2021, 2024]);
      expect((list.items as JsonObject[])[0]).toEqual({
        year: 2019,
        managerRating: 7,
        peerRating: 8.5,
        comments: 'Gut "2019" / #?% 🚀',
      });
      const selected = expectJson(await call('GET', `${base}?select=managerRating`), 200);
      expect((selected.items as JsonObject[])[0]).toEqual({ year: 2019, managerRating: 7 });

      expectError(
        await call('PUT', `${base}/19`, { json: { managerRating: 1, peerRating: 1 } }),
        400,
      );
      expectError(
        await call('PUT', `${base}/2020`, { json: { managerRating: 11, peerRating: 1 } }),
        400,
      );
      expect((expectJson(await call('GET', base), 200).items as JsonObject[]).length).toBe(3);
    });
  });

  describe('Expenses', () => {
    it('POST is 201 with a claimId; GET ?top returns the newest first', async () => {
      const dept = uniqueDepartment('Exp');
      const base = `/departments/${seg(dept)}/employees/000001/expenses`;
      const times = ['2026-01-02T10:00:00Z', '2026-03-01T10:00:00Z', '2026-02-01T10:00:00Z'];
      for (const [i, submittedAt] of times.entries()) {
        const reply = await call('POST', base, {
          json: {
            amount: 10.5 + i,
            currency: 'EUR',
            description: `Taxi "${i}" / #?% 東京`,
            submittedAt,
          },
        });
        const body = expectJson(reply, 201);
        expect(typeof body.claimId).toBe('string');
        expect(body).toMatchObject({
          amount: 10.5 + i,
          currency: 'EUR',
          submittedAt: submittedAt.replace('Z', '.000Z'),
        });
      }
      const top = expectJson(await call('GET', `${base}?top=2`), 200);
      expect((top.items as JsonObject[]).map((c) => c.submittedAt)).toEqual([
        '2026-03-01T10:00:00.000Z',
        '2026-02-01T10:00:00.000Z',
      ]);
      expectError(
        await call('POST', base, { json: { amount: -1, currency: 'EUR', description: 'x' } }),
        400,
      );
      expectError(
        await call('POST', base, { json: { amount: 1, currency: 'eur', description: 'x' } }),
        400,
      );
      expectError(await call('GET', `${base}?top=0`), 400);
      expect(
        (expectJson(await call('GET', `${base}?top=10`), 200).items as JsonObject[]).length,
      ).toBe(3);
    });
  });

  describe('Login attempts', () => {
    it('POST /logins is 201; GET /logins/{userId} returns the last days newest first', async () => {
      const userId = `user-${randomBytes(4).toString('hex')}'"/#?%& 東京🚀`;
      const now = Date.now();
      const older = new Date(now - 2 * 86_400_000).toISOString();
      // A minute ago, but today (UTC): `days=1` reads today's table only, and a run in the first
      // minute after midnight would put "a minute ago" in yesterday's.
      const today = now - (now % 86_400_000);
      const newer = new Date(Math.max(now - 60_000, today)).toISOString();
      expectJson(
        await call('POST', '/logins', {
          json: { userId, succeeded: false, ip: '10.0.0.1', at: older },
        }),
        201,
      );
      expectJson(
        await call('POST', '/logins', { json: { userId, succeeded: true, at: newer } }),
        201,
      );
      const list = expectJson(await call('GET', `/logins/${seg(userId)}?days=7`), 200);
      const items = list.items as JsonObject[];
      expect(items.map((a) => a.succeeded)).toEqual([true, false]);
      expect(items[0]).toMatchObject({ userId });

      const lastDay = expectJson(await call('GET', `/logins/${seg(userId)}?days=1`), 200);
      expect((lastDay.items as JsonObject[]).length).toBe(1);

      expectError(await call('POST', '/logins', { json: { userId, succeeded: 'yes' } }), 400);
      expectError(
        await call('POST', '/logins', { json: { userId, succeeded: true, ip: 'x' } }),
        400,
      );
      expectError(await call('GET', `/logins/${seg(userId)}?days=0`), 400);
    });
  });

  describe('Message statistics', () => {
    it('POST is 204; hourly has 24 numbers, daily 365/366, counts add up', async () => {
      const dept = uniqueDepartment('Msg');
      const base = `/departments/${seg(dept)}/employees/000001/messages`;
      for (const body of [
        { at: '2024-02-29T13:15:00Z' },
        { at: '2024-02-29T13:59:59Z', count: 4 },
        { at: '2024-02-29T23:00:00Z', count: 2 },
      ]) {
        const reply = await call('POST', base, { json: body });
        expect(reply.status).toBe(204);
      }
      const hourly = expectJson(await call('GET', `${base}/hourly?day=2024-02-29`), 200);
      expect(hourly.day).toBe('2024-02-29');
      const hours = hourly.hours as number[];
      expect(hours).toHaveLength(24);
      expect(hours[13]).toBe(5);
      expect(hours[23]).toBe(2);

      const daily = expectJson(await call('GET', `${base}/daily?year=2024`), 200);
      expect(daily.year).toBe(2024);
      const days = daily.days as number[];
      expect(days).toHaveLength(366);
      expect(days[59]).toBe(7); // Feb 29 is day index 59
      expect((await call('POST', base, { json: { at: '2023-07-01T08:00:00Z' } })).status).toBe(204);
      expect(
        (expectJson(await call('GET', `${base}/daily?year=2023`), 200).days as number[]).length,
      ).toBe(365);
      // No counters and no such employee: 404, not a year of zeros.
      expectError(
        await call('GET', `/departments/${seg(dept)}/employees/000002/messages/daily?year=2023`),
        404,
        'EmployeeNotFound',
      );

      expectError(await call('GET', `${base}/hourly?day=2024-02-30`), 400);
      expectError(await call('POST', base, { json: { count: 0 } }), 400);
    });
  });

  describe('Access events', () => {
    it('POST /access-events is 201; GET window returns the events oldest first', async () => {
      const dept = uniqueDepartment('Acc');
      const at = ['2026-05-01T10:00:02Z', '2026-05-01T10:00:00Z', '2026-05-01T10:00:01Z'];
      for (const [i, when] of at.entries()) {
        const reply = await call('POST', '/access-events', {
          json: {
            department: dept,
            employeeId: '000001',
            resource: `/docs/"${i}"?#%&🚀`,
            action: 'read',
            at: when,
          },
        });
        expectJson(reply, 201);
      }
      const window = expectJson(
        await call(
          'GET',
          `/departments/${seg(dept)}/employees/000001/access-events?from=2026-05-01T09:00:00Z&to=2026-05-01T11:00:00Z`,
        ),
        200,
      );
      const items = window.items as JsonObject[];
      expect(items.map((e) => e.at)).toEqual([
        '2026-05-01T10:00:00.000Z',
        '2026-05-01T10:00:01.000Z',
        '2026-05-01T10:00:02.000Z',
      ]);
      expect(items[0]!.resource).toBe('/docs/"1"?#%&🚀');
      expectError(
        await call('POST', '/access-events', {
          json: { department: dept, employeeId: '1', resource: 'r', action: 'read' },
        }),
        400,
      );
      expectError(
        await call(
          'GET',
          `/departments/${seg(dept)}/employees/000001/access-events?from=yesterday&to=now`,
        ),
        400,
      );
    });
  });

  describe('Logs', () => {
    it('POST is 202; the entries are queryable within seconds, filtered by level, in time order', async () => {
      const source = `acc${randomBytes(4).toString('hex')}`;
      const entries = [
        {
          at: '2026-06-01T10:00:03Z',
          level: 'Error',
          message: 'third "x" / 東京 🚀',
          orderId: 'o3',
        },
        { at: '2026-06-01T10:00:01Z', level: 'Error', message: 'first', orderId: 'o1' },
        { at: '2026-06-01T10:00:02Z', level: 'Information', message: 'second' },
      ];
      const accepted = await call('POST', '/logs', { json: { source, entries } });
      expectJson(accepted, 202);

      const query = `/logs?source=${source}&from=2026-06-01T09:00:00Z&to=2026-06-01T11:00:00Z&level=Error,Critical`;
      const body = await eventually(async () => {
        const result = expectJson(await call('GET', query), 200);
        return (result.items as JsonObject[]).length >= 2 ? result : undefined;
      });
      const items = body.items as JsonObject[];
      expect(items.map((e) => e.message)).toEqual(['first', 'third "x" / 東京 🚀']);
      expect(items[0]).toMatchObject({ level: 'Error', orderId: 'o1' });
    });

    it('a batch with one bad entry is 400 and none of it is stored', async () => {
      const source = `bad${randomBytes(4).toString('hex')}`;
      const reply = await call('POST', '/logs', {
        json: {
          source,
          entries: [
            { at: '2026-06-01T10:00:00Z', level: 'Error', message: 'fine' },
            { at: '2026-06-01T10:00:01Z', level: 'Loud', message: 'bad level' },
          ],
        },
      });
      expectError(reply, 400);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const read = expectJson(
        await call(
          'GET',
          `/logs?source=${source}&from=2026-06-01T09:00:00Z&to=2026-06-01T11:00:00Z`,
        ),
        200,
      );
      expect(read.items).toEqual([]);
      expectError(await call('GET', `/logs?source=${source}&from=2026-06-01&to=later`), 400);
    });
  });

  describe('SAS', () => {
    /** The principal of the brief: roles and employee id, but no user id or name claim. */
    const briefPrincipal = Buffer.from(
      JSON.stringify({
        auth_typ: 'aad',
        name_typ: 'name',
        role_typ: 'roles',
        claims: [
          { typ: 'roles', val: 'DirectoryAdmin' },
          { typ: 'employeeId', val: '000223' },
        ],
      }),
    ).toString('base64');
    const employee223 = (dept: string): string => employeePrincipal(dept, '000223');

    it('refuses requests without identity (401) and principals that name nobody (401)', async () => {
      const dept = uniqueDepartment('Sas');
      target.transport.expectUnauthenticated(
        await call('POST', `/sas/expenses/${seg(dept)}/000223`, { principal: null }),
        'Unauthenticated',
      );
      // A valid credential that names nobody gets past any platform: the app refuses it.
      expectError(
        await call('POST', `/sas/expenses/${seg(dept)}/000223`, { principal: briefPrincipal }),
        401,
        'InvalidPrincipal',
      );
      target.transport.expectUnauthenticated(
        await call('POST', '/sas/logs', { principal: 'not base64!' }),
        'InvalidPrincipal',
      );
    });

    it('gives an expenses read SAS to the employee and an admin, 403 to others', async () => {
      const dept = uniqueDepartment('Sas');
      const path = `/sas/expenses/${seg(dept)}/000223`;
      const own = await call('POST', path, { principal: employee223(dept) });
      const grant = expectJson(own, 200);
      expect(grant).toMatchObject({ permissions: expect.any(String) });
      expect(typeof grant.url).toBe('string');
      expect(typeof grant.sas).toBe('string');
      const lifetime = Date.parse(grant.expiresOn as string) - Date.now();
      expect(lifetime).toBeGreaterThan(14 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(15 * 60_000 + 5_000);

      expectJson(await call('POST', path, { principal: adminPrincipal }), 200);
      expectError(
        await call('POST', `/sas/expenses/${seg(dept)}/000224`, {
          principal: employee223(dept),
        }),
        403,
      );
      expectError(
        await call('POST', path, {
          principal: adminPrincipal,
          json: { minutes: 61 },
        }),
        400,
      );
    });

    it('department SAS for DirectoryAdmin or DirectoryReader:{dept}; logs SAS for admins only', async () => {
      const dept = uniqueDepartment('Sas');
      const reader = readerPrincipal(dept);
      expectJson(
        await call('POST', `/sas/departments/${seg(dept)}`, {
          principal: reader,
        }),
        200,
      );
      expectJson(
        await call('POST', `/sas/departments/${seg(dept)}`, {
          principal: adminPrincipal,
        }),
        200,
      );
      expectError(
        await call('POST', `/sas/departments/${seg(uniqueDepartment('Other'))}`, {
          principal: reader,
        }),
        403,
      );
      const logs = expectJson(await call('POST', '/sas/logs', { principal: adminPrincipal }), 200);
      expect(logs.permissions).toMatch(/r/);
      expect(logs.permissions).toMatch(/l/);
      expectError(await call('POST', '/sas/logs', { principal: employee223(dept) }), 403);
    });

    it('photo SAS: read or write (create-only) for one blob', async () => {
      const dept = await createDepartment('Sas');
      // Write tokens only for an employee that exists.
      expectError(
        await call('POST', `/sas/photos/${seg(dept)}/000223`, {
          principal: adminPrincipal,
          json: { access: 'write' },
        }),
        404,
        'EmployeeNotFound',
      );
      expectJson(await createEmployee(dept, employee('000223')), 201);
      const write = expectJson(
        await call('POST', `/sas/photos/${seg(dept)}/000223`, {
          principal: adminPrincipal,
          json: { access: 'write' },
        }),
        200,
      );
      expect(write.permissions).toBe('c');
      expectError(
        await call('POST', `/sas/photos/${seg(dept)}/000223`, {
          principal: adminPrincipal,
          json: { access: 'delete' },
        }),
        400,
      );
    });
  });
});
