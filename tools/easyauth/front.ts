/**
 * A local imitation of App Service authentication ("Easy Auth") in front of the app's host, with
 * the deployment's own settings (`infra/app/auth-settings.json`, {@link ./settings}), so the app
 * runs "as deployed": the platform, not the app, decides who is signed in.
 *
 * With `platform.enabled`: the `/.auth/*` endpoints ({@link ./signIn}); anything else loses copies
 * of the identity headers, is identified by a valid bearer token (an invalid one: 401) or the
 * session cookie, gets App Service's identity headers ({@link ./clientPrincipal}) or, when
 * unauthenticated and not excluded, the configured action ({@link UNAUTHENTICATED_BODY}), and goes
 * to the app ({@link ./proxy}). Disabled, it forwards everything untouched. What it imitates and
 * what not: docs/azure-mode.md.
 */
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import {
  AAD_PROVIDER,
  isPlatformIdentityHeader,
  principalClaims,
  principalHeaders,
  principalName,
  principalId,
} from './clientPrincipal';
import { isExcludedPath, normalizeRequestTarget } from './excludedPaths';
import { closeServer, listen, parseCookies, redirect, sendJson, sendText } from './http';
import { FRONT_SECRET_HEADER } from '../host/http/hostKey';
import { forward } from './reverseProxy';
import { createSessionCodec, SESSION_COOKIE, type Session } from './session';
import type { AuthSettings } from './settings';
import { CALLBACK_PATH, finishLogin, logout, startLogin, type SignIn } from './signIn';

export { CALLBACK_PATH };

/**
 * The body of App Service's 401 and 403 (plain text, the same for both: IIS's wording, which the
 * platform kept). Clients must not expect the app's JSON error shape from the platform.
 */
export const UNAUTHENTICATED_BODY = 'You do not have permission to view this directory or page.';

/** How to start the authentication front before the local host. */
export interface FrontOptions {
  settings: AuthSettings;
  /** `registration.openIdIssuer`: the front reads `<issuer>/.well-known/openid-configuration`. */
  openIdIssuer: string;
  /** `registration.clientId`: the audience of id tokens. */
  clientId: string;
  /** `validation.allowedAudiences` of access tokens; default `[clientId, api://clientId]`. */
  allowedAudiences?: readonly string[];
  /**
   * The app host's origin (`http://127.0.0.1:<port>`); may be set later
   * ({@link RunningFront.setUpstream}).
   */
  upstream?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  listenAddress?: string;
  /**
   * The internal host's secret: sent with every forwarded request (a client's copy is dropped),
   * so the host serves only what comes through here (tools/host/http/hostKey.ts).
   */
  upstreamSecret?: string;
}

/** A started authentication front: its URL and how to stop it. */
export interface RunningFront {
  /** `http://127.0.0.1:<port>`: where clients call the app. */
  origin: string;
  port: number;
  /** Points the front at the app's host (until then requests get 502). */
  setUpstream(origin: string): void;
  close(): Promise<void>;
}

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
});

/** The caller of a request as the front sees it. */
type Identity =
  | { kind: 'anonymous' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'token'; claims: JWTPayload; token: string }
  | { kind: 'session'; session: Session };

/** A started front: its settings, the issuer's keys, the sessions and where the app is. */
interface Front extends SignIn {
  options: FrontOptions;
  /** The audiences an access token may be for. */
  audiences: string[];
  upstream: string | undefined;
}

/**
 * Reads the issuer's discovery document and starts the front.
 *
 * @throws {Error} when the discovery document cannot be read or names another issuer, or the port
 *   cannot be bound.
 */
export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const { authorizeUrl, verify } = await discoverIssuer(options.openIdIssuer);
  const { clientId } = options;
  const front: Front = {
    options,
    clientId,
    audiences: [...(options.allowedAudiences ?? [clientId, `api://${clientId}`])],
    authorizeUrl,
    verify,
    sessions: await createSessionCodec(),
    pending: new Map(),
    upstream: options.upstream,
  };
  const server = http.createServer((request, response) => {
    serve(front, request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendText(response, 500, `The front failed: ${(error as Error).message}`);
      } else response.destroy();
    });
  });
  const origin = await listen(server, options.port ?? 0, options.listenAddress ?? '127.0.0.1');
  return {
    origin,
    port: Number(new URL(origin).port),
    setUpstream(value) {
      front.upstream = value;
    },
    close: () => closeServer(server),
  };
}

/**
 * The issuer's authorize endpoint and a verifier of its tokens, from its discovery document.
 *
 * @throws {Error} when the document cannot be read or names another issuer.
 */
async function discoverIssuer(
  openIdIssuer: string,
): Promise<Pick<Front, 'authorizeUrl' | 'verify'>> {
  const issuer = openIdIssuer.replace(/\/+$/, '');
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  const discovered = discoverySchema.safeParse(
    await fetch(discoveryUrl).then((r) => (r.ok ? r.json() : undefined)),
  );
  if (!discovered.success || discovered.data.issuer.replace(/\/+$/, '') !== issuer) {
    throw new Error(`${discoveryUrl} is not the discovery document of ${issuer}.`);
  }
  const { authorization_endpoint: authorizeUrl, issuer: tokenIssuer } = discovered.data;
  const keys = createRemoteJWKSet(new URL(discovered.data.jwks_uri));
  const verify = async (token: string, audience: string | string[]): Promise<JWTPayload> =>
    (await jwtVerify(token, keys, { issuer: tokenIssuer, audience, algorithms: ['RS256'] }))
      .payload;
  return { authorizeUrl, verify };
}

/**
 * One request: the `/.auth/*` endpoints are the front's own; anything else goes to the app, with
 * the caller's identity headers or refused, as the settings say (disabled: untouched).
 */
async function serve(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { upstream, options } = front;
  const rawTarget = request.url ?? '/';
  if (!upstream) return sendText(response, 502, 'The front has no app behind it yet.');
  if (!options.settings.platform.enabled) {
    return toApp(front, request, response, upstream, rawTarget, request.headers);
  }
  const target = normalizeRequestTarget(rawTarget);
  if (!target) return sendText(response, 400, 'Bad request target.');
  const lower = target.pathname.toLowerCase();
  if (lower === '/.auth' || lower.startsWith('/.auth/')) {
    return authRoute(
      front,
      request,
      response,
      new URL(`http://front.invalid${target.pathname}${target.search}`),
    );
  }
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!isPlatformIdentityHeader(name)) headers[name] = value;
  }
  const path = `${target.pathname}${target.search}`;
  const { globalValidation } = options.settings;
  if (isExcludedPath(globalValidation.excludedPaths, target.pathname)) {
    return toApp(front, request, response, upstream, path, headers);
  }
  const identity = await identify(front, request);
  if (identity.kind === 'invalid') return refuse(front, request, response, 401, true);
  if (identity.kind === 'anonymous') {
    const action = globalValidation.requireAuthentication
      ? globalValidation.unauthenticatedClientAction
      : 'AllowAnonymous';
    if (action === 'Return401') return refuse(front, request, response, 401);
    if (action === 'Return403') return refuse(front, request, response, 403);
    if (action === 'RedirectToLoginPage') {
      return redirect(
        response,
        `/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent(path)}`,
      );
    }
  } else {
    const claims = identity.kind === 'token' ? identity.claims : identity.session.claims;
    Object.assign(headers, principalHeaders(claims));
  }
  return toApp(front, request, response, upstream, path, headers);
}

/** The caller: a bearer token (valid or not), else the session cookie, else anonymous. */
async function identify(front: Front, request: IncomingMessage): Promise<Identity> {
  const authorization = request.headers.authorization;
  const bearer = authorization !== undefined ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (bearer) {
    try {
      return {
        kind: 'token',
        token: bearer[1]!,
        claims: await front.verify(bearer[1]!, front.audiences),
      };
    } catch (error) {
      return { kind: 'invalid', reason: (error as Error).message };
    }
  }
  const cookie = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
  const session = cookie ? await front.sessions.open(cookie) : undefined;
  return session ? { kind: 'session', session } : { kind: 'anonymous' };
}

/** App Service's 401 or 403, with its `WWW-Authenticate` challenge. */
function refuse(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  status: 401 | 403,
  invalidToken = false,
): void {
  const challenge =
    `Bearer realm="${request.headers.host ?? ''}" authorization_uri="${front.authorizeUrl}" ` +
    `resource_id="${front.clientId}"${invalidToken ? ' error="invalid_token"' : ''}`;
  sendText(response, status, UNAUTHENTICATED_BODY, { 'www-authenticate': challenge });
}

/** The `/.auth/*` endpoints: sign-in ({@link ./signIn}), sign-out, `/.auth/me`. */
async function authRoute(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname.toLowerCase().replace(/\/+$/, '');
  const method = request.method ?? 'GET';
  if (path === '/.auth/login/aad' && method === 'GET') {
    return startLogin(front, request, response, url);
  }
  if (path === CALLBACK_PATH && method === 'POST') return finishLogin(front, request, response);
  if (path === '/.auth/logout') return logout(response, url);
  if (path === '/.auth/logout/complete') return sendText(response, 200, 'You have signed out.');
  if (path === '/.auth/me' && front.options.settings.login.tokenStore.enabled) {
    const identity = await identify(front, request);
    if (identity.kind === 'invalid' || identity.kind === 'anonymous') {
      return refuse(front, request, response, 401, identity.kind === 'invalid');
    }
    return sendJson(response, 200, me(identity));
  }
  return sendText(response, 404, 'Not found.');
}

/** App Service's `/.auth/me` entry of the caller (token store on). */
function me(identity: Extract<Identity, { kind: 'token' | 'session' }>): unknown[] {
  const claims = identity.kind === 'token' ? identity.claims : identity.session.claims;
  const expires =
    typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : undefined;
  return [
    {
      ...(identity.kind === 'token' ? { access_token: identity.token } : {}),
      ...(identity.kind === 'session' ? { id_token: identity.session.idToken } : {}),
      ...(expires ? { expires_on: expires } : {}),
      provider_name: AAD_PROVIDER,
      user_claims: principalClaims(claims),
      user_id: principalName(claims) ?? principalId(claims) ?? '',
    },
  ];
}

/** Forwards with the internal host's secret in place of whatever the client sent as one. */
function toApp(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  app: string,
  path: string,
  headers: IncomingHttpHeaders,
): Promise<void> {
  const sent: IncomingHttpHeaders = { ...headers };
  delete sent[FRONT_SECRET_HEADER];
  const { upstreamSecret } = front.options;
  if (upstreamSecret !== undefined) sent[FRONT_SECRET_HEADER] = upstreamSecret;
  return forward(request, response, app, path, sent);
}
