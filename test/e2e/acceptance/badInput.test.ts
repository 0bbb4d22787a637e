/**
 * Contract acceptance for bad input: malformed JSON, bodies that are not JSON objects, wrong
 * content types, bodies over the limits (413) and unknown routes (404) all answer API.md's JSON
 * error body — and nothing of a refused request is stored (each case reads back). Every answer is
 * also held against the OpenAPI document (test/support/apiContract.ts): a refused request must get
 * an error status its operation documents.
 */
import { randomBytes } from 'node:crypto';
import { outsideTheDocument } from '../../support/apiContract';
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import {
  expectError,
  expectJson,
  send,
  seg,
  uniqueDepartment,
  type JsonObject,
  type Reply,
  type SendOptions,
} from './client';

let host: RunningHost;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

const call = (method: string, path: string, options?: SendOptions): Promise<Reply> =>
  send(host.baseUrl, method, path, options);

const JSON_TYPE = { 'content-type': 'application/json' };
const MIB = 1024 * 1024;

async function createDepartment(): Promise<string> {
  const dept = uniqueDepartment('BadIn');
  expectJson(await call('PUT', `/departments/${seg(dept)}`, { json: {} }), 201);
  return dept;
}

const validEmployee = {
  employeeId: '000001',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
};

/** The department still has no employees: no entity, no email copy, count 0. */
async function expectNoEmployee(dept: string): Promise<void> {
  expectError(await call('GET', `/departments/${seg(dept)}/employees/000001`), 404);
  expectError(
    await call('GET', `/departments/${seg(dept)}/employees/by-email/ada%40example.com`),
    404,
  );
  expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(0);
}

describe('malformed and non-object JSON bodies', () => {
  it.each([
    ['truncated JSON', '{"employeeId":"000001","firstName":'],
    ['single quotes', "{'employeeId':'000001'}"],
    ['trailing comma', `${JSON.stringify(validEmployee).slice(0, -1)},}`],
    ['a JSON array', JSON.stringify([validEmployee])],
    ['a JSON string', JSON.stringify(JSON.stringify(validEmployee))],
    ['JSON null', 'null'],
    ['two objects', `${JSON.stringify(validEmployee)}${JSON.stringify(validEmployee)}`],
  ])('POST employee with %s is 400 and stores nothing', async (_name, raw) => {
    const dept = await createDepartment();
    expectError(
      await call('POST', `/departments/${seg(dept)}/employees`, { raw, headers: JSON_TYPE }),
      400,
    );
    await expectNoEmployee(dept);
  });

  it('malformed JSON is reported as InvalidJson', async () => {
    const dept = await createDepartment();
    const error = expectError(
      await call('POST', `/departments/${seg(dept)}/employees`, { raw: '{', headers: JSON_TYPE }),
      400,
      'InvalidJson',
    );
    expect(error.message).toMatch(/JSON/);
  });

  it('PUT of a new department with a malformed body is 400 and creates nothing', async () => {
    const dept = uniqueDepartment('NotMade');
    expectError(
      await call('PUT', `/departments/${seg(dept)}`, {
        raw: '{"description":',
        headers: JSON_TYPE,
      }),
      400,
    );
    expectError(await call('PUT', `/departments/${seg(dept)}`, { json: { description: 1 } }), 400);
    expectError(await call('GET', `/departments/${seg(dept)}`), 404);
  });

  it('expenses, logins, access events and reviews refuse malformed JSON and store nothing', async () => {
    const dept = await createDepartment();
    expectJson(
      await call('POST', `/departments/${seg(dept)}/employees`, { json: validEmployee }),
      201,
    );
    const employee = `/departments/${seg(dept)}/employees/000001`;

    expectError(
      await call('POST', `${employee}/expenses`, { raw: '{"amount":', headers: JSON_TYPE }),
      400,
    );
    expect(expectJson(await call('GET', `${employee}/expenses`), 200).items).toEqual([]);

    const userId = `bad-${randomBytes(4).toString('hex')}`;
    expectError(
      await call('POST', '/logins', { raw: `{"userId":"${userId}",`, headers: JSON_TYPE }),
      400,
    );
    expect(expectJson(await call('GET', `/logins/${seg(userId)}`), 200).items).toEqual([]);

    expectError(await call('POST', '/access-events', { raw: '[', headers: JSON_TYPE }), 400);
    expectError(
      await call('POST', '/access-events', {
        json: {
          department: dept,
          employeeId: '000001',
          resource: 'r',
          action: 'read',
          at: '2026-05-01T10:00:00Z',
          extra: true,
        },
      }),
      400,
    );
    expect(
      expectJson(
        await call(
          'GET',
          `${employee}/access-events?from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z`,
        ),
        200,
      ).items,
    ).toEqual([]);

    expectError(
      await call('PUT', `${employee}/reviews/2024`, { raw: '{', headers: JSON_TYPE }),
      400,
    );
    expectError(await call('POST', `${employee}/messages`, { raw: '{', headers: JSON_TYPE }), 400);
    expect(expectJson(await call('GET', `${employee}/reviews`), 200).items).toEqual([]);
    expect(
      (
        expectJson(await call('GET', `${employee}/messages/daily?year=2026`), 200).days as number[]
      ).every((n) => n === 0),
    ).toBe(true);
  });

  it('PATCH with a malformed body is 400 and leaves the employee and its ETag unchanged', async () => {
    const dept = await createDepartment();
    const created = await call('POST', `/departments/${seg(dept)}/employees`, {
      json: validEmployee,
    });
    const path = `/departments/${seg(dept)}/employees/000001`;
    expectError(await call('PATCH', path, { raw: '{"firstName":"X"', headers: JSON_TYPE }), 400);
    expectError(await call('PATCH', path, { json: { firstName: 'X', employeeId: '000002' } }), 400);
    const read = await call('GET', path);
    expect(expectJson(read, 200).firstName).toBe('Ada');
    expect(read.etag).toBe(created.etag);
  });
});

describe('content types', () => {
  // A body a page on another site may send without a CORS preflight (text/plain, a form) or one
  // with no content type at all is never read as JSON: 415, nothing stored (API.md "Cross-site
  // requests").
  it.each([
    ['text/plain', 'employeeId=000001'],
    ['text/plain;charset=UTF-8', JSON.stringify({ ...validEmployee, employeeId: '000001' })],
    ['application/xml', '<employee><employeeId>000001</employeeId></employee>'],
    ['application/x-www-form-urlencoded', 'employeeId=000001&firstName=Ada'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n{}\r\n--x--'],
  ])('a %s body is 415 and stores nothing, even when it holds JSON', async (type, raw) => {
    const dept = await createDepartment();
    const error = expectError(
      await call('POST', `/departments/${seg(dept)}/employees`, {
        raw,
        headers: { 'content-type': type },
      }),
      415,
      'UnsupportedMediaType',
    );
    expect(error.message).toContain('application/json');
    await expectNoEmployee(dept);
  });

  it('a JSON body without a content type is 415 and stores nothing', async () => {
    const dept = await createDepartment();
    const raw = Buffer.from(JSON.stringify(validEmployee));
    // A Blob body without a type: what fetch(..., {mode: 'no-cors'}) can send from any page.
    const response = await fetch(
      `${host.baseUrl}/departments/${seg(dept)}/employees`,
      asAdmin({ method: 'POST', body: new Blob([raw]) }),
    );
    expect(response.status).toBe(415);
    await expectNoEmployee(dept);
  });

  it('a route without a body takes none or {} and refuses anything else', async () => {
    const dept = await createDepartment();
    const archive = `/departments/${seg(dept)}/archive`;
    expectError(
      await call('POST', archive, { raw: 'x=1', headers: { 'content-type': 'text/plain' } }),
      415,
      'UnsupportedMediaType',
    );
    expectError(
      await call('POST', archive, { raw: '{"x":1}', headers: JSON_TYPE }),
      400,
      'UnexpectedBody',
    );
    const employee = `/departments/${seg(dept)}/employees/000001`;
    expectError(
      await call('DELETE', employee, {
        raw: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    // None and {} reach the route: an unknown employee is 404.
    expectError(await call('DELETE', employee), 404);
    expectError(await call('DELETE', employee, { raw: '{ }', headers: JSON_TYPE }), 404);
  });

  it('every JSON answer says content-type: application/json, errors included', async () => {
    const dept = await createDepartment();
    for (const reply of [
      await call('GET', `/departments/${seg(dept)}`),
      await call('GET', `/departments/${seg(dept)}/employees?fromId=000000`),
      await call('GET', `/departments/${seg(dept)}/employees/000001`),
      await outsideTheDocument(() => call('GET', '/nothing-here')),
    ]) {
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});

describe('bodies over the limit (413)', () => {
  it('a 2 MiB employee body is 413 and stores nothing', async () => {
    const dept = await createDepartment();
    const body = { ...validEmployee, firstName: 'A'.repeat(2 * MIB) };
    expectError(await call('POST', `/departments/${seg(dept)}/employees`, { json: body }), 413);
    await expectNoEmployee(dept);
  });

  // Azure passes a chunked body to the app as nothing: the app refuses it instead of reading {}.
  it('a body sent chunked (no content-length) is 411 LengthRequired and stores nothing', async () => {
    const dept = await createDepartment();
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(JSON.stringify(validEmployee)));
        if (sent >= 2 * MIB) controller.close();
        else {
          controller.enqueue(chunk);
          sent += chunk.length;
        }
      },
    });
    const response = await fetch(
      `${host.baseUrl}/departments/${seg(dept)}/employees`,
      asAdmin({
        method: 'POST',
        headers: JSON_TYPE,
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    const text = await response.text();
    expectError(
      {
        status: response.status,
        headers: response.headers,
        etag: null,
        text,
        body: JSON.parse(text),
      },
      411,
      'LengthRequired',
    );
    await expectNoEmployee(dept);
  });

  it('an import over its byte limit is 413 and creates nobody', async () => {
    const dept = await createDepartment();
    const employees = Array.from({ length: 1000 }, (_, i) => ({
      employeeId: String(i + 1).padStart(6, '0'),
      firstName: 'F'.repeat(200),
      lastName: 'L'.repeat(200),
      email: `${'e'.repeat(200)}${i}@example.com`,
    }));
    // 1,000 rows of ~640 bytes fit the 4 MiB import limit; with a 4 MiB field they do not.
    const body: JsonObject = { employees, padding: 'x'.repeat(4 * MIB) };
    expectError(
      await call('POST', `/departments/${seg(dept)}/employees/import`, { json: body }),
      413,
    );
    await expectNoEmployee(dept);
  });

  it('a log batch over the byte limit or over 1,000 entries is 413; nothing is stored', async () => {
    const source = `big${randomBytes(4).toString('hex')}`;
    const at = '2026-06-02T10:00:00Z';
    expectError(
      await call('POST', '/logs', {
        json: { source, entries: [{ at, level: 'Error', message: 'm'.repeat(2 * MIB) }] },
      }),
      413,
    );
    const many = Array.from({ length: 1001 }, (_, i) => ({ at, level: 'Error', message: `m${i}` }));
    expectError(await call('POST', '/logs', { json: { source, entries: many } }), 413);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(
      expectJson(
        await call(
          'GET',
          `/logs?source=${source}&from=2026-06-02T09:00:00Z&to=2026-06-02T11:00:00Z`,
        ),
        200,
      ).items,
    ).toEqual([]);
  });
});

describe('unknown routes and methods (404 JSON)', () => {
  it.each([
    ['GET', '/nothing-here'],
    ['GET', '/departments/Sales/employees/000001/unknown'],
    ['GET', '/departments/Sales/employees/000001/photos/extra/segments'],
  ])('%s %s is 404 with the JSON error body', async (method, path) => {
    // Off the OpenAPI document on purpose: the answer must still be its JSON error.
    const reply = await outsideTheDocument(() =>
      call(method, path, method === 'GET' ? {} : { json: {} }),
    );
    expectError(reply, 404);
  });

  it.each([
    ['POST', '/health', 'GET'],
    ['DELETE', '/departments/Sales', 'GET, PUT'],
    ['PUT', '/logins', 'GET, POST'],
  ])(
    '%s %s, a known path with another method, is 405 with Allow: %s',
    async (method, path, allow) => {
      const reply = await outsideTheDocument(() => call(method, path, { json: {} }));
      expectError(reply, 405, 'MethodNotAllowed');
      expect(reply.headers.get('allow')).toBe(allow);
    },
  );

  it('an invalid employee id in the path is 400, not 404 or 500', async () => {
    const dept = await createDepartment();
    expectError(await call('GET', `/departments/${seg(dept)}/employees/12345`), 400);
    expectError(await call('GET', `/departments/${seg(dept)}/employees/${seg("0'or'1")}`), 400);
  });
});
