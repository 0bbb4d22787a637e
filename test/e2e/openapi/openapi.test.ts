/**
 * `GET /api/openapi.json` through the local host: the description lists exactly the HTTP routes
 * the host registered (read from its own function list), passes a maintained OpenAPI 3.1
 * validator, says per operation who may call it, puts the JSON error schema on every error
 * response, and describes every success response with its body schema and headers. That real
 * traffic matches it is checked on every request of every e2e test (test/support/apiContract.ts);
 * the last tests here show those checks refuse what they should.
 */
import { spawnSync } from 'node:child_process';
import { ApiContract, type OpenApiDocument } from '../../support/apiContract';
import { registeredHttpRoutes, startHost, type RunningHost } from '../../support/host';
import { send, seg, uniqueDepartment } from '../acceptance/client';

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
  // The fallback (functions/fallback.ts) answers what no operation takes: it is no operation.
  const all = await registeredHttpRoutes(host);
  expect(all.filter(({ route }) => route === '{*path}').length).toBe(5);
  registered = all.filter(({ route }) => route !== '{*path}');
});
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
      // Health's 503 is its own report, not an error; every other 4xx/5xx is the error schema.
      const errors = Object.keys(op.responses).filter(
        (status) => /^[45]\d\d$/.test(status) && op.responses[status]!.$ref !== undefined,
      );
      expect(`${key}: ${errors.length > 0 || op.responses['503'] !== undefined}`).toBe(
        `${key}: true`,
      );
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

  it('describes every success response: its body schema, or none, and its headers', () => {
    for (const { key, op } of operations()) {
      const successes = Object.entries(op.responses).filter(([status]) =>
        /^[23]\d\d$/.test(status),
      );
      expect(`${key}: ${successes.length > 0}`).toBe(`${key}: true`);
      for (const [status, response] of successes as [string, Json][]) {
        const content = response.content as Record<string, { schema: Json }> | undefined;
        if (['204', '302', '308'].includes(status))
          expect(`${key} ${status}: ${content}`).toBe(`${key} ${status}: undefined`);
        else expect(`${key} ${status}: ${Object.keys(content ?? {})}`).toMatch(/application\/json/);
      }
    }
    const created = doc.paths['/departments/{dept}/employees']!.post!.responses['201'] as Json;
    expect(created).toMatchObject({
      headers: { etag: { required: true } },
      content: {
        'application/json': {
          schema: {
            required: ['department', 'employeeId', 'firstName', 'lastName', 'email', 'age'],
            additionalProperties: false,
          },
        },
      },
    });
    const archive = doc.paths['/departments/{dept}/employees/{id}/archive']!.post!.responses;
    expect(archive['202']).toMatchObject({ headers: { location: { required: true } } });
    expect(
      doc.paths['/departments/{dept}/employees/{id}/photo']!.get!.responses['302'],
    ).toMatchObject({ headers: { location: { required: true } } });
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

describe('the description against the API', () => {
  // Every request the e2e tests send and every response they get is checked against this
  // document as it happens (test/support/apiContract.ts); these pin what the checks rest on.
  it('the schemas refuse what the API refuses', () => {
    const contract = new ApiContract(doc as unknown as OpenApiDocument);
    const create = contract.operationFor('POST', '/departments/X/employees')!.operation.requestBody!
      .content['application/json']!.schema;
    expect(contract.validate(create, { employeeId: '12', firstName: 'A', lastName: 'B' })).toMatch(
      /email/,
    );
    expect(
      contract.validate(create, {
        employeeId: '000001',
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.test',
        unknownField: 1,
      }),
    ).toMatch(/additional properties/);
  });

  it('a response the code does not give fails the check, naming operation, status and error', async () => {
    const contract = new ApiContract(doc as unknown as OpenApiDocument);
    const dept = uniqueDepartment('OpenApi');
    const reply = await send(host.baseUrl, 'PUT', `/departments/${seg(dept)}`, { json: {} });
    expect(reply.status).toBe(201);
    const exchange = {
      method: 'PUT',
      path: `/departments/${seg(dept)}`,
      query: new URLSearchParams(),
      contentType: 'application/json',
      body: '{}',
      status: 201,
      headers: reply.headers,
      text: reply.text,
      redirected: false,
    };
    expect(() => contract.check(exchange)).not.toThrow();
    const withoutCount = { ...(reply.body as Record<string, unknown>), employeeCount: 'none' };
    expect(() => contract.check({ ...exchange, text: JSON.stringify(withoutCount) })).toThrow(
      /PUT \/departments\/\{dept\} \(putDepartment\) answered 201: response body: \/employeeCount must be integer/,
    );
    expect(() => contract.check({ ...exchange, status: 418 })).toThrow(
      /answered 418: status 418 is not documented/,
    );
    const noEtag = new Headers(reply.headers);
    noEtag.delete('etag');
    expect(() => contract.check({ ...exchange, headers: noEtag })).toThrow(
      /header etag is missing/,
    );
    expect(() => contract.check({ ...exchange, body: '{"description": 7}' })).toThrow(
      /the request does not match the document, yet it was accepted: request body: \/description must be string/,
    );
    expect(() => contract.check({ ...exchange, method: 'DELETE' })).toThrow(
      /no such operation in the document/,
    );
  });
});
