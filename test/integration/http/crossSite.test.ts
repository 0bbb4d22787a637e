/**
 * The app's own defence against cross-site writes, in process: registered handlers invoked the way
 * the Functions host invokes them, with no local host in front (in Azure nothing but App
 * Service authentication stands there, and it checks no Origin). A write from another site is
 * refused with 403 `CrossSiteRequest` before storage is touched; a body of another type is 415.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import { putDepartment } from '../../../functions/departments';
import { createEmployee, deleteEmployee } from '../../../functions/employees';
import { requestEmployeeArchive } from '../../../functions/archive';
import type { HttpHandler } from '../../../functions/shared/http';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const tableName = uniqueTableName('CrossSite');
process.env.EMPLOYEES_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

const APP = 'https://directory.azurewebsites.net';

function request(
  method: string,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string>,
  body?: string,
): HttpRequest {
  return new HttpRequest({
    method,
    url: `${APP}/api${path}`,
    params,
    headers: { [PRINCIPAL_HEADER]: adminPrincipal, ...headers },
    ...(body === undefined ? {} : { body: { string: body } }),
  });
}

async function call(handler: HttpHandler, req: HttpRequest) {
  return (await handler(req, new InvocationContext())) as HttpResponseInit & {
    jsonBody?: { error?: { code: string } };
  };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const employee = JSON.stringify({
  employeeId: '000001',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
});

describe('the app refuses cross-site writes itself', () => {
  it.each([
    ['Origin of another site', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: APP }],
  ])(
    '%s: 403 CrossSiteRequest on every write, and the table is never created',
    async (_, headers) => {
      const params = { dept: 'Sales', id: '000001' };
      const answers = [
        await call(
          putDepartment,
          request('PUT', '/departments/Sales', params, { ...JSON_TYPE, ...headers }, '{}'),
        ),
        await call(
          createEmployee,
          request(
            'POST',
            '/departments/Sales/employees',
            params,
            { ...JSON_TYPE, ...headers },
            employee,
          ),
        ),
        await call(
          deleteEmployee,
          request('DELETE', '/departments/Sales/employees/000001', params, headers),
        ),
        await call(
          requestEmployeeArchive,
          request('POST', '/departments/Sales/employees/000001/archive', params, headers),
        ),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(403);
        expect(answer.jsonBody?.error?.code).toBe('CrossSiteRequest');
      }
      const tables = testClients()
        .tableService()
        .listTables({ queryOptions: { filter: `TableName eq '${tableName}'` } });
      for await (const table of tables) throw new Error(`${table.name} was created`);
    },
  );

  it('a text/plain body holding JSON is 415, from the app’s own origin too', async () => {
    const answer = await call(
      createEmployee,
      request(
        'POST',
        '/departments/Sales/employees',
        { dept: 'Sales' },
        { 'content-type': 'text/plain', origin: APP },
        employee,
      ),
    );
    expect(answer.status).toBe(415);
    expect(answer.jsonBody?.error?.code).toBe('UnsupportedMediaType');
  });

  it('the app’s own origin (even seen as http behind the front ends) passes the check', async () => {
    const answer = await call(
      putDepartment,
      request(
        'PUT',
        '/departments/Sales',
        { dept: 'Sales' },
        { ...JSON_TYPE, origin: APP.replace('https:', 'http:'), 'sec-fetch-site': 'same-origin' },
        '{}',
      ),
    );
    expect(answer.status).not.toBe(403);
    expect(answer.status).not.toBe(415);
  });
});
