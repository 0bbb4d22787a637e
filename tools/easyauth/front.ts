/**
 * A local imitation of App Service authentication ("Easy Auth") in front of the app's host, with
 * the deployment's own settings (`infra/app/auth-settings.json`, {@link ./settings}), so the app
 * runs "as deployed": the platform, not the app, decides who is signed in.
 *
 * With `platform.enabled`: the `/.auth/*` sign-in endpoints; everything else loses client copies
 * of the identity headers, is identified by a valid bearer token (an invalid one: 401) or the
 * session cookie, gets App Service's identity headers ({@link ./clientPrincipal}) or, when
 * unauthenticated and not excluded, the configured action ({@link UNAUTHENTICATED_BODY}), and goes
 * to the app ({@link ./proxy}). Disabled, it forwards everything untouched. What it imitates and
 * what not: docs/azure-mode.md.
 */
import { randomBytes } from 'node:crypto';
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
import {
  BodyTooLargeError,
  closeServer,
  listen,
  parseCookies,
  readSmallBody,
  redirect,
  sendJson,
  sendText,
} from './http';
import { FRONT_SECRET_HEADER } from '../host/http/hostKey';
import { forward } from './reverseProxy';
import { localRedirect } from './redirects';
import { createSessionCodec, frontCookie, SESSION_COOKIE, type Session } from './session';
import type { AuthSettings } from './settings';

/**
 * The body of App Service's 401 and 403 (plain text, the same for both: IIS's wording, which the
 * platform kept). Clients must not expect the app's JSON error shape from the platform.
 */
export const UNAUTHENTICATED_BODY = 'You do not have permission to view this directory or page.';
/** Where the sign-in returns (App Service's callback path for Entra ID). */
export const CALLBACK_PATH = '/.auth/login/aad/callback';
/** The cookie that binds a sign-in in progress to the browser that started it. */
const NONCE_COOKIE = 'Nonce';
/** How long a started sign-in may take. */
const LOGIN_TIMEOUT_MS = 10 * 60 * 1000;

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

interface PendingLogin {
  nonce: string;
  binding: string;
  redirect: string;
  expires: number;
}

/**
 * Reads the issuer's discovery document and starts the front.
 *
 * @throws {Error} when the discovery document cannot be read or names another issuer, or the port
 *   cannot be bound.
 */
export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const { settings, clientId } = options;
  const issuer = options.openIdIssuer.replace(/\/+$/, '');
  const audiences = [...(options.allowedAudiences ?? [clientId, `api://${clientId}`])];
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  const discovered = discoverySchema.safeParse(
    await fetch(discoveryUrl).then((r) => (r.ok ? r.json() : undefined)),
  );
  if (!discovered.success || discovered.data.issuer.replace(/\/+$/, '') !== issuer) {
    throw new Error(`${discoveryUrl} is not the discovery document of ${issuer}.`);
  }
  const { authorization_endpoint: authorizeUrl, issuer: tokenIssuer } = discovered.data;
  const keys = createRemoteJWKSet(new URL(discovered.data.jwks_uri));
  const sessions = await createSessionCodec();
  const pending = new Map<string, PendingLogin>();
  let upstream = options.upstream;

  const verify = async (token: string, audience: string | string[]): Promise<JWTPayload> =>
    (await jwtVerify(token, keys, { issuer: tokenIssuer, audience, algorithms: ['RS256'] }))
      .payload;

  const identify = async (request: IncomingMessage): Promise<Identity> => {
    const authorization = request.headers.authorization;
    const bearer = authorization !== undefined ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    if (bearer) {
      try {
        return { kind: 'token', token: bearer[1]!, claims: await verify(bearer[1]!, audiences) };
      } catch (error) {
        return { kind: 'invalid', reason: (error as Error).message };
      }
    }
    const cookie = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    const session = cookie ? await sessions.open(cookie) : undefined;
    return session ? { kind: 'session', session } : { kind: 'anonymous' };
  };

  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    status: 401 | 403,
    invalidToken = false,
  ): void => {
    const challenge =
      `Bearer realm="${request.headers.host ?? ''}" authorization_uri="${authorizeUrl}" ` +
      `resource_id="${clientId}"${invalidToken ? ' error="invalid_token"' : ''}`;
    sendText(response, status, UNAUTHENTICATED_BODY, { 'www-authenticate': challenge });
  };

  const startLogin = (request: IncomingMessage, response: ServerResponse, url: URL): void => {
    const target = localRedirect(url.searchParams.get('post_login_redirect_uri'));
    if (target === undefined || !request.headers.host) {
      sendText(response, 400, 'The post-login redirect must be a path of this site.');
      return;
    }
    const now = Date.now();
    for (const [state, login] of pending) if (login.expires < now) pending.delete(state);
    const state = randomBytes(24).toString('base64url');
    const login: PendingLogin = {
      nonce: randomBytes(24).toString('base64url'),
      binding: randomBytes(24).toString('base64url'),
      redirect: target,
      expires: now + LOGIN_TIMEOUT_MS,
    };
    pending.set(state, login);
    const authorize = new URL(authorizeUrl);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      redirect_uri: `http://${request.headers.host}${CALLBACK_PATH}`,
      response_type: 'id_token',
      response_mode: 'form_post',
      scope: 'openid profile',
      state,
      nonce: login.nonce,
    })) {
      authorize.searchParams.set(name, value);
    }
    redirect(response, authorize.href, {
      'set-cookie': frontCookie(NONCE_COOKIE, login.binding, {
        path: CALLBACK_PATH,
        maxAgeSeconds: LOGIN_TIMEOUT_MS / 1000,
      }),
    });
  };

  const finishLogin = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(await readSmallBody(request));
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      sendText(response, 413, 'The sign-in answer is too large.');
      return;
    }
    const state = form.get('state') ?? '';
    const login = pending.get(state);
    pending.delete(state);
    const binding = parseCookies(request.headers.cookie).get(NONCE_COOKIE);
    const idToken = form.get('id_token');
    if (!login || login.expires < Date.now() || binding !== login.binding || !idToken) {
      sendText(
        response,
        401,
        'The sign-in is unknown, expired, or was started in another browser.',
      );
      return;
    }
    let claims: JWTPayload;
    try {
      claims = await verify(idToken, clientId);
    } catch (error) {
      sendText(response, 401, `The id token is not valid: ${(error as Error).message}`);
      return;
    }
    if (claims.nonce !== login.nonce) {
      sendText(response, 401, 'The id token does not carry the nonce of this sign-in.');
      return;
    }
    redirect(response, login.redirect, {
      'set-cookie': [
        frontCookie(SESSION_COOKIE, await sessions.seal({ idToken, claims })),
        frontCookie(NONCE_COOKIE, '', { path: CALLBACK_PATH, maxAgeSeconds: 0 }),
      ],
    });
  };

  /** App Service's `/.auth/me` entry of the caller (token store on). */
  const me = (identity: Identity): unknown[] => {
    const claims =
      identity.kind === 'token'
        ? identity.claims
        : identity.kind === 'session'
          ? identity.session.claims
          : {};
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
  };

  const authRoute = async (
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
  ): Promise<void> => {
    const path = url.pathname.toLowerCase().replace(/\/+$/, '');
    const method = request.method ?? 'GET';
    if (path === '/.auth/login/aad' && method === 'GET') return startLogin(request, response, url);
    if (path === CALLBACK_PATH && method === 'POST') return finishLogin(request, response);
    if (path === '/.auth/logout') {
      const target = localRedirect(url.searchParams.get('post_logout_redirect_uri'));
      const to =
        url.searchParams.has('post_logout_redirect_uri') && target !== undefined
          ? target
          : '/.auth/logout/complete';
      return redirect(response, to, {
        'set-cookie': frontCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0 }),
      });
    }
    if (path === '/.auth/logout/complete') return sendText(response, 200, 'You have signed out.');
    if (path === '/.auth/me' && settings.login.tokenStore.enabled) {
      const identity = await identify(request);
      if (identity.kind === 'invalid' || identity.kind === 'anonymous') {
        return refuse(request, response, 401, identity.kind === 'invalid');
      }
      return sendJson(response, 200, me(identity));
    }
    return sendText(response, 404, 'Not found.');
  };

  /** Forwards with the internal host's secret in place of whatever the client sent as one. */
  const toApp = (
    request: IncomingMessage,
    response: ServerResponse,
    app: string,
    path: string,
    headers: IncomingHttpHeaders,
  ): Promise<void> => {
    const sent: IncomingHttpHeaders = { ...headers };
    delete sent[FRONT_SECRET_HEADER];
    if (options.upstreamSecret !== undefined) sent[FRONT_SECRET_HEADER] = options.upstreamSecret;
    return forward(request, response, app, path, sent);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const rawTarget = request.url ?? '/';
    if (!upstream) return sendText(response, 502, 'The front has no app behind it yet.');
    if (!settings.platform.enabled) {
      return toApp(request, response, upstream, rawTarget, request.headers);
    }
    const target = normalizeRequestTarget(rawTarget);
    if (!target) return sendText(response, 400, 'Bad request target.');
    const lower = target.pathname.toLowerCase();
    if (lower === '/.auth' || lower.startsWith('/.auth/')) {
      return authRoute(
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
    const { globalValidation } = settings;
    if (isExcludedPath(globalValidation.excludedPaths, target.pathname)) {
      return toApp(request, response, upstream, path, headers);
    }
    const identity = await identify(request);
    if (identity.kind === 'invalid') return refuse(request, response, 401, true);
    if (identity.kind === 'anonymous') {
      const action = globalValidation.requireAuthentication
        ? globalValidation.unauthenticatedClientAction
        : 'AllowAnonymous';
      if (action === 'Return401') return refuse(request, response, 401);
      if (action === 'Return403') return refuse(request, response, 403);
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
    return toApp(request, response, upstream, path, headers);
  };

  const server = http.createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
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
      upstream = value;
    },
    close: () => closeServer(server),
  };
}
