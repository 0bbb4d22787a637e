/**
 * The API's OpenAPI 3.1 description, generated from what the app registers: the routes, methods and
 * access rules of functions/shared/route.ts, and the very zod schemas each adapter validates its
 * route parameters, query string and JSON body with, and the schemas of what each answers (its
 * `schemas.responses`; zod 4 emits JSON Schema 2020-12, the dialect of OpenAPI 3.1). Nothing here
 * is written twice: a route, a parameter or a field that changes in an adapter changes here. The
 * e2e tests hold every request they send and every response they get against the served document
 * (test/support/apiContract.ts).
 */
import { z } from 'zod';
import type { RegisteredRoute, ResponseSpec } from './route';
import { PRINCIPAL_HEADER } from '../../src/identity/principal';

/** A JSON Schema object, as zod emits it. */
type JsonSchema = Record<string, unknown>;

/** What the generator needs to know of the deployment. */
export interface OpenApiOptions {
  /** The HTTP route prefix (host.json `extensions.http.routePrefix`). */
  routePrefix?: string;
  /** The API's version, e.g. package.json's. */
  version?: string;
}

/** The one error body every error response carries (functions/shared/http.ts `errorBody`). */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: {
          type: 'string',
          description: 'Stable machine-readable code, e.g. EmployeeNotFound.',
        },
        message: { type: 'string', description: 'A human sentence saying what went wrong.' },
        target: {
          type: 'string',
          description: 'The (first) offending input, e.g. body.email or route.id.',
        },
        details: {
          type: 'array',
          description:
            'Invalid input: every invalid field at once (up to 100), each with what is wrong in plain words.',
          items: {
            type: 'object',
            required: ['field', 'problem'],
            additionalProperties: false,
            properties: {
              field: { type: 'string', description: 'e.g. body.firstName, query.pageSize.' },
              problem: { type: 'string', description: 'e.g. "is required", "must be a number".' },
            },
          },
        },
      },
    },
  },
};

/** What each error status means (functions/shared/http.ts maps domain errors to them). */
const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'Invalid input: bad JSON, a missing or ill-typed field, a forbidden key character.',
  401: 'No (trusted) identity: send the App Service principal (x-ms-client-principal).',
  403: 'The caller is not one the route admits (decided before any storage read), or a write came from another site (CrossSiteRequest).',
  404: 'Not found.',
  405: 'The path exists but takes other methods: `Allow` lists them (any path of this document, with a method it does not list).',
  409: 'Already exists, or conflicting state.',
  411: 'A body was sent without Content-Length (chunked): Azure Functions does not pass such a body to the app, so send its length.',
  412: 'The If-Match ETag is stale.',
  413: 'The request (or the data it asks for) is over the limit.',
  415: 'The body is not of a type the operation takes (JSON bodies need content-type application/json).',
  501: 'The feature needs a setting this deployment does not have (e.g. an account key).',
  503: 'Storage is throttled or unreachable after retries, or a setting is unusable; see Retry-After.',
};

/** Headers an error status always carries. */
const ERROR_HEADERS: Readonly<Record<string, JsonSchema>> = {
  405: {
    allow: {
      description: 'The methods the path takes, e.g. "GET, PATCH, DELETE".',
      required: true,
      schema: { type: 'string' },
    },
  },
  503: {
    'retry-after': {
      description: 'Seconds to wait before trying again.',
      required: true,
      schema: { type: 'string' },
    },
  },
};

/**
 * The JSON Schema of a zod schema: as a request is written (`input`, the input side of
 * transforms) or as a response is (`output`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const emitted = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    // Refinements and transforms cannot be said in JSON Schema: the input shape is described.
    unrepresentable: 'any',
  }) as JsonSchema;
  delete emitted.$schema;
  return emitted;
}

/**
 * `departments/{dept}/employees/by-email/{*email}` →
 * `/departments/{dept}/employees/by-email/{email}`.
 */
export function openApiPath(route: string): string {
  return `/${route.replace(/^\/+/, '').replace(/\{\*?([^}:?=]+)[^}]*\}/g, '{$1}')}`;
}

/** The parameters a route template names, with whether each is a catch-all (`{*email}`). */
export function templateParameters(route: string): { name: string; catchAll: boolean }[] {
  return [...route.matchAll(/\{(\*?)([^}:?=]+)[^}]*\}/g)].map(([, star, name]) => ({
    name: name!,
    catchAll: star === '*',
  }));
}

/** The properties and required names of an object schema (empty for anything else). */
function objectParts(schema: z.ZodType | undefined): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  if (!schema) return { properties: {}, required: [] };
  const json = jsonSchemaOf(schema);
  return {
    properties: (json.properties as Record<string, JsonSchema> | undefined) ?? {},
    required: (json.required as string[] | undefined) ?? [],
  };
}

/** The error statuses a route can answer, as far as its registration tells. */
export function errorStatuses(route: RegisteredRoute, method: string): number[] {
  const statuses = new Set<number>([503]);
  const hasParams = templateParameters(route.route).length > 0;
  const { params, query, body, rawBodies } = route.schemas;
  const takesBody = body !== undefined || (rawBodies?.length ?? 0) > 0;
  if (params || query || takesBody) statuses.add(400);
  if (!route.access.anonymous) {
    statuses.add(401);
    statuses.add(403);
  }
  if (hasParams) statuses.add(404);
  if (['POST', 'PUT', 'PATCH'].includes(method) && !route.access.anonymous) statuses.add(409);
  if (['PUT', 'PATCH', 'DELETE'].includes(method) && hasParams) statuses.add(412);
  if (takesBody) statuses.add(413);
  // Writes: cross-site refusals (403) and bodies of another type (415), for every route.
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) {
    statuses.add(403);
    statuses.add(411);
    statuses.add(415);
    if (!takesBody) statuses.add(400);
  }
  for (const status of route.schemas.errors ?? []) statuses.add(status);
  // A status the route declares a response of its own for (health's 503) is not an error here.
  for (const status of Object.keys(route.schemas.responses)) statuses.delete(Number(status));
  return [...statuses].sort((a, b) => a - b);
}

/** One declared response as OpenAPI writes it. */
function responseObject(spec: ResponseSpec): JsonSchema {
  const content: Record<string, JsonSchema> = {};
  if (spec.body) content['application/json'] = { schema: jsonSchemaOf(spec.body, 'output') };
  for (const type of spec.rawBodies ?? []) {
    content[type] = { schema: { type: 'string', contentMediaType: type } };
  }
  const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => [
    name,
    {
      description: header.description,
      required: header.optional !== true,
      schema: { type: 'string' },
    },
  ]);
  return {
    description: spec.description,
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

/**
 * The request body: required when the route says so (`bodyRequired`) or an empty one does not
 * pass (functions/shared/http.ts `readJson` reads no body as `{}`).
 */
function requestBody(route: RegisteredRoute, content: Record<string, JsonSchema>): JsonSchema {
  const { body, bodyRequired } = route.schemas;
  return {
    description: body
      ? bodyRequired
        ? 'JSON (content-type application/json, unless another type is listed); required: send {} for none of its optional fields.'
        : 'JSON (content-type application/json, unless another type is listed); no body counts as {}.'
      : 'The raw bytes.',
    required: body === undefined || bodyRequired === true || !body.safeParse({}).success,
    content,
  };
}

function operation(route: RegisteredRoute, method: string): JsonSchema {
  const params = objectParts(route.schemas.params);
  const query = objectParts(route.schemas.query);
  const parameters: JsonSchema[] = [
    ...templateParameters(route.route).map(({ name, catchAll }) => ({
      name,
      in: 'path',
      required: true,
      schema: params.properties[name] ?? { type: 'string' },
      ...(catchAll
        ? {
            description:
              'Catch-all: the rest of the path, which may itself contain "/" (or be empty, ' +
              'with or without the "/" before it, where its schema allows).',
            'x-catch-all': true,
          }
        : {}),
    })),
    ...Object.entries(query.properties).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required.includes(name),
      schema,
    })),
  ];
  const content: Record<string, JsonSchema> = {};
  if (route.schemas.body) {
    content['application/json'] = { schema: jsonSchemaOf(route.schemas.body) };
  }
  for (const type of route.schemas.rawBodies ?? []) {
    content[type] = { schema: { type: 'string', contentMediaType: type } };
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.schemas.responses)) {
    if (spec) responses[status] = responseObject(spec);
  }
  for (const status of errorStatuses(route, method)) {
    responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
  }
  const who = route.access.description;
  return {
    operationId: route.methods.length > 1 ? `${route.name}${method}` : route.name,
    summary: `${method} ${openApiPath(route.route)}`,
    description: `Who may call: ${who}.`,
    tags: [route.route.split('/')[0]!],
    'x-access': { description: who, anonymous: route.access.anonymous },
    security: route.access.anonymous ? [] : [{ principal: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(Object.keys(content).length > 0 ? { requestBody: requestBody(route, content) } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the registered HTTP routes. */
export function openApiDocument(
  routes: readonly RegisteredRoute[],
  options: OpenApiOptions = {},
): JsonSchema {
  const prefix = options.routePrefix ?? 'api';
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPath(route.route);
    for (const method of route.methods) {
      (paths[path] ??= {})[method.toLowerCase()] = operation(route, method);
    }
  }
  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((path) => [path, paths[path]]),
  );
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_MEANINGS).map(([status, meaning]) => [
      `Error${status}`,
      {
        description: meaning,
        ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return {
    openapi: '3.1.1',
    info: {
      title: 'Employee directory on Azure Table storage',
      version: options.version ?? '1.0.0',
      description:
        'Generated at runtime from the registered routes and the zod schemas their adapters ' +
        'validate with. Each operation says who may call it (`x-access`). A path below with a ' +
        'method it does not list answers 405 with `Allow` (components.responses.Error405); a ' +
        'path not below answers 404; both with the Error body. Invalid input (400) lists every ' +
        'invalid field in `error.details`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: prefix ? `/${prefix}` : '/' }],
    paths: sortedPaths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      responses: errorResponses,
      securitySchemes: {
        principal: {
          type: 'apiKey',
          in: 'header',
          name: PRINCIPAL_HEADER,
          description:
            'The App Service authentication principal (base64 JSON with `claims`). In Azure the ' +
            'platform sets it after sign-in (/.auth/login/aad or an Entra ID bearer token); ' +
            'locally it is sent by hand (`npm run principal`).',
        },
      },
    },
  };
}
