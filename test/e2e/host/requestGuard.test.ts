/**
 * Only the developer drives the local host: a page that rebinds its own name to 127.0.0.1 gets 421
 * (its Host is foreign), a page's cross-site write gets 403 on the admin API and the Durable
 * webhooks (function routes are the app's to guard, as in Azure), the admin API and the webhooks take JSON bodies only, and a host on a
 * non-loopback address does not believe hand-sent principals unless told to (with a warning).
 *
 * Requests go out through node:http, because `fetch` writes the Host header from the URL itself.
 */
import http from 'node:http';
import os from 'node:os';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { startHost, type RunningHost } from '../../support/host';

interface RawReply {
  status: number;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
}

/** Sends one request to the host over 127.0.0.1 with exactly these headers (Host included). */
function send(
  host: RunningHost,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        method,
        path,
        // Node frames a DELETE's body only when told its length.
        headers: {
          host: `127.0.0.1:${host.port}`,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];
const WEBHOOK = '/runtime/webhooks/durabletask';

describe('a host on loopback', () => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers a rebinding page (a foreign Host) 421 on every path, and logs it', async () => {
    for (const path of ['/api/health', '/admin/host/status', `${WEBHOOK}/instances/`]) {
      for (const name of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io']) {
        const reply = await send(host, 'GET', path, { host: `${name}:${host.port}` });
        expect(reply.status).toBe(421);
        expect(reply.body.error).toEqual({
          code: 'MisdirectedRequest',
          message: expect.stringContaining(`${name}:${host.port}`),
        });
      }
    }
    const post = await send(
      host,
      'POST',
      '/admin/functions/dropExpiredLoginTables',
      { host: 'evil.example:7071', ...json },
      '{}',
    );
    expect(post.status).toBe(421);
    await host.waitForOutput(/Refused GET \/api\/health \(421\)/);
  });

  it('answers loopback names with any port', async () => {
    for (const name of [
      `localhost:${host.port}`,
      'LOCALHOST',
      '127.0.0.1',
      '127.0.0.2:1',
      '[::1]:80',
    ]) {
      const reply = await send(host, 'GET', '/api/health', { host: name });
      expect({ name, status: reply.status }).toEqual({ name, status: 200 });
    }
  });

  // Function routes are the app's to guard, as in Azure (test/e2e/security/crossSite.test.ts).
  it('refuses a foreign Origin on every unsafe method to the admin API and Durable webhooks', async () => {
    const paths = ['/admin/functions/x', `${WEBHOOK}/instances/x`];
    for (const method of UNSAFE) {
      for (const path of paths) {
        for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
          const reply = await send(
            host,
            method,
            path,
            { origin, ...json, [PRINCIPAL_HEADER]: adminPrincipal },
            '{}',
          );
          expect({
            method,
            path,
            origin,
            status: reply.status,
            code: reply.body.error?.code,
          }).toEqual({ method, path, origin, status: 403, code: 'CrossSiteRequest' });
        }
        const marked = await send(host, method, path, { 'sec-fetch-site': 'cross-site' });
        expect({ method, path, status: marked.status }).toEqual({ method, path, status: 403 });
      }
    }
  });

  it("lets the host's own origin and clients without Origin through", async () => {
    const own = { origin: `http://127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin' };
    for (const headers of [own, {}]) {
      const api = await send(
        host,
        'PUT',
        '/api/departments/Guarded',
        { ...headers, ...json, [PRINCIPAL_HEADER]: adminPrincipal },
        '{"description":5}',
      );
      // Past the host's guard, the app itself validates the body.
      expect(api.status).toBe(400);
      expect(api.body.error?.code).toBe('InvalidInput');
      const admin = await send(
        host,
        'POST',
        '/admin/functions/nope',
        { ...headers, ...json },
        '{}',
      );
      expect(admin.body.error?.code).toBe('NotFound');
      const durable = await send(
        host,
        'POST',
        `${WEBHOOK}/orchestrators/NoSuchOrchestrator`,
        { ...headers, ...json },
        '{}',
      );
      expect(durable.body.error?.code).toBe('UnknownOrchestrator');
    }
    // A read is not a write: a foreign Origin on GET is answered (the browser keeps the answer
    // from the page unless CORS allows it, which the host never does).
    const read = await send(host, 'GET', '/admin/host/status', { origin: 'http://evil.example' });
    expect(read.status).toBe(200);
    expect(read.body.state).toBe('Running');
  });

  it('takes only JSON bodies on the admin API and the Durable webhooks', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const admin = await send(
        host,
        'POST',
        '/admin/functions/dropExpiredLoginTables',
        headers,
        '{}',
      );
      expect(admin.status).toBe(415);
      expect(admin.body.error?.code).toBe('UnsupportedMediaType');
      const durable = await send(host, 'POST', `${WEBHOOK}/orchestrators/x`, headers, '{}');
      expect(durable.status).toBe(415);
      expect(durable.body.error?.code).toBe('UnsupportedMediaType');
    }
    // No body, no type needed.
    expect((await send(host, 'POST', '/admin/functions/nope', {})).body.error?.code).toBe(
      'NotFound',
    );
  });
});

describe('a host listening on every interface', () => {
  let host: RunningHost;
  beforeAll(async () => {
    // The test environment sets TRUST_LOCAL_PRINCIPAL_HEADER=true, as local.settings.json does.
    host = await startHost({ args: ['--listen', '0.0.0.0', '--allowed-host', 'dev.example'] });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('does not believe a hand-sent principal, and says so', async () => {
    expect(host.output()).toMatch(
      /Listening on 0\.0\.0\.0: hand-sent principal headers are not believed \(TRUST_LOCAL_PRINCIPAL_HEADER=true .* is overridden\)/,
    );
    const reply = await send(host, 'GET', '/api/departments', {
      [PRINCIPAL_HEADER]: adminPrincipal,
    });
    expect(reply.status).toBe(401);
    expect(reply.body.error?.code).toBe('Unauthenticated');
  });

  it("answers the machine's own name and --allowed-host names, not others", async () => {
    for (const name of [os.hostname(), 'dev.example']) {
      const reply = await send(host, 'GET', '/api/health', { host: `${name}:${host.port}` });
      expect({ name, status: reply.status }).toEqual({ name, status: 200 });
    }
    expect((await send(host, 'GET', '/api/health', { host: 'evil.example' })).status).toBe(421);
  });

  it('takes writes to the admin API and Durable webhooks from no page but a loopback one', async () => {
    const fromName = {
      host: `dev.example:${host.port}`,
      origin: `http://dev.example:${host.port}`,
    };
    // The page's own origin passes the host's check on the API...
    const api = await send(host, 'PUT', '/api/departments/Guarded', { ...fromName, ...json }, '{}');
    expect(api.status).toBe(401);
    // ...but the admin API and the webhooks want a loopback Origin or none, even with the key.
    const key = { 'x-functions-key': host.key! };
    for (const path of ['/admin/functions/nope', `${WEBHOOK}/orchestrators/x`]) {
      const reply = await send(host, 'POST', path, { ...fromName, ...json, ...key }, '{}');
      expect({ path, status: reply.status, code: reply.body.error?.code }).toEqual({
        path,
        status: 403,
        code: 'CrossSiteRequest',
      });
    }
  });
});

describe('a host on every interface told to trust principal headers', () => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost({ args: ['--listen', '0.0.0.0', '--trust-principal-headers'] });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('believes them, after a loud warning', async () => {
    expect(host.output()).toMatch(
      /WARNING: --trust-principal-headers while listening on 0\.0\.0\.0: .*act as any user/,
    );
    const reply = await send(host, 'GET', '/api/departments', {
      [PRINCIPAL_HEADER]: adminPrincipal,
    });
    expect(reply.status).toBe(200);
  });
});
