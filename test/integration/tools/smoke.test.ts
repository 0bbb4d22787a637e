/**
 * The smoke check's verdicts against a stand-in for a deployed app behind App Service
 * authentication: a small HTTP server that answers 401 (no body, as the platform does) to every
 * path outside its excluded list unless the request carries the one token it accepts. Each
 * scenario changes one thing a real deployment can get wrong — an excluded path missing, a token
 * refused, an invalid API description, an app still starting or never answering — and the check
 * must say so on its own line. (Against the app itself: test/e2e/smoke/smoke.test.ts.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runSmokeChecks, type SmokeReport } from '../../../tools/smoke/checks';

const TOKEN = 'good-token';

interface Front {
  /** Paths let through without a token (exact, or a prefix when they end with `/*`). */
  excluded: string[];
  /** Answers to `/api/health` in turn (the last one repeats); `null`: never answer. */
  health: ({ status: number; body: unknown } | null)[];
  openapi: unknown;
  /** Whether the host's own endpoints answer a signed-in caller (Azure wants the master key). */
  hostEndpointsOpen?: boolean;
}

const VALID_OPENAPI = {
  openapi: '3.1.0',
  info: { title: 'stand-in', version: '1' },
  paths: { '/health': { get: { responses: { '200': { description: 'ok' } } } } },
};

const healthy = { status: 200, body: { status: 'ok', storage: 'ok', services: {} } };

const defaults = (): Front => ({
  excluded: ['/api/health', '/api/openapi.json', '/api/console', '/api/console/*'],
  health: [healthy],
  openapi: VALID_OPENAPI,
});

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Starts the stand-in; resolves with its origin. */
async function startFront(front: Front): Promise<string> {
  let healthCalls = 0;
  const isExcluded = (path: string): boolean =>
    front.excluded.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) : path === p));
  server = http.createServer((request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    const send = (status: number, type: string, body: string): void => {
      response.writeHead(status, { 'content-type': type }).end(body);
    };
    if (!isExcluded(path) && request.headers.authorization !== `Bearer ${TOKEN}`) {
      response.writeHead(401, { 'www-authenticate': 'Bearer realm="stand-in"' }).end();
      return;
    }
    if (path.startsWith('/runtime/') || path.startsWith('/admin/')) {
      // Past authentication, the Functions host itself wants the system or master key here.
      if (front.hostEndpointsOpen) send(200, 'application/json', '{}');
      else response.writeHead(401).end();
    } else if (path === '/api/health') {
      const answer = front.health[Math.min(healthCalls++, front.health.length - 1)];
      if (answer === null) return; // never answers
      send(answer!.status, 'application/json', JSON.stringify(answer!.body));
    } else if (path === '/api/openapi.json') {
      send(200, 'application/json', JSON.stringify(front.openapi));
    } else if (path === '/api/console/') {
      send(200, 'text/html', '<link rel="stylesheet" href="styles.css"><script src="app.js">');
    } else if (path === '/api/console/app.js' || path === '/api/console/styles.css') {
      send(200, 'text/plain', '/* file */');
    } else if (path === '/api/me') {
      send(200, 'application/json', JSON.stringify({ name: 'Alice', roles: ['DirectoryAdmin'] }));
    } else {
      send(404, 'application/json', '{"error":{"code":"NotFound","message":"no"}}');
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const line = (report: SmokeReport, check: string): string => {
  const r = report.results.find((x) => x.check === check)!;
  return `${r.status} ${r.detail}`;
};

describe('the smoke check against an app behind a token-validating front', () => {
  it('passes with a token, naming the roles GET /api/me reports', async () => {
    const origin = await startFront(defaults());
    const report = await runSmokeChecks({ baseUrl: origin, token: TOKEN, functionKey: 'k' });
    expect(report.apiBase).toBe(`${origin}/api`);
    expect(report.results.map((r) => `${r.check} ${r.status}`)).toEqual([
      'health ok',
      'no-token ok',
      'forged-principal ok',
      'me ok',
      'host-endpoints ok',
      'openapi ok',
      'console ok',
    ]);
    expect(report.passed).toBe(true);
    expect(line(report, 'me')).toBe('ok GET /api/me 200 as Alice; roles: DirectoryAdmin');
    expect(line(report, 'no-token')).toContain('401 from App Service authentication');
  });

  it("fails when a signed-in caller reaches the host's own endpoints without the master key", async () => {
    const origin = await startFront({ ...defaults(), hostEndpointsOpen: true });
    const report = await runSmokeChecks({ baseUrl: origin, token: TOKEN });
    expect(report.passed).toBe(false);
    expect(line(report, 'host-endpoints')).toMatch(
      /^FAIL a signed-in caller .*\/runtime\/webhooks\/durabletask\/instances\/ 200, \/admin\/host\/status 200/,
    );
  });

  it('passes without a token, skipping GET /api/me, and says a keyless 401 may be the host', async () => {
    const origin = await startFront(defaults());
    const report = await runSmokeChecks({ baseUrl: `${origin}/` });
    expect(report.passed).toBe(true);
    expect(line(report, 'me')).toMatch(/^skip no token given/);
    expect(line(report, 'forged-principal')).toMatch(/no function key was sent/);
  });

  it('fails when the console files are not excluded from authentication, naming them', async () => {
    const origin = await startFront({
      ...defaults(),
      excluded: ['/api/health', '/api/openapi.json', '/api/console/'],
    });
    const report = await runSmokeChecks({ baseUrl: origin, token: TOKEN });
    expect(report.passed).toBe(false);
    expect(line(report, 'console')).toBe(
      "FAIL the console's files do not load before sign-in: /api/console/app.js 401, " +
        '/api/console/styles.css 401 (/api/console/* must be in excludedPaths)',
    );
  });

  it('fails when the token is refused, and says what to check', async () => {
    const origin = await startFront(defaults());
    const report = await runSmokeChecks({ baseUrl: origin, token: 'expired' });
    expect(line(report, 'me')).toMatch(
      /^FAIL GET \/api\/me with the token answered 401: the token was refused/,
    );
    expect(report.passed).toBe(false);
  });

  it('fails on an API description that is not valid OpenAPI', async () => {
    const origin = await startFront({ ...defaults(), openapi: { openapi: '3.1.0', paths: 7 } });
    const report = await runSmokeChecks({ baseUrl: origin });
    expect(line(report, 'openapi')).toMatch(
      /^FAIL GET \/api\/openapi\.json is not a valid OpenAPI document: /,
    );
  });

  it('waits for an app that is still starting (5xx), when asked to', async () => {
    const starting = { status: 503, body: { status: 'degraded', storage: 'unreachable' } };
    const origin = await startFront({ ...defaults(), health: [starting, healthy] });
    const once = await runSmokeChecks({ baseUrl: origin });
    expect(line(once, 'health')).toMatch(
      /^FAIL GET \/api\/health answered 503; storage is "unreachable"/,
    );
    const patient = await runSmokeChecks({ baseUrl: origin, waitMs: 10_000 });
    expect(line(patient, 'health')).toMatch(/^ok /);
  });

  it('gives up on a request after its timeout, with a reason', async () => {
    const origin = await startFront({ ...defaults(), health: [null] });
    const report = await runSmokeChecks({ baseUrl: origin, timeoutMs: 300 });
    // The front never answers: only the check's own timeout ends it.
    expect(line(report, 'health')).toBe(
      `FAIL no answer from GET ${origin}/api/health within 300 ms`,
    );
  });
});
