/**
 * The SAS HTTP adapters, invoked the way the Functions host invokes them (HttpRequest in,
 * HttpResponseInit out), each wrapped in its route's access rule as registered, over a SAS service
 * on this test's own tables: identity first (401), then the route's rule (403), input (400), the
 * service's finer checks, and a token that is never cached.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import { sasRoutes } from '../../../functions/sas';
import type { HttpHandler } from '../../../functions/shared/http';
import { authorizedHandler } from '../../../functions/shared/route';
import type { Services } from '../../../functions/shared/services';
import {
  adminPrincipal,
  employeePrincipal,
  PRINCIPAL_HEADER,
  readerPrincipal,
} from '../../support/principals';
import { createSasFixture, type SasFixture } from './fixture';

type SasRouteKey = keyof ReturnType<typeof sasRoutes>;

let fx: SasFixture;
let handlers: Record<SasRouteKey, HttpHandler>;

beforeAll(async () => {
  fx = await createSasFixture();
  const routes = sasRoutes();
  // The fixture's issuer, in place of the process's (the registered routes use `s.sas()`).
  const uses = (s: Services) => ({ issuer: fx.service, metrics: s.metrics() });
  handlers = Object.fromEntries(
    Object.entries(routes).map(([key, route]) => [
      key,
      authorizedHandler({ ...route, uses }, route.handler),
    ]),
  ) as Record<SasRouteKey, HttpHandler>;
});
afterAll(() => fx.cleanup());

function post(
  params: Record<string, string>,
  options: { principal?: string; body?: unknown } = {},
): HttpRequest {
  return new HttpRequest({
    method: 'POST',
    url: 'http://localhost/api/sas',
    params,
    headers: {
      ...(options.principal === undefined ? {} : { [PRINCIPAL_HEADER]: options.principal }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: { string: JSON.stringify(options.body) } }),
  });
}

async function call(
  handler: SasRouteKey,
  request: HttpRequest,
): Promise<HttpResponseInit & { jsonBody?: Record<string, unknown> }> {
  return handlers[handler](request, new InvocationContext()) as Promise<
    HttpResponseInit & { jsonBody?: Record<string, unknown> }
  >;
}

const employee223 = employeePrincipal('Sales', '000223');
const adminHeader = adminPrincipal;

describe('SAS HTTP functions', () => {
  it('answer 200 with the token, its scope and Cache-Control: no-store', async () => {
    const response = await call(
      'expenses',
      post({ dept: 'Sales', id: '000223' }, { principal: employee223 }),
    );
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ 'cache-control': 'no-store' });
    expect(response.jsonBody).toMatchObject({
      table: fx.config.tables.expenses,
      partitionKey: 'Sales_000223',
      permissions: 'r',
    });
    for (const field of ['url', 'sas', 'expiresOn'])
      expect(typeof response.jsonBody?.[field]).toBe('string');
    expect(String(response.jsonBody?.sas)).toMatch(/(^|&)spk=Sales_000223(&|$)/);
    expect(String(response.jsonBody?.sas)).toMatch(/(^|&)epk=Sales_000223(&|$)/);
  });

  it('answer 401 without a principal, whatever the input', async () => {
    for (const [handler, params] of [
      ['expenses', { dept: 'Sales', id: '000223' }],
      ['department', { dept: 'bad/dept' }],
      ['photo', { dept: 'Sales', id: '000223' }],
      ['logs', {}],
      ['rotatePolicy', { table: 'Employees' }],
    ] as const) {
      const response = await call(handler, post(params));
      expect(response.status).toBe(401);
      expect(response.jsonBody).toEqual({
        error: { code: 'Unauthenticated', message: expect.any(String) },
      });
    }
  });

  it('answer 401 (never 500) for a malformed principal', async () => {
    for (const principal of [
      '@@@',
      Buffer.from('{"claims":7}').toString('base64'),
      Buffer.from('[]').toString('base64'),
    ]) {
      const response = await call('logs', post({}, { principal }));
      expect(response.status).toBe(401);
      expect((response.jsonBody?.error as { code: string }).code).toBe('InvalidPrincipal');
    }
  });

  it('answer 403 for another employee’s expenses and for a reader of another department', async () => {
    const other = await call(
      'expenses',
      post({ dept: 'Sales', id: '000224' }, { principal: employee223 }),
    );
    expect(other.status).toBe(403);
    // Ids are unique only within a department: the same id in another department is not self.
    const namesake = await call(
      'expenses',
      post(
        { dept: 'Sales', id: '000223' },
        { principal: employeePrincipal('Marketing', '000223') },
      ),
    );
    expect(namesake.status).toBe(403);
    const reader = readerPrincipal('Marketing');
    const dept = await call('department', post({ dept: 'Sales' }, { principal: reader }));
    expect(dept.status).toBe(403);
    expect((dept.jsonBody?.error as { message: string }).message).toMatch(/DirectoryReader:Sales/);
  });

  it('answer 400 for a lifetime above the cap, naming the cap', async () => {
    const response = await call(
      'expenses',
      post({ dept: 'Sales', id: '000223' }, { principal: employee223, body: { minutes: 61 } }),
    );
    expect(response.status).toBe(400);
    expect(response.jsonBody?.error).toMatchObject({ code: 'SasLifetimeTooLong' });
    expect((response.jsonBody?.error as { message: string }).message).toMatch(/at most 60 minutes/);
  });

  it('answer 400 for bad input: a fractional lifetime, a missing or unknown photo access', async () => {
    const fractional = await call(
      'logs',
      post({}, { principal: adminHeader, body: { minutes: 1.5 } }),
    );
    expect(fractional.status).toBe(400);
    const missing = await call(
      'photo',
      post({ dept: 'Sales', id: '000223' }, { principal: adminHeader }),
    );
    expect(missing.status).toBe(400);
    expect(missing.jsonBody?.error).toMatchObject({ target: 'body.access' });
    const unknown = await call(
      'photo',
      post({ dept: 'Sales', id: '000223' }, { principal: adminHeader, body: { access: 'delete' } }),
    );
    expect(unknown.status).toBe(400);
  });

  it('rotate a policy for a DirectoryAdmin, 404 for a table without SAS', async () => {
    const rotated = await call(
      'rotatePolicy',
      post({ table: fx.config.tables.employees }, { principal: adminHeader }),
    );
    expect(rotated.status).toBe(200);
    // No token was ever issued on this table: the first rotation only creates the policies.
    expect(rotated.jsonBody).toEqual({
      table: fx.config.tables.employees,
      policyId: 'directory-sas-v1',
    });
    const again = await call(
      'rotatePolicy',
      post({ table: fx.config.tables.employees }, { principal: adminHeader }),
    );
    expect(again.jsonBody).toEqual({
      table: fx.config.tables.employees,
      policyId: 'directory-sas-v2',
      revokedPolicyId: 'directory-sas-v1',
    });
    const unknown = await call(
      'rotatePolicy',
      post({ table: 'AccessLog' }, { principal: adminHeader }),
    );
    expect(unknown.status).toBe(404);
    const forbidden = await call(
      'rotatePolicy',
      post({ table: fx.config.tables.employees }, { principal: employee223 }),
    );
    expect(forbidden.status).toBe(403);
  });
});
