/**
 * `DELETE` with `If-Match` racing a `PATCH` of the same employee through the HTTP adapters, as
 * clients would send them, 40 rounds (each of 8 start offsets 5 times): never do both succeed,
 * and whichever wins leaves storage consistent with its answer (a PATCH answered 200 is never
 * deleted by a DELETE answered 204). The deterministic version, one side held on the pipeline, is
 * test/integration/directory/employees/deleteRaces.test.ts.
 */
import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import * as departments from '../../../functions/departments';
import * as employees from '../../../functions/employees';
import type { HttpHandler } from '../../../functions/shared/http';
import { testClients, uniqueTableName } from '../../support/storage';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';

const tableName = uniqueTableName('EmpRace');
process.env.EMPLOYEES_TABLE = tableName;
afterAll(() => testClients().table(tableName).deleteTable());

const ROUNDS = 40;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function request(
  method: string,
  params: Record<string, string>,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): HttpRequest {
  return new HttpRequest({
    method,
    url: 'http://localhost/api/x',
    params,
    headers: {
      'content-type': 'application/json',
      [PRINCIPAL_HEADER]: adminPrincipal,
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: { string: JSON.stringify(options.body) } }),
  });
}

async function call(handler: HttpHandler, req: HttpRequest): Promise<HttpResponseInit> {
  return (await handler(req, new InvocationContext())) as HttpResponseInit;
}

function etagOf(response: HttpResponseInit): string {
  const headers = new Headers(response.headers as Record<string, string>);
  const etag = headers.get('etag');
  if (!etag) throw new Error(`No ETag in ${JSON.stringify(response)}`);
  return etag;
}

it(`${ROUNDS} rounds of DELETE with If-Match racing PATCH: never both succeed`, async () => {
  const dept = 'Race';
  await call(departments.putDepartment, request('PUT', { dept }, { body: {} }));
  const outcomes = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    const id = String(round + 1).padStart(6, '0');
    const created = await call(
      employees.createEmployee,
      request(
        'POST',
        { dept },
        {
          body: {
            employeeId: id,
            firstName: 'Before',
            lastName: 'Racer',
            email: `racer${id}@contoso.com`,
          },
        },
      ),
    );
    expect(created.status).toBe(201);
    // The DELETE starts a little later in some rounds, so the PATCH commits at varying points of
    // the DELETE's read-then-commit window.
    const [deleted, patched] = await Promise.all([
      delay(round % 8).then(() =>
        call(
          employees.deleteEmployee,
          request('DELETE', { dept, id }, { headers: { 'if-match': etagOf(created) } }),
        ),
      ),
      call(
        employees.patchEmployee,
        request('PATCH', { dept, id }, { body: { firstName: 'After' } }),
      ),
    ]);
    const outcome = `DELETE ${deleted.status} / PATCH ${patched.status}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    expect(deleted.status === 204 && patched.status === 200).toBe(false);

    const stored = await call(employees.getEmployee, request('GET', { dept, id }));
    if (patched.status === 200) {
      expect(deleted.status).toBe(412);
      expect(stored.status).toBe(200);
      expect((stored.jsonBody as { firstName: string }).firstName).toBe('After');
    } else {
      expect(deleted.status).toBe(204);
      expect(stored.status).toBe(404);
    }
  }
  // Both orders occur in practice; what matters is that no round had two winners.
  expect([...outcomes.keys()].every((o) => o !== 'DELETE 204 / PATCH 200')).toBe(true);
});
