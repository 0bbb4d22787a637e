/**
 * The front's proxying and header handling, against an upstream that echoes what it received
 * (the e2e tests run it in front of the real app): what is stripped, what is added, that `Host`
 * is kept and bodies stream both ways, and the other unauthenticated actions.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRINCIPAL_HEADER, parsePrincipalHeader } from '../../../../src/identity/principal';
import { startEasyAuth, type EasyAuth } from '../../../../tools/easyauth/easyAuth';
import {
  readAuthSettings,
  withOverride,
  type AuthSettingsOverride,
} from '../../../../tools/easyauth/settings';
import { PROJECT_ROOT } from '../../../support/host';

interface Echo {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

let upstream: http.Server;
let upstreamOrigin: string;

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    let bodyBytes = 0;
    request.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    request.on('end', () => {
      if (request.url?.startsWith('/big')) {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.alloc(3 * 1024 * 1024, 7));
        return;
      }
      const echo: Echo = {
        method: request.method!,
        url: request.url!,
        headers: request.headers,
        bodyBytes,
      };
      response.writeHead(207, {
        'content-type': 'application/json',
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        'x-app': 'yes',
      });
      response.end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

async function withFront(
  override: AuthSettingsOverride,
  test: (easyAuth: EasyAuth) => Promise<void>,
): Promise<void> {
  const settings = withOverride(readAuthSettings(PROJECT_ROOT), override);
  const easyAuth = await startEasyAuth({ settings, upstream: upstreamOrigin });
  try {
    await test(easyAuth);
  } finally {
    await easyAuth.close();
  }
}

const FORGED = {
  [PRINCIPAL_HEADER]: 'Zm9yZ2Vk',
  [`${PRINCIPAL_HEADER}-id`]: 'forged-id',
  [`${PRINCIPAL_HEADER}-name`]: 'forged-name',
  'x-ms-token-aad-access-token': 'forged-token',
};

describe('the front as a proxy', () => {
  it('strips client identity headers, adds the platform’s, keeps Host and the rest', () =>
    withFront({}, async ({ front, issuer }) => {
      const token = await issuer.mintAccessToken({ oid: 'o-1', name: 'Ada', roles: ['R1', 'R2'] });
      const response = await fetch(`${front.origin}/api/x/../things?q=1`, {
        method: 'POST',
        headers: {
          ...FORGED,
          authorization: `Bearer ${token}`,

          'x-other': 'kept',
        },
        body: Buffer.alloc(2 * 1024 * 1024, 1),
      });
      expect(response.status).toBe(207);
      expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(response.headers.get('x-app')).toBe('yes');
      const echo = (await response.json()) as Echo;
      expect(echo).toMatchObject({
        method: 'POST',
        url: '/api/things?q=1',
        bodyBytes: 2 * 1024 * 1024,
      });
      // The client's Host (the front's address), not the upstream's.
      expect(echo.headers.host).toBe(new URL(front.origin).host);
      expect(echo.headers['x-other']).toBe('kept');
      expect(echo.headers.authorization).toBe(`Bearer ${token}`);
      expect(echo.headers['x-ms-token-aad-access-token']).toBeUndefined();
      expect(echo.headers[`${PRINCIPAL_HEADER}-id`]).toBe('o-1');
      expect(echo.headers[`${PRINCIPAL_HEADER}-name`]).toBe('Ada');
      expect(echo.headers[`${PRINCIPAL_HEADER}-idp`]).toBe('aad');
      const principal = parsePrincipalHeader(echo.headers[PRINCIPAL_HEADER] as string);
      expect(principal.userId).toBe('o-1');
      expect([...principal.roles]).toEqual(['R1', 'R2']);
    }));

  it('streams a large answer back', () =>
    withFront({ globalValidation: { excludedPaths: ['/big'] } }, async ({ front }) => {
      const response = await fetch(`${front.origin}/big`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(3 * 1024 * 1024);
    }));

  it('passes excluded paths through with no identity headers at all', () =>
    withFront({}, async ({ front }) => {
      const echo = (await (
        await fetch(`${front.origin}/api/health`, { headers: FORGED })
      ).json()) as Echo;
      for (const name of Object.keys(FORGED)) expect(echo.headers[name]).toBeUndefined();
    }));

  it('with authentication off, forwards everything untouched (nothing stripped)', () =>
    withFront({ platform: { enabled: false } }, async ({ front }) => {
      const echo = (await (
        await fetch(`${front.origin}/api/departments`, { headers: FORGED })
      ).json()) as Echo;
      expect(echo.headers[PRINCIPAL_HEADER]).toBe('Zm9yZ2Vk');
      expect(echo.headers[`${PRINCIPAL_HEADER}-id`]).toBe('forged-id');
    }));

  it('answers 502 when the app is not there', () =>
    withFront({}, async ({ front }) => {
      front.setUpstream('http://127.0.0.1:1');
      const response = await fetch(`${front.origin}/api/health`);
      expect(response.status).toBe(502);
    }));
});

describe('other unauthenticated actions', () => {
  it('Return403 answers 403', () =>
    withFront(
      { globalValidation: { unauthenticatedClientAction: 'Return403' } },
      async ({ front }) => {
        expect((await fetch(`${front.origin}/api/departments`)).status).toBe(403);
      },
    ));

  it('RedirectToLoginPage sends the browser to sign in, coming back to the same path', () =>
    withFront(
      { globalValidation: { unauthenticatedClientAction: 'RedirectToLoginPage' } },
      async ({ front }) => {
        const response = await fetch(`${front.origin}/api/departments?x=1`, { redirect: 'manual' });
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe(
          `/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent('/api/departments?x=1')}`,
        );
      },
    ));

  it('without requireAuthentication, lets anonymous callers through without a principal', () =>
    withFront({ globalValidation: { requireAuthentication: false } }, async ({ front }) => {
      const response = await fetch(`${front.origin}/api/departments`, { headers: FORGED });
      expect(response.status).toBe(207);
      expect(((await response.json()) as Echo).headers[PRINCIPAL_HEADER]).toBeUndefined();
    }));
});
