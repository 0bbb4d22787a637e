/**
 * The sign-in and sign-out endpoints of the Azure-mode front ({@link ./front}): `/.auth/login/aad`
 * sends the browser to the issuer with a fresh state and nonce, the callback checks the id token
 * it posts back (same browser, same nonce, in time) and seals it in the session cookie, and
 * `/.auth/logout` drops the session. What App Service does the same way: docs/azure-mode.md.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWTPayload } from 'jose';
import { BodyTooLargeError, parseCookies, readSmallBody, redirect, sendText } from './http';
import { localRedirect } from './redirects';
import { frontCookie, SESSION_COOKIE, type SessionCodec } from './session';

/** Where the sign-in returns (App Service's callback path for Entra ID). */
export const CALLBACK_PATH = '/.auth/login/aad/callback';
/** The cookie that binds a sign-in in progress to the browser that started it. */
const NONCE_COOKIE = 'Nonce';
/** How long a started sign-in may take. */
const LOGIN_TIMEOUT_MS = 10 * 60 * 1000;

/** A sign-in started and not yet answered, by its `state`. */
interface PendingLogin {
  nonce: string;
  binding: string;
  redirect: string;
  expires: number;
}

/** What the sign-in endpoints use of the front: the registration, the issuer, the sessions. */
export interface SignIn {
  /** `registration.clientId`: the audience of id tokens. */
  clientId: string;
  /** The issuer's `authorization_endpoint`. */
  authorizeUrl: string;
  /** Verifies a token of the issuer for `audience`, giving its claims. */
  verify(token: string, audience: string | string[]): Promise<JWTPayload>;
  sessions: SessionCodec;
  /** The sign-ins in progress, by state (expired ones are dropped when the next starts). */
  pending: Map<string, PendingLogin>;
}

/** `GET /.auth/login/aad`: redirects to the issuer's authorize endpoint. */
export function startLogin(
  signIn: SignIn,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): void {
  const target = localRedirect(url.searchParams.get('post_login_redirect_uri'));
  if (target === undefined || !request.headers.host) {
    sendText(response, 400, 'The post-login redirect must be a path of this site.');
    return;
  }
  const now = Date.now();
  for (const [state, login] of signIn.pending)
    if (login.expires < now) signIn.pending.delete(state);
  const state = randomBytes(24).toString('base64url');
  const login: PendingLogin = {
    nonce: randomBytes(24).toString('base64url'),
    binding: randomBytes(24).toString('base64url'),
    redirect: target,
    expires: now + LOGIN_TIMEOUT_MS,
  };
  signIn.pending.set(state, login);
  const authorize = new URL(signIn.authorizeUrl);
  for (const [name, value] of Object.entries({
    client_id: signIn.clientId,
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
}

/**
 * `POST` {@link CALLBACK_PATH}: the issuer's form post. A valid id token of the sign-in this
 * browser started becomes the session; anything else is a 401 (an oversized form a 413).
 */
export async function finishLogin(
  signIn: SignIn,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readSmallBody(request));
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendText(response, 413, 'The sign-in answer is too large.');
    return;
  }
  const state = form.get('state') ?? '';
  const login = signIn.pending.get(state);
  signIn.pending.delete(state);
  const binding = parseCookies(request.headers.cookie).get(NONCE_COOKIE);
  const idToken = form.get('id_token');
  if (!login || login.expires < Date.now() || binding !== login.binding || !idToken) {
    sendText(response, 401, 'The sign-in is unknown, expired, or was started in another browser.');
    return;
  }
  let claims: JWTPayload;
  try {
    claims = await signIn.verify(idToken, signIn.clientId);
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
      frontCookie(SESSION_COOKIE, await signIn.sessions.seal({ idToken, claims })),
      frontCookie(NONCE_COOKIE, '', { path: CALLBACK_PATH, maxAgeSeconds: 0 }),
    ],
  });
}

/** `/.auth/logout`: clears the session and redirects to a local path or the signed-out page. */
export function logout(response: ServerResponse, url: URL): void {
  const target = localRedirect(url.searchParams.get('post_logout_redirect_uri'));
  const to =
    url.searchParams.has('post_logout_redirect_uri') && target !== undefined
      ? target
      : '/.auth/logout/complete';
  redirect(response, to, {
    'set-cookie': frontCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0 }),
  });
}
