/**
 * SAS endpoints (API.md "SAS"): the valet key. Each route reads the App Service principal,
 * validates input, asks the SAS service for a token and returns it uncached.
 */
import { app, type HttpRequest } from '@azure/functions';
import { z } from 'zod';
import { parsePrincipalHeader, PRINCIPAL_HEADER, type Principal } from '../src/identity/principal';
import { getSasService, type SasService } from '../src/sas/service';
import { handleErrors, json, readJson, readParams, type HttpHandler } from './shared/http';

/** Tokens are secrets with an expiry: never let a proxy or browser keep them. */
const NO_STORE = { 'cache-control': 'no-store' };

const lifetimeBody = z.object({ minutes: z.number().int().min(1).optional() });
const photoBody = lifetimeBody.extend({ access: z.enum(['read', 'write']) });
const departmentParams = z.object({ dept: z.string() });
const employeeParams = z.object({ dept: z.string(), id: z.string() });
const tableParams = z.object({ table: z.string() });

function principalOf(request: HttpRequest): Principal {
  return parsePrincipalHeader(request.headers.get(PRINCIPAL_HEADER));
}

/** Authenticates first, so that a caller without identity learns nothing about the input rules. */
function withPrincipal(
  handler: (principal: Principal, request: HttpRequest) => Promise<unknown>,
): HttpHandler {
  return handleErrors(async (request) => {
    const principal = principalOf(request);
    return json(200, await handler(principal, request), NO_STORE);
  });
}

/** The SAS handlers over a service (the registered ones use the process-wide service). */
export function createSasHandlers(
  service: () => SasService,
): Record<'expenses' | 'department' | 'photo' | 'logs' | 'rotatePolicy', HttpHandler> {
  return {
    expenses: withPrincipal(async (principal, request) => {
      const { dept, id } = readParams(request, employeeParams);
      const { minutes } = await readJson(request, lifetimeBody);
      return service().expensesSas(principal, dept, id, minutes);
    }),
    department: withPrincipal(async (principal, request) => {
      const { dept } = readParams(request, departmentParams);
      const { minutes } = await readJson(request, lifetimeBody);
      return service().departmentSas(principal, dept, minutes);
    }),
    photo: withPrincipal(async (principal, request) => {
      const { dept, id } = readParams(request, employeeParams);
      const { access, minutes } = await readJson(request, photoBody);
      return service().photoSas(principal, dept, id, access, minutes);
    }),
    logs: withPrincipal(async (principal, request) => {
      const { minutes } = await readJson(request, lifetimeBody);
      return service().logsSas(principal, minutes);
    }),
    rotatePolicy: withPrincipal(async (principal, request) => {
      const { table } = readParams(request, tableParams);
      return service().rotateSasPolicy(principal, table);
    }),
  };
}

const handlers = createSasHandlers(getSasService);

app.http('sasExpenses', {
  route: 'sas/expenses/{dept}/{id}',
  methods: ['POST'],
  authLevel: 'function',
  handler: handlers.expenses,
});

app.http('sasDepartment', {
  route: 'sas/departments/{dept}',
  methods: ['POST'],
  authLevel: 'function',
  handler: handlers.department,
});

app.http('sasPhoto', {
  route: 'sas/photos/{dept}/{id}',
  methods: ['POST'],
  authLevel: 'function',
  handler: handlers.photo,
});

app.http('sasLogs', {
  route: 'sas/logs',
  methods: ['POST'],
  authLevel: 'function',
  handler: handlers.logs,
});

// Not `admin/...`: the Functions host reserves that prefix for its own API.
app.http('sasPolicyRotate', {
  route: 'sas/policies/{table}/rotate',
  methods: ['POST'],
  authLevel: 'function',
  handler: handlers.rotatePolicy,
});
