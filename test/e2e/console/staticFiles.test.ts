/**
 * The console's static route through the local host (no browser needed): the page and its bundle
 * with their content types and a Content Security Policy that admits the storage endpoints the SAS
 * URLs point at; its icon; `/api/console` redirected to `/api/console/`; `config.json` saying how
 * to sign in here; and nothing but the built files reachable, whatever the path tries.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';

let host: RunningHost;

beforeAll(async () => {
  const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

const get = (p: string): Promise<Response> =>
  fetch(`${host.baseUrl}/console${p}`, { redirect: 'manual' });

function origin(name: 'BlobEndpoint' | 'TableEndpoint'): string {
  return new URL(new RegExp(`${name}=([^;]+)`).exec(process.env.AzureWebJobsStorage!)![1]!).origin;
}

describe('GET /api/console/{*path}', () => {
  it('serves the page with a CSP that lets it reach this API and the storage endpoints only', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<script defer src="app.js"></script>');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const connect = /connect-src ([^;]+)/.exec(csp)![1]!.split(' ');
    expect(connect).toEqual(
      expect.arrayContaining(["'self'", origin('BlobEndpoint'), origin('TableEndpoint')]),
    );
    expect(connect).not.toContain('*');
  });

  it('serves the bundle and the stylesheet with their types', async () => {
    const script = await get('/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const styles = await get('/styles.css');
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await styles.text()).toContain('.uplot'); // uPlot's stylesheet is bundled in
  });

  it('serves the icon the page names, so the browser asks for no /favicon.ico', async () => {
    expect(await (await get('/')).text()).toContain(
      '<link rel="icon" href="favicon.svg" type="image/svg+xml" />',
    );
    const icon = await get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it('redirects /api/console to /api/console/ so relative URLs resolve', async () => {
    const reply = await fetch(`${host.baseUrl}/console`, { redirect: 'manual' });
    expect(reply.status).toBe(308);
    expect(reply.headers.get('location')).toBe('/api/console/');
  });

  it('tells the page to offer the developer sign-in where hand-sent principals are believed', async () => {
    const reply = await get('/config.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(await reply.json()).toEqual({ signIn: 'developer' });
  });

  it.each([
    ['/..%2F..%2Fpackage.json', 'json'],
    ['/..%5C..%5Cpackage.json', 'json'],
    ['/app.js%00.html', 'json'],
    ['/missing.js', 'json'],
    // `..` (also as `%2e%2e`) is resolved by the URL itself: outside /api, the host's own 404,
    // bare as Azure's.
    ['/%2e%2e/%2e%2e/package.json', 'bare'],
    ['/../../host.json', 'bare'],
  ])('answers 404 for %s (%s), never another file', async (p, shape) => {
    const reply = await get(p);
    const text = await reply.text();
    expect(reply.status).toBe(404);
    if (shape === 'json') {
      expect(JSON.parse(text)).toMatchObject({ error: { code: expect.any(String) } });
    } else {
      expect(text).toBe('');
    }
    expect(text).not.toContain('"dependencies"');
    expect(text).not.toContain('extensionBundle');
  });
});

describe('the sign-in the page is told to offer', () => {
  it.each([
    [
      'an Azure instance with App Service authentication',
      { WEBSITE_INSTANCE_ID: 'e2e', WEBSITE_AUTH_ENABLED: 'True' },
    ],
    ['an Azure instance without it', { WEBSITE_INSTANCE_ID: 'e2e', WEBSITE_AUTH_ENABLED: '' }],
    [
      'a local host that does not believe hand-sent principals',
      { TRUST_LOCAL_PRINCIPAL_HEADER: '' },
    ],
  ])('is App Service authentication, never the developer sign-in, on %s', async (_where, env) => {
    const other = await startHost({ env });
    try {
      const reply = await fetch(`${other.baseUrl}/console/config.json`);
      expect(await reply.json()).toEqual({ signIn: 'appService' });
    } finally {
      await other.stop();
    }
  });
});
