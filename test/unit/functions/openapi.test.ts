/**
 * The OpenAPI generator (functions/shared/openapi.ts) on hand-made registrations: paths from route
 * templates (catch-alls included), parameters and bodies from zod schemas, error responses as the
 * registration implies, and who may call each operation.
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
  },
};
const publicRoute: RegisteredRoute = {
  name: 'ping',
  route: 'ping',
  methods: ['GET'],
  access: anonymous,
  schemas: {},
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
    expect(errorStatuses(patchRoute, 'PATCH')).toEqual([400, 401, 403, 404, 409, 412, 413, 503]);
  });
  it('gives an anonymous route without input only the storage outage', () => {
    expect(errorStatuses(publicRoute, 'GET')).toEqual([503]);
  });
});

describe('openApiDocument', () => {
  const doc = openApiDocument([patchRoute, publicRoute]) as {
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
    expect(op.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: jsonSchemaOf(patchRoute.schemas.body!) } },
    });
    expect(jsonSchemaOf(patchRoute.schemas.body!)).toMatchObject({
      additionalProperties: false,
      required: ['name'],
    });
    expect(jsonSchemaOf(patchRoute.schemas.body!)).not.toHaveProperty('$schema');
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
    expect(Object.keys(responses)).toContain('2XX');
  });
});
