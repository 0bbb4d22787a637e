/**
 * The e2e traffic checks (test/support/apiContract.ts) on a document generated from hand-made
 * registrations: which operation a path goes to, what a response must carry, when a request the
 * document refuses is acceptable, and what happens off the document.
 */
import { z } from 'zod';
import { openApiDocument } from '../../../functions/shared/openapi';
import type { RegisteredRoute } from '../../../functions/shared/route';
import { ETAG_HEADER } from '../../../functions/shared/output';
import { anonymous, departmentEditor } from '../../../src/identity/access';
import {
  ApiContract,
  ApiContractError,
  type Exchange,
  type OpenApiDocument,
} from '../../support/apiContract';

const thing = z.strictObject({ id: z.string(), size: z.number().int() });
const routes: RegisteredRoute[] = [
  {
    name: 'putThing',
    route: 'things/{id}',
    methods: ['PUT'],
    access: departmentEditor,
    schemas: {
      params: z.object({ id: z.string().regex(/^\d+$/) }),
      body: z.strictObject({ size: z.number().int() }),
      rawBodies: ['image/*'],
      responses: { 200: { description: 'Stored.', body: thing, headers: ETAG_HEADER } },
    },
  },
  {
    name: 'specialThing',
    route: 'things/special',
    methods: ['PUT'],
    access: departmentEditor,
    schemas: { responses: { 204: { description: 'Done.' } } },
  },
  {
    name: 'listThings',
    route: 'things',
    methods: ['GET'],
    access: anonymous,
    schemas: {
      query: z.object({ size: z.string().regex(/^\d+$/) }),
      responses: { 200: { description: 'Them.', body: z.strictObject({ items: z.array(thing) }) } },
    },
  },
  {
    name: 'files',
    route: 'files/{*path}',
    methods: ['GET'],
    access: anonymous,
    schemas: {
      responses: {
        200: { description: 'A file.', rawBodies: ['text/html'] },
        302: { description: 'Elsewhere.', headers: { location: { description: 'There.' } } },
      },
    },
  },
];
const contract = new ApiContract(openApiDocument(routes) as unknown as OpenApiDocument);

const ok = JSON.stringify({ id: '7', size: 3 });
function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    method: 'PUT',
    path: '/things/7',
    query: new URLSearchParams(),
    contentType: 'application/json',
    body: '{"size": 3}',
    status: 200,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', etag: 'W/"1"' }),
    text: ok,
    redirected: false,
    ...overrides,
  };
}
const errorReply = {
  headers: new Headers({ 'content-type': 'application/json' }),
  text: JSON.stringify({ error: { code: 'InvalidInput', message: 'No.', target: 'body.size' } }),
};

describe('finding the operation', () => {
  it('prefers literal segments over parameters, and lets a catch-all span or skip segments', () => {
    expect(contract.operationFor('PUT', '/things/special')!.operation.operationId).toBe(
      'specialThing',
    );
    expect(contract.operationFor('PUT', '/things/8')!.operation.operationId).toBe('putThing');
    for (const path of ['/files', '/files/', '/files/a/b.html']) {
      expect(contract.operationFor('GET', path)?.operation.operationId).toBe('files');
    }
    expect(contract.operationFor('DELETE', '/things/8')).toBeUndefined();
  });
});

describe('responses', () => {
  it('passes what the document describes', () => {
    expect(() => contract.check(exchange())).not.toThrow();
  });

  it('fails an undocumented status, a missing header, a body off its schema or an unexpected body', () => {
    expect(() => contract.check(exchange({ status: 201 }))).toThrow(
      'OpenAPI contract: PUT /things/{id} (putThing) answered 201: status 201 is not documented',
    );
    expect(() => contract.check(exchange({ status: 500, ...errorReply }))).toThrow(
      ApiContractError,
    );
    expect(() =>
      contract.check(exchange({ headers: new Headers({ 'content-type': 'application/json' }) })),
    ).toThrow('header etag is missing');
    expect(() => contract.check(exchange({ text: JSON.stringify({ id: '7' }) }))).toThrow(
      "response body: must have required property 'size'",
    );
    expect(() =>
      contract.check(exchange({ text: JSON.stringify({ id: '7', size: 3, x: 1 }) })),
    ).toThrow('must NOT have additional properties');
    expect(() =>
      contract.check(
        exchange({ path: '/things/special', body: undefined, status: 204, text: 'surprise' }),
      ),
    ).toThrow('the document describes no body, but one came');
    expect(() =>
      contract.check(
        exchange({
          method: 'GET',
          path: '/files/x',
          body: undefined,
          headers: new Headers({ 'content-type': 'text/css' }),
          text: 'a{}',
        }),
      ),
    ).toThrow('content-type "text/css" is not one of text/html');
  });

  it('accepts a followed redirect only where the operation documents one', () => {
    const followed = { method: 'GET', body: undefined, redirected: true, text: '' };
    expect(() => contract.check(exchange({ ...followed, path: '/files/x' }))).not.toThrow();
    expect(() =>
      contract.check(
        exchange({ ...followed, path: '/things', query: new URLSearchParams('size=1') }),
      ),
    ).toThrow('fetch followed a redirect the operation does not document');
  });
});

describe('requests the document refuses', () => {
  const refused = exchange({ body: '{"size": "big"}' });

  it('are fine when the API refuses them with an error status the operation documents', () => {
    expect(() => contract.check({ ...refused, status: 400, ...errorReply })).not.toThrow();
  });

  it('fail when the API accepts them, naming what the document refuses', () => {
    expect(() => contract.check(refused)).toThrow(
      'the request does not match the document, yet it was accepted: request body: /size must be integer',
    );
    expect(() => contract.check(exchange({ path: '/things/x7' }))).toThrow(
      'path parameter id: must match pattern',
    );
    expect(() =>
      contract.check(
        exchange({ method: 'GET', path: '/things', body: undefined, text: '{"items":[]}' }),
      ),
    ).toThrow('query parameter size is missing');
    expect(() => contract.check(exchange({ body: '{' }))).toThrow('the body is not JSON');
  });

  it('fail when the API refuses them with a status the operation does not document', () => {
    expect(() => contract.check({ ...refused, status: 418, ...errorReply })).toThrow(
      'status 418 is not documented',
    );
  });

  it('read any label but a listed raw type as JSON, as the adapters do; no body counts as {}', () => {
    expect(() =>
      contract.check(exchange({ contentType: 'text/plain;charset=UTF-8' })),
    ).not.toThrow();
    expect(() =>
      contract.check(exchange({ contentType: 'image/png', body: '\u0089PNG' })),
    ).not.toThrow();
    expect(() => contract.check(exchange({ body: undefined }))).toThrow(
      "request body: must have required property 'size'",
    );
  });
});

describe('off the document', () => {
  const unknown = exchange({ method: 'DELETE', path: '/nothing/7', status: 404, ...errorReply });
  const wrongMethod = exchange({
    method: 'DELETE',
    status: 405,
    headers: new Headers({ 'content-type': 'application/json', allow: 'PUT' }),
    text: errorReply.text,
  });

  it('fails unless the test means it, and then wants a 4xx JSON error', () => {
    expect(() => contract.check(unknown)).toThrow(
      'OpenAPI contract: DELETE /nothing/7 answered 404: no such operation in the document.',
    );
    expect(() => contract.check(unknown, true)).not.toThrow();
    expect(() => contract.check({ ...unknown, status: 200 }, true)).toThrow('must get a 4xx');
    expect(() => contract.check({ ...unknown, text: '{"message":"no"}' }, true)).toThrow(
      "error body: must have required property 'error'",
    );
    expect(() => contract.check({ ...unknown, status: 405 }, true)).toThrow(
      '405 for a path the document does not have',
    );
  });

  it('wants 405 naming exactly the documented methods for a documented path', () => {
    expect(() => contract.check(wrongMethod, true)).not.toThrow();
    expect(() => contract.check({ ...wrongMethod, status: 404 }, true)).toThrow(
      'the path takes PUT: expected 405',
    );
    // A caller without identity is refused before anything else.
    expect(() => contract.check({ ...wrongMethod, status: 401 }, true)).not.toThrow();
    const allowing = (allow: string): Exchange => ({
      ...wrongMethod,
      headers: new Headers({ 'content-type': 'application/json', allow }),
    });
    expect(() => contract.check(allowing('PUT, GET'), true)).toThrow(
      'Allow is "PUT, GET", the document has PUT.',
    );
    // `things/special` and `things/{id}` both have the shape of /things/special.
    expect(contract.methodsAt('/things/special')).toEqual(['PUT']);
    expect(contract.methodsAt('/things')).toEqual(['GET']);
  });
});
