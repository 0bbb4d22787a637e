/**
 * The OpenAPI generator (functions/shared/openapi.ts) on hand-made registrations: paths from route
 * templates (catch-alls included), parameters and bodies from zod schemas, success responses with
 * their bodies and headers as the registration declares them, error responses as the registration
 * implies, and who may call each operation.
 */
import { z } from 'zod';
import {
  errorStatuses,
  jsonSchemaOf,
  openApiDocument,
  openApiPath,
  templateParameters,
} from '../../../functions/shared/openapi';
import type { RegisteredRoute } from '../../../functions/shared/route';
import { anonymous, departmentEditor } from '../../../src/identity/access';

const patchRoute: RegisteredRoute = {
  name: 'patchThing',
  route: 'departments/{dept}/things/{id}',
  methods: ['PATCH'],
  access: departmentEditor,
  schemas: {
    params: z.object({ dept: z.string(), id: z.string().regex(/^\d{6}$/) }),
    query: z.strictObject({ dryRun: z.enum(['true', 'false']).optional(), tag: z.string() }),
    body: z.strictObject({ name: z.string().min(1), size: z.number().int().optional() }),
    responses: {
      200: {
        description: 'The thing.',
        body: z.strictObject({ name: z.string(), size: z.number().int().nullable() }),
        headers: {
          etag: { description: 'Its ETag.' },
          'retry-after': { description: 'Later.', optional: true },
        },
      },
      204: { description: 'Nothing changed.' },
    },
  },
};
const publicRoute: RegisteredRoute = {
  name: 'ping',
  route: 'ping',
  methods: ['GET'],
  access: anonymous,
  schemas: {
    responses: { 200: { description: 'Pong.', body: z.strictObject({ pong: z.literal(true) }) } },
  },
};
const healthLike: RegisteredRoute = {
  name: 'probe',
  route: 'probe',
  methods: ['GET'],
  access: anonymous,
  schemas: {
    responses: {
      200: { description: 'Up.', body: z.strictObject({ up: z.boolean() }) },
      503: { description: 'Down.', body: z.strictObject({ up: z.boolean() }) },
    },
    errors: [501],
  },
};

describe('openApiPath and templateParameters', () => {
  it('turns route templates into OpenAPI paths, catch-alls included', () => {
    expect(openApiPath('departments/{dept}/employees/by-email/{*email}')).toBe(
      '/departments/{dept}/employees/by-email/{email}',
    );
    expect(openApiPath('logins/{*userId}')).toBe('/logins/{userId}');
    expect(openApiPath('health')).toBe('/health');
    expect(templateParameters('a/{dept}/b/{*rest}')).toEqual([
      { name: 'dept', catchAll: false },
      { name: 'rest', catchAll: true },
    ]);
  });
});

describe('errorStatuses', () => {
  it('lists what a protected write with parameters and a body can answer', () => {
    expect(errorStatuses(patchRoute, 'PATCH')).toEqual([
      400, 401, 403, 404, 409, 411, 412, 413, 415, 503,
    ]);
  });
  it('gives an anonymous route without input only the storage outage', () => {
    expect(errorStatuses(publicRoute, 'GET')).toEqual([503]);
  });
  it('adds the statuses a route declares, and drops those it declares a response of its own for', () => {
    expect(errorStatuses(healthLike, 'GET')).toEqual([501]);
  });
});

describe('openApiDocument', () => {
  const doc = openApiDocument([patchRoute, publicRoute, healthLike]) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const op = doc.paths['/departments/{dept}/things/{id}']!.patch!;

  it('takes path parameters from the template and their schemas from zod', () => {
    expect(op.parameters).toEqual([
      { name: 'dept', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d{6}$' } },
      {
        name: 'dryRun',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      { name: 'tag', in: 'query', required: true, schema: { type: 'string' } },
    ]);
  });

  it('describes the JSON body with the schema the adapter validates with', () => {
    expect(op.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: jsonSchemaOf(patchRoute.schemas.body!) } },
    });
    expect(jsonSchemaOf(patchRoute.schemas.body!)).toMatchObject({
      additionalProperties: false,
      required: ['name'],
    });
    expect(jsonSchemaOf(patchRoute.schemas.body!)).not.toHaveProperty('$schema');
  });

  it('makes a body optional when no body (read as {}) passes its schema', () => {
    const optional = openApiDocument([
      {
        ...patchRoute,
        schemas: {
          ...patchRoute.schemas,
          body: z.strictObject({ minutes: z.number().optional() }),
        },
      },
    ]) as typeof doc;
    expect(optional.paths['/departments/{dept}/things/{id}']!.patch!.requestBody).toMatchObject({
      required: false,
    });
  });

  it('says who may call, and asks for the principal only where the rule needs one', () => {
    expect(op['x-access']).toEqual({ description: 'DirectoryEditor:{dept}', anonymous: false });
    expect(op.security).toEqual([{ principal: [] }]);
    expect(doc.paths['/ping']!.get!.security).toEqual([]);
    expect(doc.paths['/ping']!.get!['x-access']).toEqual({
      description: 'anyone',
      anonymous: true,
    });
  });

  it('points every error response at the one error schema', () => {
    const responses = op.responses as Record<string, { $ref?: string }>;
    expect(responses['412']).toEqual({ $ref: '#/components/responses/Error412' });
    expect(Object.keys(responses)).not.toContain('2XX');
  });

  it('describes each declared response: its body as the code writes it, its headers, or no body', () => {
    const responses = op.responses as Record<string, Record<string, unknown>>;
    expect(responses['200']).toEqual({
      description: 'The thing.',
      headers: {
        etag: { description: 'Its ETag.', required: true, schema: { type: 'string' } },
        'retry-after': { description: 'Later.', required: false, schema: { type: 'string' } },
      },
      content: {
        'application/json': {
          schema: jsonSchemaOf(patchRoute.schemas.responses[200]!.body!, 'output'),
        },
      },
    });
    expect(responses['204']).toEqual({ description: 'Nothing changed.' });
    const probe = doc.paths['/probe']!.get!.responses as Record<string, Record<string, unknown>>;
    expect(Object.keys(probe)).toEqual(['200', '501', '503']);
    expect(probe['503']).toMatchObject({ description: 'Down.' });
  });
});
