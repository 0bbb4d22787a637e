/**
 * The app "as deployed": the local host with a Flex Consumption instance's environment behind the
 * imitation of App Service authentication (tools/easyauth/front.ts) configured with
 * infra/app/auth-settings.json. The platform, not the app, decides who the caller is.
 */
import { PRINCIPAL_HEADER } from '../../../src/identity/principal';
import { encodePrincipalHeader } from '../../../tools/easyauth/principalHeader';
import { expectPlatformRefusal, startAzureMode, type AzureMode } from '../../support/azureMode';
import { expectError, expectJson, send } from '../acceptance/client';

const admin = { userId: 'azure-admin', roles: ['DirectoryAdmin'] };
const forgedAdmin = encodePrincipalHeader(admin);

/** A request through the front with optional bearer token, cookie and forged principal header. */
async function call(
  azure: AzureMode,
  path: string,
  options: { token?: string; cookie?: string; principal?: string; method?: string } = {},
) {
  return send(azure.baseUrl, options.method ?? 'GET', path, {
    principal: options.principal ?? null,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  });
}

describe('App Service authentication in front of a Flex Consumption instance', () => {
  let azure: AzureMode;
  beforeAll(async () => {
    azure = await startAzureMode();
  });
  afterAll(async () => {
    await azure?.stop();
  });

  it('answers 401 itself to a forged principal header without a token', async () => {
    expectPlatformRefusal(await call(azure, '/departments', { principal: forgedAdmin }));
  });

  it('lets an admin token through, and the app trusts the platform (health has no complaint)', async () => {
    expectJson(await call(azure, '/departments', { token: await azure.tokenFor(admin) }), 200);
    const health = expectJson(await call(azure, '/health'), 200);
    expect(health.auth).toBeUndefined();
  });

  it('replaces a forged header sent beside a valid token with the token’s principal', async () => {
    const token = await azure.tokenFor({ userId: 'azure-nobody' });
    const reply = await call(azure, '/departments/Sales/employees', {
      token,
      principal: forgedAdmin,
    });
    expectError(reply, 403, 'Forbidden');
  });

  it.each([
    ['signed by a key the issuer does not publish', { key: 'foreign' as const }],
    ['from another issuer', { issuer: 'https://login.microsoftonline.com/evil/v2.0' }],
    ['for another audience', { audience: 'api://someone-else' }],
    ['expired', { expiresInSeconds: -600 }],
    ['not valid yet', { notBeforeInSeconds: 600 }],
  ])('refuses a token %s with 401', async (_what, options) => {
    const token = await azure.tokenFor(admin, options);
    expectPlatformRefusal(await call(azure, '/departments', { token }));
  });

  it('accepts the application id URI as audience (v1.0 tokens)', async () => {
    const token = await azure.tokenFor(admin, { audience: `api://${azure.clientId}` });
    expectJson(await call(azure, '/departments', { token }), 200);
  });

  it('refuses a malformed bearer token with 401 even on a path a cookie could open', async () => {
    const { cookie } = await azure.signIn('Admin');
    expectPlatformRefusal(await call(azure, '/departments', { token: 'not-a-jwt', cookie }));
  });

  it.each([
    ['/health', 200],
    ['/openapi.json', 200],
    ['/console', 308],
    ['/console/config.json', 200],
    ['/console/x', 404],
  ])(
    'lets anonymous callers reach the excluded path /api%s (the app answers %d)',
    async (path, status) => {
      const reply = await fetch(`${azure.baseUrl}${path}`, { redirect: 'manual' });
      expect(reply.headers.get('www-authenticate')).toBeNull();
      expect(reply.status).toBe(status);
    },
  );

  it('judges the path the app routes: /api/console/../departments is not excluded', async () => {
    // fetch would resolve the dots itself; a raw request keeps them.
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${azure.origin}/api/console/%2e%2e/departments`, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
        .once('error', reject);
    });
    expect(status).toBe(401);
  });

  it('signs a browser in: the session cookie authenticates, logout ends it', async () => {
    const { cookie, location } = await azure.signIn('Admin', '/api/departments?x=1');
    expect(location).toBe('/api/departments?x=1');
    expect(cookie).toMatch(/^AppServiceAuthSession=/);
    expectJson(await call(azure, '/departments', { cookie }), 200);
    const logout = await fetch(`${azure.origin}/.auth/logout`, { redirect: 'manual' });
    expect(logout.status).toBe(302);
    expect(logout.headers.getSetCookie().join()).toMatch(/AppServiceAuthSession=;.*Max-Age=0/);
  });

  it('refuses a tampered session cookie', async () => {
    const { cookie } = await azure.signIn('Admin');
    const tampered = `${cookie.slice(0, -4)}${cookie.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expectPlatformRefusal(await call(azure, '/departments', { cookie: tampered }));
  });

  it('sets the session cookie HttpOnly, Secure and SameSite=None', async () => {
    const start = await fetch(`${azure.origin}/.auth/login/aad`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(new URL(start.headers.get('location')!).origin).toBe(azure.issuer.issuer);
    expect(start.headers.getSetCookie()[0]).toMatch(/HttpOnly; Secure; SameSite=None/);
  });

  it.each(['https://evil.example/', '//evil.example/', '/\\evil.example/', 'javascript:alert(1)'])(
    'refuses the post-login redirect %s (no open redirect)',
    async (target) => {
      const reply = await fetch(
        `${azure.origin}/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent(target)}`,
        { redirect: 'manual' },
      );
      expect(reply.status).toBe(400);
    },
  );

  it('answers /.auth/me 404 while the token store is off', async () => {
    const { cookie } = await azure.signIn('Admin');
    const reply = await fetch(`${azure.origin}/.auth/me`, { headers: { cookie } });
    expect(reply.status).toBe(404);
  });

  it('hands the app the principal App Service builds: roles, employee, object id', async () => {
    const token = await azure.tokenFor({
      userId: 'azure-emp',
      employee: { department: 'Sales', employeeId: '000321' },
    });
    // The employee may read its own (absent) record: 404, not 403 — the employee claims arrived.
    const reply = await call(azure, '/departments/Sales/employees/000321', { token });
    expectError(reply, 404);
  });
});

describe('the token store on', () => {
  let azure: AzureMode;
  beforeAll(async () => {
    azure = await startAzureMode({ authSettings: { login: { tokenStore: { enabled: true } } } });
  });
  afterAll(async () => {
    await azure?.stop();
  });

  it('answers /.auth/me with App Service’s entry for the signed-in user, 401 anonymously', async () => {
    const { cookie } = await azure.signIn('Admin');
    const reply = await fetch(`${azure.origin}/.auth/me`, { headers: { cookie } });
    expect(reply.status).toBe(200);
    const [entry] = (await reply.json()) as {
      provider_name: string;
      user_id: string;
      id_token: string;
      user_claims: { typ: string; val: string }[];
    }[];
    expect(entry!.provider_name).toBe('aad');
    expect(entry!.user_id).toBe('ada.admin@test.invalid');
    expect(entry!.id_token.split('.')).toHaveLength(3);
    expect(entry!.user_claims).toContainEqual({ typ: 'roles', val: 'DirectoryAdmin' });
    expect((await fetch(`${azure.origin}/.auth/me`)).status).toBe(401);
  });
});

describe('App Service authentication off on a Flex Consumption instance', () => {
  let azure: AzureMode;
  beforeAll(async () => {
    azure = await startAzureMode({
      authSettings: { platform: { enabled: false } },
      env: { WEBSITE_AUTH_ENABLED: '' },
    });
  });
  afterAll(async () => {
    await azure?.stop();
  });

  it('passes everything through, and the app fails closed: a forged admin gets 401', async () => {
    const reply = await call(azure, '/departments', { principal: forgedAdmin });
    const error = expectError(reply, 401, 'Unauthenticated');
    expect(error.message).toMatch(/App Service authentication is not enabled/);
    const health = expectJson(await call(azure, '/health'), 200);
    expect(health.auth).toBe('missing');
    expect(PRINCIPAL_HEADER).toBe('x-ms-client-principal');
  });
});
