/**
 * A local stand-in for Microsoft Entra ID, for tests and local trials of the Azure-mode front: an
 * OpenID Connect issuer on its own loopback port with an RS256 key pair made at startup (jose).
 * It serves discovery and JWKS, the implicit-flow `GET /authorize` page App Service's login uses
 * (a form per test user), and access tokens: {@link TestIssuer.mintAccessToken} for tests (with
 * overrides to make bad ones), `POST /dev/token` for `npm run principal -- --azure`.
 *
 * Anyone who can reach the port can sign in as anybody: it binds to loopback, exists only in local
 * runs, answers only to its own loopback names (`Host`, else 421) and mints only from a JSON body
 * (else 415), so no web page can use it either (docs/azure-mode.md).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type KeyLike } from 'jose';
import { isJsonContentType, isLoopbackHostname, parseHost } from '../host/http/requestGuard';
import {
  BodyTooLargeError,
  closeServer,
  escapeHtml,
  listen,
  readSmallBody,
  sendJson,
  sendText,
} from './http';

/** A user the sign-in page offers. */
export interface TestUser {
  /** What the page shows. */
  label: string;
  /** The user's claims in the id token (`oid`, `name`, `roles`, `department`, `employeeId`...). */
  claims: JWTPayload;
}

/** The default users: an admin, an editor and a reader of `Sales`, an employee of `Sales`. */
export const DEFAULT_TEST_USERS: readonly TestUser[] = [
  {
    label: 'Ada Admin — DirectoryAdmin',
    claims: {
      oid: '00000000-0000-4000-8000-000000000a01',
      name: 'Ada Admin',
      preferred_username: 'ada.admin@test.invalid',
      roles: ['DirectoryAdmin'],
    },
  },
  {
    label: 'Eve Editor — DirectoryEditor:Sales',
    claims: {
      oid: '00000000-0000-4000-8000-000000000e01',
      name: 'Eve Editor',
      preferred_username: 'eve.editor@test.invalid',
      roles: ['DirectoryEditor:Sales'],
    },
  },
  {
    label: 'Rob Reader — DirectoryReader:Sales',
    claims: {
      oid: '00000000-0000-4000-8000-000000000d01',
      name: 'Rob Reader',
      preferred_username: 'rob.reader@test.invalid',
      roles: ['DirectoryReader:Sales'],
    },
  },
  {
    label: 'Emma Employee — Sales / 000123',
    claims: {
      oid: '00000000-0000-4000-8000-000000000c01',
      name: 'Emma Employee',
      preferred_username: 'emma.employee@test.invalid',
      department: 'Sales',
      employeeId: '000123',
    },
  },
];

/** How a minted token differs from a good one (tests of bad tokens). */
export interface MintOptions {
  /** `aud`; default the issuer's client id. */
  audience?: string | string[];
  /** `iss`; default this issuer. */
  issuer?: string;
  /** Seconds until `exp` from now; negative for an expired token. Default 3600. */
  expiresInSeconds?: number;
  /** Seconds from now of `nbf` (positive: not valid yet). Default none. */
  notBeforeInSeconds?: number;
  /** `foreign`: signed by a key the JWKS does not publish, under the published key id. */
  key?: 'issuer' | 'foreign';
}

/** How to start the test token issuer (its tenant, audience and keys). */
export interface TestIssuerOptions {
  /** The app registration's client id: the audience of id tokens. Default `test-client-id`. */
  clientId?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  listenAddress?: string;
  /** The users the sign-in page offers; default {@link DEFAULT_TEST_USERS}. */
  users?: readonly TestUser[];
}

/** A started test token issuer: its issuer URL, keys endpoint, test users and token minting. */
export interface TestIssuer {
  /** The issuer identifier (`iss`), also its origin: `http://127.0.0.1:<port>`. */
  issuer: string;
  port: number;
  clientId: string;
  /** Where the front (App Service) reads the keys. */
  jwksUri: string;
  users: readonly TestUser[];
  /** Signs an access token with `claims` (plus `iss`, `aud`, `iat`, `exp`, `sub`). */
  mintAccessToken(claims: JWTPayload, options?: MintOptions): Promise<string>;
  /** Stops the server. */
  close(): Promise<void>;
}

const KEY_ID = 'test-issuer-key';
const TOKEN_LIFETIME_SECONDS = 3600;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether the sign-in page may post a token to `value`: an http(s) URL on this machine. */
function acceptableRedirect(value: string | null): value is string {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

/** Whether a `Host` header names this issuer: a loopback name with its port. */
function isOwnHost(value: string | undefined, port: number): boolean {
  const host = parseHost(value);
  if (!host || !isLoopbackHostname(host.hostname)) return false;
  return host.host === `${host.hostname}:${port}`;
}

/** A started issuer: its registration, users and keys (`issuer` is known once it listens). */
interface Issuer {
  issuer: string;
  clientId: string;
  users: readonly TestUser[];
  signing: { privateKey: KeyLike };
  foreign: { privateKey: KeyLike };
  publicJwk: JWK;
}

/**
 * Starts the issuer.
 *
 * @throws {Error} when the port cannot be bound.
 */
export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const signing = await generateKeyPair('RS256');
  const own: Issuer = {
    issuer: '',
    clientId: options.clientId ?? 'test-client-id',
    users: options.users ?? DEFAULT_TEST_USERS,
    signing,
    foreign: await generateKeyPair('RS256'),
    publicJwk: { ...(await exportJWK(signing.publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' },
  };
  const server = http.createServer((request, response) => {
    if (!isOwnHost(request.headers.host, Number(new URL(own.issuer).port))) {
      sendText(response, 421, 'Test issuer: it answers only to its own loopback address.');
      return;
    }
    Promise.resolve(route(own, request, response)).catch(() => {
      if (!response.headersSent) sendText(response, 500, 'Test issuer: internal error.');
      else response.destroy();
    });
  });
  own.issuer = await listen(server, options.port ?? 0, options.listenAddress ?? '127.0.0.1');
  const { issuer, clientId, users } = own;
  return {
    issuer,
    port: Number(new URL(issuer).port),
    clientId,
    jwksUri: `${issuer}/keys`,
    users,
    mintAccessToken: (claims, mint) => mintAccessToken(own, claims, mint),
    close: () => closeServer(server),
  };
}

/** One request to the issuer, by method and path. */
function route(
  own: Issuer,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> | void {
  const { issuer } = own;
  const url = new URL(request.url ?? '/', issuer || 'http://issuer.invalid');
  const requested = `${request.method} ${url.pathname}`;
  switch (requested) {
    case 'GET /.well-known/openid-configuration':
      return sendJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        jwks_uri: `${issuer}/keys`,
        response_types_supported: ['id_token'],
        response_modes_supported: ['form_post'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'profile'],
      });
    case 'GET /keys':
      return sendJson(response, 200, { keys: [own.publicJwk] });
    case 'GET /authorize':
      return authorizePage(own, url, response);
    case 'POST /dev/token':
      return devToken(own, request, response);
    default:
      return sendText(response, 404, `Test issuer: nothing at ${requested}.`);
  }
}

/** A token of this issuer with `claims` (plus `iss`, `aud`, `iat`, `exp`, `sub` unless given). */
function sign(
  own: Issuer,
  claims: JWTPayload,
  key: KeyLike,
  mint: MintOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
    .setIssuer(mint.issuer ?? own.issuer)
    .setAudience(mint.audience ?? own.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + (mint.expiresInSeconds ?? TOKEN_LIFETIME_SECONDS));
  if (claims.sub === undefined) {
    jwt.setSubject(String(claims.oid ?? claims.name ?? 'test-subject'));
  }
  if (mint.notBeforeInSeconds !== undefined) jwt.setNotBefore(now + mint.notBeforeInSeconds);
  return jwt.sign(key);
}

/** {@link TestIssuer.mintAccessToken}: a v2.0 access token, signed by `mint.key`. */
function mintAccessToken(own: Issuer, claims: JWTPayload, mint: MintOptions = {}): Promise<string> {
  const key = mint.key === 'foreign' ? own.foreign.privateKey : own.signing.privateKey;
  return sign(own, { ver: '2.0', ...claims }, key, mint);
}

/** What is wrong with an authorize request for this issuer's client, if anything. */
function authorizeProblem(clientId: string, params: URLSearchParams): string | undefined {
  return params.get('client_id') !== clientId
    ? 'client_id is not this issuer’s client'
    : !params.get('response_type')?.split(' ').includes('id_token')
      ? 'response_type must include id_token'
      : params.get('response_mode') !== 'form_post'
        ? 'response_mode must be form_post'
        : !acceptableRedirect(params.get('redirect_uri'))
          ? 'redirect_uri must be an http(s) URL on this machine'
          : !params.get('nonce')
            ? 'nonce is missing'
            : undefined;
}

/** `GET /authorize`: the sign-in page, a form per user that posts its id token back. */
async function authorizePage(own: Issuer, url: URL, response: ServerResponse): Promise<void> {
  const params = url.searchParams;
  const problem = authorizeProblem(own.clientId, params);
  if (problem !== undefined) {
    sendText(response, 400, `Test issuer: ${problem}.`);
    return;
  }
  const redirectUri = params.get('redirect_uri')!;
  const nonce = params.get('nonce');
  const state = params.get('state') ?? '';
  const forms = await Promise.all(
    own.users.map(async (user) => {
      const idToken = await sign(own, { ...user.claims, nonce }, own.signing.privateKey);
      return (
        `<form method="post" action="${escapeHtml(redirectUri)}">` +
        `<input type="hidden" name="id_token" value="${escapeHtml(idToken)}">` +
        `<input type="hidden" name="state" value="${escapeHtml(state)}">` +
        `<button type="submit">${escapeHtml(user.label)}</button></form>`
      );
    }),
  );
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><title>Test sign-in</title></head>' +
    '<body><h1>Test sign-in</h1><p>A local test issuer, not Microsoft Entra ID. Sign in as:</p>' +
    `${forms.join('\n')}</body></html>`;
  sendText(response, 200, html, { 'content-type': 'text/html; charset=utf-8' });
}

/** `POST /dev/token`: an access token with the JSON body's claims (415 unless JSON). */
async function devToken(
  own: Issuer,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (!isJsonContentType(request.headers['content-type'])) {
    sendJson(response, 415, {
      error: {
        code: 'UnsupportedMediaType',
        message: 'Send the claims as JSON (Content-Type: application/json).',
      },
    });
    return;
  }
  let body: { claims?: unknown; audience?: unknown; expiresInSeconds?: unknown };
  try {
    body = JSON.parse((await readSmallBody(request)) || '{}') as typeof body;
  } catch (error) {
    sendJson(response, error instanceof BodyTooLargeError ? 413 : 400, {
      error: { code: 'InvalidBody', message: 'Send JSON: {"claims": {...}}.' },
    });
    return;
  }
  const claims = body?.claims;
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    sendJson(response, 400, {
      error: { code: 'InvalidBody', message: '"claims" must be an object.' },
    });
    return;
  }
  const token = await mintAccessToken(own, claims as JWTPayload, {
    ...(typeof body.audience === 'string' ? { audience: body.audience } : {}),
  });
  sendJson(response, 200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
  });
}
