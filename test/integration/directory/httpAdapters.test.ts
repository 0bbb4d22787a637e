/**
 * The directory's HTTP adapters, invoked the way the Functions host invokes them (HttpRequest in,
 * HttpResponseInit out), over this test's own `Employees` table: statuses, ETag headers and the
 * JSON error shape of API.md.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import * as departments from '../../../functions/departments';
import * as employees from '../../../functions/employees';
import * as reviews from '../../../functions/reviews';
import type { HttpHandler } from '../../../functions/shared/http';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const tableName = uniqueTableName('EmpHttp');
process.env.EMPLOYEES_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

type Response = HttpResponseInit & {
  jsonBody?: Record<string, unknown> & { error?: { code: string; message: string } };
};

function request(
  method: string,
  params: Record<string, string>,
  options: {
    body?: unknown;
    rawBody?: string;
    query?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): HttpRequest {
  const url = new URL('http://localhost/api/x');
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new HttpRequest({
    method,
    url: url.toString(),
    params,
    headers: {
      'content-type': 'application/json',
      [PRINCIPAL_HEADER]: adminPrincipal,
      ...options.headers,
    },
    ...(body === undefined ? {} : { body: { string: body } }),
  });
}

async function call(handler: HttpHandler, req: HttpRequest): Promise<Response> {
  return (await handler(req, new InvocationContext())) as Response;
}

const jane = {
  employeeId: '000223',
  firstName: 'Jane',
  lastName: 'Jones',
  email: 'jane/jones@contoso.com',
  age: 30,
};

describe('departments over HTTP', () => {
  it('PUT answers 201 then 200 with an ETag; GET answers the department', async () => {
    const created = await call(
      departments.putDepartment,
      request('PUT', { dept: 'Sales' }, { body: { description: 'S' } }),
    );
    expect(created.status).toBe(201);
    expect(created.headers).toMatchObject({ etag: expect.any(String) });
    const updated = await call(
      departments.putDepartment,
      request('PUT', { dept: 'Sales' }, { body: { description: 'T' } }),
    );
    expect(updated.status).toBe(200);
    const read = await call(departments.getDepartment, request('GET', { dept: 'Sales' }));
    expect(read.jsonBody).toEqual({
      name: 'Sales',
      description: 'T',
      employeeCount: 0,
      manager: null,
    });
    const list = await call(
      departments.listDepartments,
      request('GET', {}, { query: { pageSize: '10' } }),
    );
    expect(list.jsonBody).toEqual({
      items: [{ name: 'Sales', description: 'T', employeeCount: 0, countAsOf: expect.any(String) }],
      continuationToken: null,
    });
  });

  it('answers 400 with the JSON error shape for a bad name, bad JSON or unknown field; 404 for unknown', async () => {
    const badName = await call(departments.getDepartment, request('GET', { dept: 'Sa#les' }));
    expect(badName.status).toBe(400);
    expect(badName.jsonBody?.error).toMatchObject({
      code: 'InvalidInput',
      message: expect.stringContaining('route.dept'),
    });
    const badJson = await call(
      departments.putDepartment,
      request('PUT', { dept: 'Sales' }, { rawBody: '{"description":' }),
    );
    expect(badJson.jsonBody?.error?.code).toBe('InvalidJson');
    const unknown = await call(
      departments.putDepartment,
      request('PUT', { dept: 'Sales' }, { body: { descr: 'x' } }),
    );
    expect(unknown.status).toBe(400);
    const missing = await call(departments.getDepartment, request('GET', { dept: 'Nope' }));
    expect(missing.status).toBe(404);
    expect(missing.jsonBody?.error?.code).toBe('DepartmentNotFound');
    const pageSize = await call(
      departments.listDepartments,
      request('GET', {}, { query: { pageSize: '0' } }),
    );
    expect(pageSize.status).toBe(400);
  });
});

describe('employees over HTTP', () => {
  it('POST answers 201 with an ETag; 404 for an unknown department; 409 for a taken id', async () => {
    const created = await call(
      employees.createEmployee,
      request('POST', { dept: 'Sales' }, { body: jane }),
    );
    expect(created.status).toBe(201);
    expect(created.jsonBody).toEqual({ department: 'Sales', ...jane });
    expect(created.headers).toMatchObject({ etag: expect.stringMatching(/^W\//) });
    expect(
      (await call(employees.createEmployee, request('POST', { dept: 'Nope' }, { body: jane })))
        .status,
    ).toBe(404);
    const taken = await call(
      employees.createEmployee,
      request('POST', { dept: 'Sales' }, { body: jane }),
    );
    expect(taken.status).toBe(409);
    expect(taken.jsonBody?.error?.code).toBe('EmployeeExists');
  });

  it('GET by id and by email (with an encoded slash) answer the employee and an ETag', async () => {
    const byId = await call(employees.getEmployee, request('GET', { dept: 'Sales', id: '000223' }));
    expect(byId.status).toBe(200);
    expect(byId.jsonBody).toMatchObject({ employeeId: '000223', email: 'jane/jones@contoso.com' });
    const byEmail = await call(
      employees.getEmployeeByEmail,
      request('GET', { dept: 'Sales', email: 'JANE%2Fjones@contoso.com' }),
    );
    expect(byEmail.status).toBe(200);
    expect(byEmail.jsonBody).toMatchObject({ employeeId: '000223' });
    const consistency = await call(
      employees.getEmployeeByEmail,
      request(
        'GET',
        { dept: 'Sales', email: 'jane/jones@contoso.com' },
        { query: { consistency: 'sometimes' } },
      ),
    );
    expect(consistency.status).toBe(400);
  });

  it('PATCH with a stale If-Match answers 412; a fresh one 200 with a new ETag', async () => {
    const { headers } = await call(
      employees.getEmployee,
      request('GET', { dept: 'Sales', id: '000223' }),
    );
    const etag = String((headers as Record<string, string>).etag);
    const ok = await call(
      employees.patchEmployee,
      request(
        'PATCH',
        { dept: 'Sales', id: '000223' },
        { body: { firstName: 'Janet' }, headers: { 'if-match': etag } },
      ),
    );
    expect(ok.status).toBe(200);
    expect(ok.jsonBody).toMatchObject({ firstName: 'Janet' });
    expect((ok.headers as Record<string, string>).etag).not.toBe(etag);
    const stale = await call(
      employees.patchEmployee,
      request(
        'PATCH',
        { dept: 'Sales', id: '000223' },
        { body: { firstName: 'Again' }, headers: { 'if-match': etag } },
      ),
    );
    expect(stale.status).toBe(412);
    expect(stale.jsonBody?.error?.code).toBe('PreconditionFailed');
    const empty = await call(
      employees.patchEmployee,
      request('PATCH', { dept: 'Sales', id: '000223' }, { body: {} }),
    );
    expect(empty.status).toBe(400);
  });

  it('lists by range with select and pageSize, and finds by last name within a department', async () => {
    const list = await call(
      employees.listEmployees,
      request(
        'GET',
        { dept: 'Sales' },
        { query: { fromId: '000001', toId: '000999', select: 'email, age', pageSize: '5' } },
      ),
    );
    expect(list.jsonBody).toEqual({
      items: [
        { department: 'Sales', employeeId: '000223', email: 'jane/jones@contoso.com', age: 30 },
      ],
      continuationToken: null,
    });
    const found = await call(
      employees.findEmployeesByLastName,
      request('GET', {}, { query: { lastName: 'JONES', department: 'Sales' } }),
    );
    expect(found.status).toBe(200);
    expect(found.jsonBody?.items).toMatchObject([{ employeeId: '000223' }]);
    const orgWide = await call(
      employees.findEmployeesByLastName,
      request('GET', {}, { query: { lastName: 'Jones' } }),
    );
    // Organisation-wide lookups are served by the asynchronous last-name index (docs/queues.md).
    expect(orgWide.status).toBe(200);
    const badToken = await call(
      employees.listEmployees,
      request('GET', { dept: 'Sales' }, { query: { continuationToken: 'abc' } }),
    );
    expect(badToken.status).toBe(400);
    expect(badToken.jsonBody?.error?.code).toBe('InvalidContinuationToken');
  });

  it('imports rows and reports failures; refuses over 1,000 rows with 400', async () => {
    const rows = [
      { employeeId: '000001', firstName: 'A', lastName: 'B', email: 'a@b.example' },
      { employeeId: '000223', firstName: 'Dup', lastName: 'B', email: 'dup@b.example' },
    ];
    const result = await call(
      employees.importEmployees,
      request('POST', { dept: 'Sales' }, { body: { employees: rows } }),
    );
    expect(result.status).toBe(200);
    expect(result.jsonBody).toEqual({
      created: 1,
      failed: [
        { employeeId: '000223', error: { code: 'EmployeeExists', message: expect.any(String) } },
      ],
    });
    const tooMany = Array.from({ length: 1001 }, () => rows[0]);
    const refused = await call(
      employees.importEmployees,
      request('POST', { dept: 'Sales' }, { body: { employees: tooMany } }),
    );
    expect(refused.status).toBe(400);
  });

  it('DELETE answers 204, then 404', async () => {
    expect(
      (await call(employees.deleteEmployee, request('DELETE', { dept: 'Sales', id: '000001' })))
        .status,
    ).toBe(204);
    expect(
      (await call(employees.deleteEmployee, request('DELETE', { dept: 'Sales', id: '000001' })))
        .status,
    ).toBe(404);
  });
});

describe('manager and reviews over HTTP', () => {
  it('PUT manager answers the department with the copy; 404 for an unknown employee', async () => {
    const set = await call(
      departments.setDepartmentManager,
      request('PUT', { dept: 'Sales' }, { body: { employeeId: '000223' } }),
    );
    expect(set.status).toBe(200);
    expect(set.jsonBody).toMatchObject({ manager: { employeeId: '000223', firstName: 'Janet' } });
    const missing = await call(
      departments.setDepartmentManager,
      request('PUT', { dept: 'Sales' }, { body: { employeeId: '000999' } }),
    );
    expect(missing.status).toBe(404);
  });

  it('PUT a review answers 200; GET lists them by year with select', async () => {
    const put = await call(
      reviews.putReview,
      request(
        'PUT',
        { dept: 'Sales', id: '000223', year: '2024' },
        { body: { managerRating: 4, peerRating: 5, comments: 'Good' } },
      ),
    );
    expect(put.status).toBe(200);
    expect(put.jsonBody).toEqual({ year: 2024, managerRating: 4, peerRating: 5, comments: 'Good' });
    const list = await call(
      reviews.listReviews,
      request('GET', { dept: 'Sales', id: '000223' }, { query: { select: 'peerRating' } }),
    );
    expect(list.jsonBody).toEqual({
      items: [{ year: 2024, peerRating: 5 }],
      continuationToken: null,
    });
    const badYear = await call(
      reviews.putReview,
      request(
        'PUT',
        { dept: 'Sales', id: '000223', year: '24' },
        { body: { managerRating: 1, peerRating: 1 } },
      ),
    );
    expect(badYear.status).toBe(400);
  });
});

describe('reviews and the department list stay true over HTTP', () => {
  it('a re-created employee never has the reviews of the one deleted before it', async () => {
    const body = { employeeId: '000400', firstName: 'A', lastName: 'B', email: 'ab@contoso.com' };
    for (let round = 0; round < 3; round++) {
      expect(
        (await call(employees.createEmployee, request('POST', { dept: 'Sales' }, { body }))).status,
      ).toBe(201);
      const got = await call(
        employees.getEmployee,
        request('GET', { dept: 'Sales', id: '000400' }),
      );
      const etag = String((got.headers as Record<string, string>).etag);
      for (const year of ['2023', '2024']) {
        const put = await call(
          reviews.putReview,
          request(
            'PUT',
            { dept: 'Sales', id: '000400', year },
            { body: { managerRating: 1, peerRating: 2 } },
          ),
        );
        expect(put.status).toBe(200);
      }
      // The ETag read before the reviews still names the employee's data.
      const patched = await call(
        employees.patchEmployee,
        request(
          'PATCH',
          { dept: 'Sales', id: '000400' },
          {
            body: { age: 30 + round },
            headers: { 'if-match': etag },
          },
        ),
      );
      expect(patched.status).toBe(200);
      expect(
        (await call(employees.deleteEmployee, request('DELETE', { dept: 'Sales', id: '000400' })))
          .status,
      ).toBe(204);
      expect(
        (await call(employees.createEmployee, request('POST', { dept: 'Sales' }, { body }))).status,
      ).toBe(201);
      const list = await call(reviews.listReviews, request('GET', { dept: 'Sales', id: '000400' }));
      expect(list.jsonBody).toEqual({ items: [], continuationToken: null });
      expect(
        (await call(employees.deleteEmployee, request('DELETE', { dept: 'Sales', id: '000400' })))
          .status,
      ).toBe(204);
    }
  });

  it('after concurrent PUTs the department list agrees with the department', async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(
          departments.putDepartment,
          request('PUT', { dept: 'Sales' }, { body: { description: `concurrent ${i}` } }),
        ),
      ),
    );
    const one = await call(departments.getDepartment, request('GET', { dept: 'Sales' }));
    const all = await call(departments.listDepartments, request('GET', {}));
    const listed = (all.jsonBody?.items as { name: string; description: string }[]).find(
      (d) => d.name === 'Sales',
    );
    expect(listed?.description).toBe(one.jsonBody?.description);
  });
});
