/**
 * Runs the app "as deployed" for end-to-end tests: the local host with a Flex Consumption
 * instance's environment (tools/easyauth/flexEnvironment.ts: platform markers,
 * `WEBSITE_AUTH_ENABLED=True`, no `TRUST_LOCAL_PRINCIPAL_HEADER`) behind the front that imitates
 * App Service authentication with infra/app/auth-settings.json (tools/easyauth/front.ts), and a
 * local token issuer standing in for Entra ID (tools/easyauth/testIssuer.ts).
 *
 *   const azure = await startAzureMode();
 *   const token = await azure.tokenFor({ userId: 'a', roles: ['DirectoryAdmin'] });
 *   await fetch(`${azure.baseUrl}/departments`, { headers: { authorization: `Bearer ${token}` } });
 *   await azure.stop();
 *
 * Callers are described as for hand-sent headers (`encodePrincipalHeader`'s input, or an encoded
 * header from test/support/principals.ts); `tokenFor` makes the bearer token whose claims make the
 * front hand the app that principal. Requests through the front are checked against the app's
 * OpenAPI document like those to a host (test/support/apiContract.ts), except the front's own
 * refusals (401/403 with `WWW-Authenticate`, plain text): those are App Service's, not the app's.
 */
import { PROJECT_ROOT, startHost, type RunningHost } from './host';
import { checkApiTraffic } from './apiContract';
import { startEasyAuth, type EasyAuth } from '../../tools/easyauth/easyAuth';
import { newSecret } from '../../tools/host/http/hostKey';
import { FRONT_SECRET_SETTING } from '../../tools/host/launch';
import {
  FLEX_CONSUMPTION_ABSENT,
  flexConsumptionEnvironment,
} from '../../tools/easyauth/flexEnvironment';
import { CALLBACK_PATH, UNAUTHENTICATED_BODY } from '../../tools/easyauth/front';
import {
  readAuthSettings,
  withOverride,
  type AuthSettings,
  type AuthSettingsOverride,
} from '../../tools/easyauth/settings';
import { SESSION_COOKIE } from '../../tools/easyauth/session';
import type { MintOptions, TestIssuer, TestUser } from '../../tools/easyauth/testIssuer';
import { claimsForPrincipal, type PrincipalLike } from '../../tools/easyauth/tokenClaims';

export type { MintOptions, PrincipalLike, TestUser };

export interface AzureModeOptions {
  /**
   * Settings of the host process, over the Flex Consumption ones (e.g. `WEBSITE_AUTH_ENABLED: ''`
   * for an instance without authentication; an empty value counts as unset).
   */
  env?: Record<string, string>;
  /** Changes to infra/app/auth-settings.json, section by section (`excludedPaths` replaces). */
  authSettings?: AuthSettingsOverride;
  /** The users of the issuer's sign-in page (default tools/easyauth/testIssuer.ts's four). */
  users?: readonly TestUser[];
}

/** What {@link AzureMode.signIn} ends with. */
export interface SignedIn {
  /** The `Cookie` header value to send: `AppServiceAuthSession=...`. */
  cookie: string;
  /** Where the front sent the browser after sign-in (the post-login path). */
  location: string;
}

export interface AzureMode {
  /** The front's origin, `http://127.0.0.1:<port>`: where clients call the app. */
  origin: string;
  /** `origin + '/api'`: API.md's base URL through the front. */
  baseUrl: string;
  /**
   * The app's host behind the front (its output, and `host.key`: the key the host's own endpoints
   * want). It serves only what comes through the front: not for calls of its own.
   */
  host: RunningHost;
  /** The stand-in for Entra ID: `issuer.issuer`, `issuer.mintAccessToken(claims, options)`. */
  issuer: TestIssuer;
  /** The authentication settings the front applies (the file with the override). */
  settings: AuthSettings;
  /** The app registration's client id (the tokens' audience). */
  clientId: string;
  /**
   * A bearer token that makes the front hand the app this caller's principal (valid unless
   * `options` say otherwise: another audience or issuer, expired, signed by a foreign key).
   *
   * @throws {Error} when an encoded header cannot be decoded.
   */
  tokenFor(principal: PrincipalLike, options?: MintOptions): Promise<string>;
  /**
   * `init` with `Authorization: Bearer <tokenFor(principal)>` added (other headers kept); `null`:
   * `init` unchanged (an anonymous caller).
   */
  as(principal: PrincipalLike | null, init?: RequestInit): Promise<RequestInit>;
  /**
   * Signs in through `/.auth/login/aad` and the issuer's page as the user whose label contains
   * `user` (default the first), as a browser would; resolves with the session cookie.
   *
   * @throws {Error} when a step of the flow does not answer as expected.
   */
  signIn(user?: string, postLoginRedirect?: string): Promise<SignedIn>;
  /** Stops the host, then the front and the issuer. */
  stop(): Promise<void>;
}

/** Whether an answer is the front's own refusal rather than the app's. */
const answeredInFront = (response: Response): boolean =>
  (response.status === 401 || response.status === 403) &&
  response.headers.has('www-authenticate') &&
  !response.headers.get('content-type')?.startsWith('application/json');

/**
 * Starts the issuer, the front and the host, and resolves once the host answers.
 *
 * @throws {Error} when one of them does not start (nothing is left running).
 */
export async function startAzureMode(options: AzureModeOptions = {}): Promise<AzureMode> {
  const settings = withOverride(readAuthSettings(PROJECT_ROOT), options.authSettings);
  // The internal host serves only what the front forwards with this (tools/host/http/hostKey.ts).
  const frontSecret = newSecret();
  const easyAuth: EasyAuth = await startEasyAuth({
    settings,
    upstreamSecret: frontSecret,
    ...(options.users ? { users: options.users } : {}),
  });
  const { front, issuer } = easyAuth;
  let host: RunningHost;
  try {
    host = await startHost({
      // Its API is checked through the front (below); it serves nothing else.
      checkApi: false,
      env: {
        ...Object.fromEntries(FLEX_CONSUMPTION_ABSENT.map((name) => [name, ''])),
        ...flexConsumptionEnvironment(new URL(front.origin).host),
        ...options.env,
        [FRONT_SECRET_SETTING]: frontSecret,
      },
    });
  } catch (error) {
    await easyAuth.close();
    throw error;
  }
  front.setUpstream(host.origin);
  const baseUrl = `${front.origin}${host.baseUrl.slice(host.origin.length)}`;
  const stopChecks = checkApiTraffic(baseUrl, { answeredInFront });

  const tokenFor = (principal: PrincipalLike, mint?: MintOptions): Promise<string> =>
    issuer.mintAccessToken(claimsForPrincipal(principal), mint);

  const signIn = async (user = '', postLoginRedirect = '/api/console/'): Promise<SignedIn> => {
    const step = (what: string, response: Response, status: number): void => {
      if (response.status !== status) {
        throw new Error(`Sign-in: ${what} answered ${response.status}, not ${status}.`);
      }
    };
    const start = await fetch(
      `${front.origin}/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent(postLoginRedirect)}`,
      { redirect: 'manual' },
    );
    step('/.auth/login/aad', start, 302);
    const nonceCookie = start.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const page = await fetch(start.headers.get('location')!);
    step('the sign-in page', page, 200);
    const html = await page.text();
    const form = html
      .split('<form ')
      .slice(1)
      .find((f) => f.includes(user));
    const field = (name: string): string =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(form ?? '')?.[1] ?? '';
    if (!form) throw new Error(`Sign-in: no user labelled "${user}" on the page.`);
    const callback = await fetch(`${front.origin}${CALLBACK_PATH}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: nonceCookie.join('; ') },
      body: new URLSearchParams({ id_token: field('id_token'), state: field('state') }),
    });
    step('the callback', callback, 302);
    const session = callback.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!session) throw new Error('Sign-in: the callback set no session cookie.');
    return { cookie: session, location: callback.headers.get('location') ?? '' };
  };

  return {
    origin: front.origin,
    baseUrl,
    host,
    issuer,
    settings,
    clientId: issuer.clientId,
    tokenFor,
    async as(principal, init = {}) {
      if (principal === null) return init;
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${await tokenFor(principal)}`);
      return { ...init, headers };
    },
    signIn,
    async stop() {
      stopChecks();
      await host.stop();
      await easyAuth.close();
    },
  };
}

/**
 * Asserts App Service's own refusal (the front's, in Azure mode): the status, a `Bearer`
 * challenge and its plain-text body — not the app's JSON error.
 */
export function expectPlatformRefusal(
  reply: { status: number; text: string; headers: Headers },
  status: 401 | 403 = 401,
): void {
  if (reply.status !== status) {
    throw new Error(`Expected the platform's ${status}, got ${reply.status}: ${reply.text}`);
  }
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer /);
  expect(reply.text).toBe(UNAUTHENTICATED_BODY);
}
