/**
 * `GET /api/openapi.json` through the local host: the description lists exactly the HTTP routes
 * the host registered (read from its own function list), passes a maintained OpenAPI 3.1
 * validator, says per operation who may call it, puts the JSON error schema on every error
 * response, and the bodies acceptance scenarios send (and the error bodies they get back) validate
 * against the operation's schemas with a JSON Schema 2020-12 validator.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startHost, type RunningHost } from '../../support/host';
import { employeePrincipal, telemetryPrincipal } from '../../support/principals';
import { send, seg, uniqueDepartment, type Reply, type SendOptions } from '../acceptance/client';

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId: string;
  description: string;
  'x-access': { description: string; anonymous: boolean };
  security: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { $ref?: string }>;
}
interface Document extends Json {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

let host: RunningHost;
let doc: Document;
let registered: { method: string; route: string }[];

beforeAll(async () => {
  host = await startHost();
  const reply = await send(host.baseUrl, 'GET', '/openapi.json', { principal: null });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  doc = reply.body as Document;
  const functions = (await (await fetch(`${host.origin}/admin/functions`)).json()) as {
    bindings: Record<string, { type: string; route?: string; methods?: string[] }>;
  }[];
  registered = functions.flatMap((fn) =>
    Object.values(fn.bindings)
      .filter((binding) => binding.type === 'httpTrigger')
      .flatMap((binding) =>
        (binding.methods ?? []).map((method) => ({
          method: method.toUpperCase(),
          route: binding.route!,
        })),
      ),
  );
}, 60_000);
afterAll(async () => {
  await host?.stop();
});

const operations = (): { key: string; op: Operation }[] =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

/** A route template as the description writes it: `{*email}` → `{email}`. */
const asPath = (route: string): string => `/${route.replace(/\{\*?([^}:]+)[^}]*\}/g, '{$1}')}`;

describe('GET /api/openapi.json', () => {
  it('describes every registered HTTP route and nothing else', () => {
    expect(registered.length).toBeGreaterThan(30);
    const expected = registered.map(({ method, route }) => `${method} ${asPath(route)}`).sort();
    expect(
      operations()
        .map(({ key }) => key)
        .sort(),
    ).toEqual(expected);
    expect(expected).toContain('GET /openapi.json');
    expect(expected).toContain('GET /departments/{dept}/employees/by-email/{email}');
  });

  it('passes the OpenAPI 3.1 schema validator (@seriousme/openapi-schema-validator)', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    // The validator is an ES module: it runs in a child Node process, fed the document on stdin.
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      const result = await new Validator().validate(JSON.parse(text));
      process.stdout.write(JSON.stringify({ version: result.valid ? '3.1' : '', ...result }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      input: JSON.stringify(doc),
      encoding: 'utf8',
      cwd: process.cwd(),
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { valid: boolean; errors?: unknown };
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('says per operation who may call it, and how the caller is identified', () => {
    expect(doc.components).toMatchObject({
      securitySchemes: {
        principal: { type: 'apiKey', in: 'header', name: 'x-ms-client-principal' },
      },
    });
    for (const { key, op } of operations()) {
      expect(`${key}: ${op['x-access'].description}`).toMatch(/: \S/);
      expect(op.description).toContain(op['x-access'].description);
      if (op['x-access'].anonymous) {
        expect(`${key}: ${JSON.stringify(op.security)}`).toBe(`${key}: []`);
      } else {
        expect(op.security).toEqual([{ principal: [] }]);
      }
    }
    expect(doc.paths['/sas/logs']!.post!['x-access'].description).toBe('DirectoryAdmin');
    expect(doc.paths['/health']!.get!['x-access'].anonymous).toBe(true);
  });

  it('gives every error response the JSON error schema, 401/403 on every protected route', () => {
    const error = doc.components.schemas.Error!;
    expect(error).toMatchObject({ required: ['error'] });
    for (const { key, op } of operations()) {
      const errors = Object.keys(op.responses).filter((status) => /^[45]\d\d$/.test(status));
      expect(`${key}: ${errors.length > 0}`).toBe(`${key}: true`);
      for (const status of errors) {
        const ref = op.responses[status]!.$ref!;
        const response = doc.components.responses[ref.split('/').pop()!] as {
          content: Record<string, { schema: Json }>;
        };
        expect(response.content['application/json']!.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      if (!op['x-access'].anonymous) expect(errors).toEqual(expect.arrayContaining(['401', '403']));
      if (op.requestBody) expect(errors).toEqual(expect.arrayContaining(['400', '413']));
    }
  });

  it('describes route parameters from the template and query parameters from the zod schema', () => {
    const byEmail = doc.paths['/departments/{dept}/employees/by-email/{email}']!.get!;
    expect(byEmail.parameters!.map((p) => `${p.in} ${p.name} ${p.required}`)).toEqual([
      'path dept true',
      'path email true',
      'query consistency false',
    ]);
    const hourly = doc.paths['/departments/{dept}/employees/{id}/messages/hourly']!.get!;
    expect(hourly.parameters!.find((p) => p.name === 'day')).toMatchObject({
      in: 'query',
      required: true,
    });
    expect(hourly.parameters!.find((p) => p.name === 'id')!.schema).toMatchObject({
      type: 'string',
    });
    const create = doc.paths['/departments/{dept}/employees']!.post!.requestBody!;
    expect(create.content['application/json']!.schema).toMatchObject({
      required: ['employeeId', 'firstName', 'lastName', 'email'],
      properties: { employeeId: { type: 'string', pattern: '^\\d{6}$' } },
      additionalProperties: false,
    });
  });
});

describe('acceptance scenarios against the description', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  /** The operation a request goes to, by method and by matching the path templates. */
  function operationFor(method: string, path: string): Operation {
    const bare = path.split('?')[0]!;
    for (const [template, ops] of Object.entries(doc.paths)) {
      const pattern = new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      );
      const op = ops[method.toLowerCase()];
      if (op && pattern.test(bare)) return op;
    }
    throw new Error(`No operation for ${method} ${bare}`);
  }

  function expectValid(schema: Json, value: unknown, what: string): void {
    const check = ajv.compile({ ...schema, components: doc.components });
    const ok = check(value);
    if (!ok) throw new Error(`${what}: ${ajv.errorsText(check.errors)}`);
  }

  const exchanges: { method: string; path: string; json: unknown; reply: Reply }[] = [];
  async function call(method: string, path: string, options: SendOptions): Promise<Reply> {
    const reply = await send(host.baseUrl, method, path, options);
    exchanges.push({ method, path, json: options.json, reply });
    return reply;
  }

  it('every request body sent validates against its operation, every error body against Error', async () => {
    const dept = uniqueDepartment('OpenApi');
    const d = `/departments/${seg(dept)}`;
    const id = '000314';
    const e = `${d}/employees/${id}`;
    const me = { principal: employeePrincipal(dept, id) };
    const ok = (reply: Reply): void => expect(reply.status).toBeLessThan(300);
    ok(await call('PUT', d, { json: { description: 'Described by OpenAPI' } }));
    ok(
      await call('POST', `${d}/employees`, {
        json: {
          employeeId: id,
          firstName: `Zoë "Z" O'Neil/#?`,
          lastName: 'Ström-Øst',
          email: `zoe.${randomBytes(3).toString('hex')}@example.com`,
          age: 41,
        },
      }),
    );
    ok(
      await call('POST', `${d}/employees/import`, {
        json: {
          employees: [
            { employeeId: '000315', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@x.test' },
          ],
        },
      }),
    );
    ok(await call('PATCH', e, { json: { age: 42 } }));
    ok(await call('PUT', `${d}/manager`, { json: { employeeId: id } }));
    ok(
      await call('PUT', `${e}/reviews/2025`, {
        json: { managerRating: 4, peerRating: 5, comments: 'Documented.' },
      }),
    );
    ok(
      await call('POST', `${e}/expenses`, {
        ...me,
        json: { amount: 12.5, currency: 'EUR', description: 'Train' },
      }),
    );
    ok(await call('POST', `/sas/expenses/${seg(dept)}/${id}`, { ...me, json: { minutes: 5 } }));
    ok(await call('POST', `/sas/photos/${seg(dept)}/${id}`, { ...me, json: { access: 'write' } }));
    ok(await call('POST', `/sas/departments/${seg(dept)}`, { json: { minutes: 5 } }));
    ok(
      await call('POST', `${e}/messages`, {
        principal: telemetryPrincipal,
        json: { at: '2026-11-22T10:15:00Z', count: 3 },
      }),
    );
    ok(
      await call('POST', '/access-events', {
        principal: telemetryPrincipal,
        json: { department: dept, employeeId: id, resource: 'photo', action: 'read' },
      }),
    );
    ok(
      await call('POST', '/logins', {
        principal: telemetryPrincipal,
        json: { userId: `openapi-${id}`, succeeded: true },
      }),
    );
    ok(await call('POST', '/maintenance/indexes/audit', { json: { repair: false } }));
    // Errors: a refused caller, bad input, a conflict.
    expect((await call('POST', `${d}/employees`, { ...me, json: {} })).status).toBe(403);
    expect((await call('PATCH', e, { json: { age: 'old' } })).status).toBe(400);
    expect((await call('PUT', `${d}/manager`, { json: { employeeId: '999999' } })).status).toBe(
      404,
    );

    let bodies = 0;
    for (const { method, path, json, reply } of exchanges) {
      const op = operationFor(method, path);
      if (json !== undefined && reply.status < 300) {
        const schema = op.requestBody?.content['application/json']?.schema;
        expect(`${method} ${path}: ${schema !== undefined}`).toMatch(/: true$/);
        expectValid(schema!, json, `${method} ${path} request body`);
        bodies++;
      }
      if (reply.status >= 400) {
        expect(Object.keys(op.responses)).toContain(String(reply.status));
        expectValid(doc.components.schemas.Error!, reply.body, `${method} ${path} error body`);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(12);
  });

  it('the schemas refuse what the API refuses', () => {
    const create = operationFor('POST', '/departments/X/employees').requestBody!.content[
      'application/json'
    ]!.schema;
    expect(ajv.validate(create, { employeeId: '12', firstName: 'A', lastName: 'B' })).toBe(false);
    expect(
      ajv.validate(create, {
        employeeId: '000001',
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.test',
        unknownField: 1,
      }),
    ).toBe(false);
  });
});
