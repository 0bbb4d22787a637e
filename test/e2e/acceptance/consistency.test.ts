/**
 * API consistency over HTTP (issue 33): a read of a department or employee that does not exist is
 * 404 like a write to it, never `200 []`; invalid input names every invalid field at once, in plain
 * words; a method a path does not take is 405 with `Allow` (the methods the OpenAPI document lists
 * for that path: test/support/apiContract.ts checks each such answer against the served
 * document); a 403 names the role that was missing, with no template left unfilled; a
 * `PUT /departments/{dept}` without a body is refused and creates nothing.
 */
import { ApiContract, outsideTheDocument, type OpenApiDocument } from '../../support/apiContract';
import { startHost, type RunningHost } from '../../support/host';
import {
  editorPrincipal,
  employeePrincipal,
  readerPrincipal,
  telemetryPrincipal,
} from '../../support/principals';
import {
  expectError,
  expectJson,
  send,
  seg,
  uniqueDepartment,
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

const ada = {
  employeeId: '000123',
  firstName: 'Ada',
  lastName: 'Jones',
  email: 'ada.jones@contoso.com',
};

async function departmentWithAda(prefix: string): Promise<string> {
  const dept = uniqueDepartment(prefix);
  expectJson(await call('PUT', `/departments/${seg(dept)}`, { json: {} }), 201);
  expectJson(await call('POST', `/departments/${seg(dept)}/employees`, { json: ada }), 201);
  return dept;
}

describe('reads of what does not exist are 404, as writes to it are', () => {
  let dept: string;
  beforeAll(async () => {
    dept = await departmentWithAda('Exists');
  });

  it('lists of an unknown department: employees, by id or email range, and a last-name search', async () => {
    const nowhere = seg(uniqueDepartment('Nowhere'));
    for (const path of [
      `/departments/${nowhere}/employees`,
      `/departments/${nowhere}/employees?fromId=000100&toId=000199`,
      `/departments/${nowhere}/employees?emailPrefix=ada`,
      `/employees?lastName=Jones&department=${nowhere}`,
    ]) {
      expectError(await call('GET', path), 404, 'DepartmentNotFound');
    }
    // The write to it answers the same.
    expectError(await call('POST', `/departments/${nowhere}/employees`, { json: ada }), 404);
  });

  it('an existing department with nothing to show is still 200 with an empty page', async () => {
    const d = seg(dept);
    for (const path of [
      `/departments/${d}/employees?fromId=000900&toId=000999`,
      `/employees?lastName=Nobody&department=${d}`,
    ]) {
      expect(expectJson(await call('GET', path), 200)).toEqual({
        items: [],
        continuationToken: null,
      });
    }
    const empty = uniqueDepartment('Empty');
    expectJson(await call('PUT', `/departments/${seg(empty)}`, { json: {} }), 201);
    expect(
      expectJson(await call('GET', `/departments/${seg(empty)}/employees`), 200).items,
    ).toEqual([]);
  });

  it("an unknown employee's reviews, expenses, message counts and access events", async () => {
    const ghost = `/departments/${seg(dept)}/employees/000999`;
    const day = new Date().toISOString().slice(0, 10);
    for (const path of [
      `${ghost}/reviews`,
      `${ghost}/expenses`,
      `${ghost}/expenses?top=10`,
      `${ghost}/messages/hourly?day=${day}`,
      `${ghost}/messages/daily?year=2026`,
      `${ghost}/access-events?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
      `${ghost}`,
      `${ghost}/photo`,
    ]) {
      const error = expectError(await call('GET', path), 404);
      expect(`${path}: ${error.code}`).toMatch(/: (EmployeeNotFound|PhotoNotFound)$/);
    }
  });

  it('an existing employee with no records reads as empty (200)', async () => {
    const self = `/departments/${seg(dept)}/employees/000123`;
    const day = new Date().toISOString().slice(0, 10);
    expect(expectJson(await call('GET', `${self}/reviews`), 200).items).toEqual([]);
    expect(expectJson(await call('GET', `${self}/expenses?top=10`), 200).items).toEqual([]);
    expect(expectJson(await call('GET', `${self}/messages/hourly?day=${day}`), 200).hours).toEqual(
      Array(24).fill(0),
    );
    expect(
      expectJson(
        await call(
          'GET',
          `${self}/access-events?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
        ),
        200,
      ).items,
    ).toEqual([]);
  });

  it('records of a former employee stay readable while they exist', async () => {
    const former = await departmentWithAda('Former');
    const path = `/departments/${seg(former)}/employees/000123`;
    const claim = { amount: 12.5, currency: 'EUR', description: 'Lunch' };
    expectJson(
      await call('POST', `${path}/expenses`, {
        json: claim,
        principal: employeePrincipal(former, '000123'),
      }),
      201,
    );
    expect((await call('DELETE', path)).status).toBe(204);
    expect(expectJson(await call('GET', `${path}/expenses`), 200).items).toMatchObject([claim]);
  });
});

describe('invalid input names every invalid field at once, in plain words', () => {
  it('a new employee missing everything', async () => {
    const dept = await departmentWithAda('Invalid');
    const reply = await call('POST', `/departments/${seg(dept)}/employees`, {
      json: { firstName: 42, nickname: 'x' },
    });
    const error = expectError(reply, 400, 'InvalidInput') as {
      message: string;
      details?: { field: string; problem: string }[];
    };
    expect(error.details).toEqual([
      { field: 'body.employeeId', problem: 'is required' },
      { field: 'body.firstName', problem: 'must be text' },
      { field: 'body.lastName', problem: 'is required' },
      { field: 'body.email', problem: 'is required' },
      { field: 'body.nickname', problem: 'is not an accepted field' },
    ]);
    for (const { field, problem } of error.details!) {
      expect(error.message).toContain(`${field}: ${problem}`);
    }
    expect(error.message).not.toMatch(/expected|received|Invalid input/);
    // Nothing was stored.
    expect(expectJson(await call('GET', `/departments/${seg(dept)}`), 200).employeeCount).toBe(1);
  });

  it('several bad log entries of one batch', async () => {
    const at = new Date().toISOString();
    const reply = await call('POST', '/logs', {
      principal: telemetryPrincipal,
      json: {
        source: 'web',
        entries: [
          { at, level: 'Information', message: 'fine' },
          { at: 'yesterday', level: 'Loud', message: 'x' },
          { at, level: 'Error' },
        ],
      },
    });
    const error = expectError(reply, 400, 'InvalidLogEntry') as {
      details?: { field: string }[];
    };
    expect(error.details?.map((d) => d.field)).toEqual([
      'body.entries[1].at',
      'body.entries[1].level',
      'body.entries[2].message',
    ]);
  });

  it('several bad query parameters', async () => {
    const dept = await departmentWithAda('Query');
    const error = expectError(
      await call('GET', `/departments/${seg(dept)}/employees?pageSize=0&color=red`),
      400,
    ) as { details?: { field: string; problem: string }[] };
    expect(error.details).toEqual([
      { field: 'query.pageSize', problem: 'must be a whole number from 1 to 1000' },
      { field: 'query.color', problem: 'is not an accepted field' },
    ]);
  });
});

describe('a method a path does not take is 405 with Allow', () => {
  it('answers every documented path so, naming exactly its documented methods', async () => {
    const contract = new ApiContract(
      (await (await fetch(`${host.baseUrl}/openapi.json`)).json()) as OpenApiDocument,
    );
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    let checked = 0;
    for (const template of Object.keys(contract.document.paths)) {
      const path = template
        .replace('{dept}', 'Sales')
        .replace('{id}', '000123')
        .replace(/\{[^}]+\}/g, 'x');
      // Methods some template of this path's shape takes (GET .../employees/import is getEmployee).
      const taken = contract.methodsAt(path);
      for (const method of methods.filter((m) => !taken.includes(m))) {
        // Off the document on purpose: apiContract holds the answer to 405 + the documented Allow.
        const reply = await outsideTheDocument(() =>
          call(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
        );
        expectError(reply, 405, 'MethodNotAllowed');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('names the path and the methods in the message, and leaves unknown paths 404', async () => {
    const reply = await outsideTheDocument(() => call('DELETE', '/departments'));
    expect(reply.headers.get('allow')).toBe('GET');
    expect(expectError(reply, 405).message).toBe(
      'DELETE is not accepted at /api/departments: use GET.',
    );
    const employee = await outsideTheDocument(() =>
      call('POST', '/departments/Sales/employees/000123', { json: {} }),
    );
    expect(employee.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expectError(await outsideTheDocument(() => call('GET', '/nothing/here')), 404, 'NotFound');
  });

  it('asks a caller without identity who it is first, except at the anonymous routes', async () => {
    const anonymous = { principal: null, json: {} };
    expectError(
      await outsideTheDocument(() => call('DELETE', '/departments', anonymous)),
      401,
      'Unauthenticated',
    );
    expectError(await outsideTheDocument(() => call('GET', '/nothing', { principal: null })), 401);
    const health = await outsideTheDocument(() => call('POST', '/health', anonymous));
    expectError(health, 405, 'MethodNotAllowed');
    expect(health.headers.get('allow')).toBe('GET');
  });
});

it('a 403 names the missing role with the department filled in', async () => {
  for (const [path, principal] of [
    ['/employees?lastName=Jones&department=North%20Sales', readerPrincipal('Sales')],
    ['/departments/North%20Sales/employees', readerPrincipal('Sales')],
    ['/departments/North%20Sales/employees/000123/reviews', editorPrincipal('Sales')],
  ] as const) {
    const error = expectError(await call('GET', path, { principal }), 403, 'Forbidden');
    expect(`${path}: ${error.message}`).toContain('North%20Sales');
    expect(`${path}: ${error.message}`).not.toMatch(/[{}]/);
  }
  expect(
    expectError(
      await call('GET', '/employees?lastName=Jones&department=North%20Sales', {
        principal: readerPrincipal('Sales'),
      }),
      403,
    ).message,
  ).toBe('This needs DirectoryReader:North%20Sales.');
});

describe('PUT /departments/{dept} needs a body', () => {
  it('refuses none (400) and creates nothing; {} creates', async () => {
    const dept = seg(uniqueDepartment('Bodiless'));
    for (const options of [{}, { headers: { 'content-type': 'application/json' } }]) {
      const error = expectError(await call('PUT', `/departments/${dept}`, options), 400) as {
        details?: unknown;
        message: string;
      };
      expect(error.details).toEqual([{ field: 'body', problem: 'is required' }]);
      expect(error.message).toMatch(/needs a JSON body/);
    }
    expectError(await call('GET', `/departments/${dept}`), 404, 'DepartmentNotFound');
    expectJson(await call('PUT', `/departments/${dept}`, { json: {} }), 201);
    expectJson(await call('PUT', `/departments/${dept}`, { json: {} }), 200);
  });
});
