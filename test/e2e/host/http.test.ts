/**
 * The local host serves HTTP functions as the Functions host does: ASP.NET route templates with
 * constraints, tried in the order of the functions' names, methods (a mismatch is a 404), query strings, headers, raw bodies,
 * and responses converted back with status, headers and cookies.
 */
import { startHostApp, type HostApp } from './hostApp';

let app: HostApp;
let api: string;

beforeAll(async () => {
  app = await startHostApp();
  api = app.host.baseUrl;
});

afterAll(async () => {
  await app?.host.stop();
});

async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('routes', () => {
  test('routes are tried in function-name order, so a literal loses to a parameter whose function sorts first', async () => {
    // itemById < itemByName < newItem: `items/new` never reaches newItem, as in Azure.
    expect(await getJson(`${api}/items/new`)).toEqual({
      status: 200,
      body: { route: 'itemByName', name: 'new' },
    });
    expect(await getJson(`${api}/items/42`)).toEqual({
      status: 200,
      body: { route: 'itemById', id: '42' },
    });
    expect(await getJson(`${api}/items/forty-two`)).toEqual({
      status: 200,
      body: { route: 'itemByName', name: 'forty-two' },
    });
  });

  test('literals and the route prefix match regardless of case', async () => {
    const origin = app.host.origin;
    expect(await getJson(`${origin}/API/ITEMS/42`)).toEqual({
      status: 200,
      body: { route: 'itemById', id: '42' },
    });
  });

  test('optional parameters may be absent; present ones are URL-decoded (an encoded slash stays encoded)', async () => {
    const one = await getJson(`${api}/echo/first`);
    expect(one.status).toBe(200);
    expect((one.body as { params: unknown }).params).toEqual({ a: 'first' });

    const two = await getJson(`${api}/echo/Sales%20East/a%2Fb`);
    expect((two.body as { params: unknown }).params).toEqual({ a: 'Sales East', b: 'a%2Fb' });
  });

  test('a catch-all parameter takes the rest of the path', async () => {
    expect(await getJson(`${api}/files/a/b/c.txt`)).toEqual({
      status: 200,
      body: { path: 'a/b/c.txt' },
    });
  });

  test('a function without a route is served at its name, for any method when none are listed', async () => {
    expect(await getJson(`${api}/defaultRoute`, { method: 'PATCH' })).toEqual({
      status: 200,
      body: { method: 'PATCH' },
    });
  });

  test('an unknown route is a bare 404, as Azure answers', async () => {
    const response = await fetch(`${api}/no/such/route`);
    expect([response.status, await response.text()]).toEqual([404, '']);
    const outside = await fetch(`${app.host.origin}/elsewhere`);
    expect([outside.status, await outside.text()]).toEqual([404, '']);
  });

  test('a method the route does not accept is a bare 404, as in Azure', async () => {
    const response = await fetch(`${api}/echo/x`, { method: 'DELETE' });
    expect([response.status, await response.text()]).toEqual([404, '']);
    expect((await fetch(`${api}/items/1`, { method: 'PUT' })).status).toBe(404);
    expect((await fetch(`${api}/items/1`, { method: 'HEAD' })).status).toBe(404);
  });

  test('a constraint that fails means no match', async () => {
    // 2^31 is no int, so the name route takes it; an int constraint on "files" cannot interfere.
    expect(await getJson(`${api}/items/2147483648`)).toEqual({
      status: 200,
      body: { route: 'itemByName', name: '2147483648' },
    });
  });
});

describe('requests', () => {
  test('query values arrive decoded, repeated keys joined with commas, empty values kept', async () => {
    const { body } = await getJson(`${api}/echo/q?name=J%C3%B6rg+Smith&tag=a&tag=b&empty=`);
    expect((body as { query: unknown }).query).toEqual({
      name: 'Jörg Smith',
      tag: 'a,b',
      empty: '',
    });
  });

  test('headers pass through, including x-ms-client-principal, which the library decodes', async () => {
    const principal = Buffer.from(
      JSON.stringify({
        identityProvider: 'aad',
        userId: 'u-123',
        userDetails: 'jo@contoso.com',
        userRoles: ['reader'],
      }),
    ).toString('base64');
    const { body } = await getJson(`${api}/echo/h`, {
      headers: { 'x-test': 'kept', 'x-ms-client-principal': principal },
    });
    expect(body).toMatchObject({
      testHeader: 'kept',
      principalHeader: principal,
      user: {
        type: 'StaticWebApps',
        id: 'u-123',
        username: 'jo@contoso.com',
        identityProvider: 'aad',
      },
    });
  });

  test('the request body arrives as the exact bytes sent', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const { status, body } = await getJson(`${api}/echo/bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      method: 'POST',
      contentType: 'application/octet-stream',
      bodyBase64: bytes.toString('base64'),
    });
  });

  test('the request URL is absolute, with path and query as sent', async () => {
    const { body } = await getJson(`${api}/echo/u?x=1`);
    expect((body as { url: string }).url).toBe(`${api}/echo/u?x=1`);
  });
});

describe('responses', () => {
  test('status, headers, body and cookies come back as the function set them', async () => {
    const response = await fetch(`${api}/cookies`);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-custom')).toBe('yes');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.getSetCookie()).toEqual([
      'session=a%20b%3Bc; max-age=60; path=/; samesite=lax; httponly',
      'theme=dark; secure',
    ]);
    expect(await response.text()).toBe('made');
  });

  test('a function that returns nothing answers 200 with an empty body', async () => {
    const response = await fetch(`${api}/nothing`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  test('a function that throws answers 500 without leaking the error, and logs it', async () => {
    const response = await fetch(`${api}/throws`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('');
    await app.host.waitForOutput(/Executed 'Functions\.throws' \(Failed[\s\S]*deliberate failure/);
  });
});

describe('admin API', () => {
  test('host status says Running', async () => {
    const { status, body } = await getJson(`${app.host.origin}/admin/host/status`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: 'Running' });
  });

  test('lists the registered functions with their bindings', async () => {
    const { body } = await getJson(`${app.host.origin}/admin/functions`);
    const names = (body as Array<{ name: string }>).map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining(['itemById', 'echo', 'alwaysFail', 'fixtureTimer']),
    );
  });

  test('refuses to run HTTP functions and unknown names', async () => {
    const http = await getJson(`${app.host.origin}/admin/functions/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(http).toEqual({
      status: 400,
      body: { error: { code: 'HttpFunction', message: expect.any(String) } },
    });
    const unknown = await getJson(`${app.host.origin}/admin/functions/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown).toEqual({
      status: 404,
      body: { error: { code: 'NotFound', message: expect.any(String) } },
    });
  });
});
