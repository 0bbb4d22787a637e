/**
 * The smoke checks of a deployed app (`npm run smoke`, the azd `postdeploy` hook): read-only HTTP
 * calls that prove what a deployment must guarantee and what unit tests of the bicep cannot —
 * that App Service authentication really stands in front of the protected routes, that a
 * hand-made `x-ms-client-principal` counts for nothing, that a real token gets through, and that
 * the anonymous routes (health, the API description, the console's files) load before sign-in.
 *
 * Nothing here writes: every request is a GET, so the checks can run against production as often
 * as wanted and leave nothing to clean up. Every request has a timeout.
 *
 *   const report = await runSmokeChecks({ baseUrl: 'https://func-api-x.azurewebsites.net' });
 *   for (const result of report.results) console.log(formatSmokeResult(result));
 */
import { encodePrincipalHeader, PRINCIPAL_HEADER } from '../easyauth/principalHeader';
import { appErrorCode, clip, get, parseJson, type Answer } from './http';
import { hostEndpointsRefused } from './hostEndpoints';
import { validateOpenApi } from './openApi';
import { apiBaseUrl, consoleAssetUrls } from './urls';

/** `ok`: the check passed; `FAIL`: it did not; `skip`: it could not run (e.g. no token given). */
export type SmokeStatus = 'ok' | 'FAIL' | 'skip';

/** The checks, in the order they run (docs/deploy.md has a row for each). */
export const SMOKE_CHECKS = [
  'health',
  'no-token',
  'forged-principal',
  'me',
  'host-endpoints',
  'openapi',
  'console',
] as const;

/** The name of one smoke check. */
export type SmokeCheckName = (typeof SMOKE_CHECKS)[number];

/** The outcome of one check. */
export interface SmokeResult {
  check: SmokeCheckName;
  status: SmokeStatus;
  /** What was seen, and for a failure why it matters. */
  detail: string;
}

/** What to check and how. */
export interface SmokeOptions {
  /**
   * The app's origin (`https://<app>.azurewebsites.net`, `/api` is then added) or its API base
   * (`http://127.0.0.1:7071/api`).
   */
  baseUrl: string;
  /** An Entra ID access token for the API; without it the signed-in check is skipped. */
  token?: string;
  /**
   * A function key, sent as `x-functions-key` on the protected routes. Without it a 401 on a
   * protected route may be the Functions host's own (no key) rather than App Service
   * authentication's, which the result then says.
   */
  functionKey?: string;
  /** Timeout of each request, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /**
   * How long to keep asking `GET /health` while the app does not answer or answers 5xx (a cold
   * start right after a deployment), in milliseconds (default 0: ask once).
   */
  waitMs?: number;
}

/** Every check's result, in order, and whether none failed. */
export interface SmokeReport {
  /** The API base the checks called (`<origin>/api`). */
  apiBase: string;
  results: SmokeResult[];
  /** True when no check failed (skipped ones do not fail the run). */
  passed: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const WAIT_STEP_MS = 2_000;

/** The protected route the auth checks call: a plain read any admin may make. */
export const PROTECTED_PATH = '/departments';

/** The principal a forger would send: an admin, exactly as App Service authentication would. */
const FORGED_ADMIN = encodePrincipalHeader({
  userId: 'smoke-forged-admin',
  name: 'smoke-forged-admin',
  roles: ['DirectoryAdmin'],
});

/** One line of output: `ok health: ...`, `FAIL forged-principal: ...`, `skip me: ...`. */
export function formatSmokeResult(result: SmokeResult): string {
  return `${result.status} ${result.check}: ${result.detail}`;
}

/** A request path under the API base, for messages: `/api/health`. */
const shown = (apiBase: string, path: string): string => `${new URL(apiBase).pathname}${path}`;

/** The shared context of one run. */
interface Run {
  apiBase: string;
  timeoutMs: number;
  functionKey?: string;
  token?: string;
}

const keyHeaders = (run: Run): Record<string, string> =>
  run.functionKey ? { 'x-functions-key': run.functionKey } : {};

async function checkHealth(run: Run, waitMs: number): Promise<SmokeResult> {
  const check = 'health';
  const url = `${run.apiBase}/health`;
  const deadline = Date.now() + waitMs;
  let answer: Answer | undefined;
  let lastError: string;
  for (;;) {
    try {
      answer = await get(url, {}, run.timeoutMs);
      lastError = '';
    } catch (error) {
      answer = undefined;
      lastError = (error as Error).message;
    }
    const settled = answer !== undefined && answer.status < 500;
    if (settled || Date.now() + WAIT_STEP_MS > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  if (!answer) return { check, status: 'FAIL', detail: lastError };
  const path = shown(run.apiBase, '/health');
  const body = parseJson(answer.text) as
    { status?: unknown; storage?: unknown; auth?: unknown; settings?: unknown } | undefined;
  const problems: string[] = [];
  if (answer.status !== 200) problems.push(`GET ${path} answered ${answer.status}`);
  if (!body || typeof body !== 'object') {
    problems.push(`the body is not JSON: ${clip(answer.text)}`);
    return { check, status: 'FAIL', detail: problems.join('; ') };
  }
  if (body.auth === 'missing') {
    problems.push(
      'the app reports "auth": "missing": no App Service authentication vouches for callers, so ' +
        'every protected route answers 401 (turn authsettingsV2 on: docs/deploy.md, "App Service authentication")',
    );
  }
  if (body.storage !== 'ok') problems.push(`storage is ${JSON.stringify(body.storage)}`);
  if (body.status !== 'ok') {
    problems.push(
      `status is ${JSON.stringify(body.status)}${body.settings ? `, unusable settings: ${JSON.stringify(body.settings)}` : ''}`,
    );
  }
  return problems.length > 0
    ? { check, status: 'FAIL', detail: problems.join('; ') }
    : { check, status: 'ok', detail: `GET ${path} 200, status ok, storage ok, auth not missing` };
}

/** Who answered a 401: the app (its JSON error), or something in front of it. */
function who401(run: Run, answer: Answer): string {
  const code = appErrorCode(answer.text);
  if (code) return `from the app (${code})`;
  return run.functionKey
    ? 'from App Service authentication'
    : 'from in front of the app; no function key was sent, so it may be the Functions host refusing ' +
        'the missing key rather than App Service authentication (pass --function-key to tell them apart)';
}

async function checkNoToken(run: Run): Promise<SmokeResult> {
  const check = 'no-token';
  const path = shown(run.apiBase, PROTECTED_PATH);
  const answer = await get(`${run.apiBase}${PROTECTED_PATH}`, keyHeaders(run), run.timeoutMs);
  if (answer.status === 401) {
    return {
      check,
      status: 'ok',
      detail: `GET ${path} without a token: 401 ${who401(run, answer)}`,
    };
  }
  return {
    check,
    status: 'FAIL',
    detail:
      `GET ${path} without a token answered ${answer.status}, not 401` +
      (answer.status >= 300 && answer.status < 400
        ? ` (a redirect to ${answer.headers.get('location') ?? '?'}: an API must answer 401, set unauthenticatedClientAction Return401)`
        : answer.status < 300
          ? ': a protected route is open to anonymous callers'
          : `: ${clip(answer.text)}`),
  };
}

async function checkForgedPrincipal(run: Run): Promise<SmokeResult> {
  const check = 'forged-principal';
  const path = shown(run.apiBase, PROTECTED_PATH);
  const answer = await get(
    `${run.apiBase}${PROTECTED_PATH}`,
    { ...keyHeaders(run), [PRINCIPAL_HEADER]: FORGED_ADMIN },
    run.timeoutMs,
  );
  if (answer.status === 401) {
    return {
      check,
      status: 'ok',
      detail: `GET ${path} with a hand-made DirectoryAdmin ${PRINCIPAL_HEADER} and no token: 401 ${who401(run, answer)}`,
    };
  }
  return {
    check,
    status: 'FAIL',
    detail:
      answer.status < 300
        ? `a hand-made DirectoryAdmin ${PRINCIPAL_HEADER} without a token was believed (GET ${path} answered ${answer.status}): ` +
          'nothing validates callers here — App Service authentication is not in front of the app, or this ' +
          'host trusts hand-sent principals (TRUST_LOCAL_PRINCIPAL_HEADER)'
        : `GET ${path} with a hand-made ${PRINCIPAL_HEADER} and no token answered ${answer.status}, not 401: ${clip(answer.text)}`,
  };
}

async function checkMe(run: Run): Promise<SmokeResult> {
  const check = 'me';
  const path = shown(run.apiBase, '/me');
  if (!run.token) {
    return {
      check,
      status: 'skip',
      detail: `no token given (--token or SMOKE_TOKEN): GET ${path} as a signed-in caller not checked`,
    };
  }
  const answer = await get(
    `${run.apiBase}/me`,
    { ...keyHeaders(run), authorization: `Bearer ${run.token}` },
    run.timeoutMs,
  );
  if (answer.status !== 200) {
    const why: Record<number, string> = {
      401: 'the token was refused: check it is for this API (audience api://<authClientId> or the client id), from the configured tenant, and not expired',
      403: 'the caller was let in but refused',
      404: 'the app has no GET /me route (an older deployment?)',
    };
    return {
      check,
      status: 'FAIL',
      detail: `GET ${path} with the token answered ${answer.status}: ${why[answer.status] ?? clip(answer.text)}`,
    };
  }
  const body = parseJson(answer.text) as
    { userId?: unknown; name?: unknown; roles?: unknown; employee?: unknown } | undefined;
  if (!body || !Array.isArray(body.roles) || !body.roles.every((r) => typeof r === 'string')) {
    return {
      check,
      status: 'FAIL',
      detail: `GET ${path} answered 200 without a roles list: ${clip(answer.text)}`,
    };
  }
  const who = typeof body.name === 'string' ? body.name : String(body.userId ?? 'unnamed');
  const roles = body.roles.length > 0 ? body.roles.join(', ') : '(none)';
  const employee = body.employee as { department?: string; employeeId?: string } | undefined;
  return {
    check,
    status: 'ok',
    detail: `GET ${path} 200 as ${who}; roles: ${roles}${employee ? `; employee ${employee.department}/${employee.employeeId}` : ''}`,
  };
}

async function checkHostEndpoints(run: Run): Promise<SmokeResult> {
  return { check: 'host-endpoints', ...(await hostEndpointsRefused(run, keyHeaders(run))) };
}

async function checkOpenApi(run: Run): Promise<SmokeResult> {
  const check = 'openapi';
  const path = shown(run.apiBase, '/openapi.json');
  const answer = await get(`${run.apiBase}/openapi.json`, {}, run.timeoutMs);
  if (answer.status !== 200) {
    return {
      check,
      status: 'FAIL',
      detail: `GET ${path} answered ${answer.status} (it must load anonymously: excludedPaths in infra/app/auth-settings.json)`,
    };
  }
  const document = parseJson(answer.text) as { openapi?: unknown; paths?: object } | undefined;
  if (!document || typeof document !== 'object') {
    return { check, status: 'FAIL', detail: `GET ${path} is not JSON: ${clip(answer.text)}` };
  }
  const errors = await validateOpenApi(document, run.timeoutMs);
  if (errors) {
    return {
      check,
      status: 'FAIL',
      detail: `GET ${path} is not a valid OpenAPI document: ${errors}`,
    };
  }
  return {
    check,
    status: 'ok',
    detail: `GET ${path} 200, a valid OpenAPI ${String(document.openapi)} document with ${Object.keys(document.paths ?? {}).length} paths`,
  };
}

async function checkConsole(run: Run): Promise<SmokeResult> {
  const check = 'console';
  const pageUrl = `${run.apiBase}/console/`;
  const path = shown(run.apiBase, '/console/');
  // Anonymous, with no key, as a browser that has not signed in loads it.
  const page = await get(pageUrl, {}, run.timeoutMs);
  const type = page.headers.get('content-type') ?? '';
  if (page.status !== 200 || !type.startsWith('text/html')) {
    return {
      check,
      status: 'FAIL',
      detail: `GET ${path} answered ${page.status} ${type || '(no content type)'}, not 200 HTML${page.status === 401 ? ': /api/console/* is not in excludedPaths (infra/app/auth-settings.json)' : ''}`,
    };
  }
  const assets = consoleAssetUrls(page.text, pageUrl);
  if (assets.length === 0) {
    return { check, status: 'FAIL', detail: `GET ${path} references no script or stylesheet` };
  }
  const failed: string[] = [];
  for (const asset of assets) {
    const answer = await get(asset, {}, run.timeoutMs);
    if (answer.status !== 200) failed.push(`${new URL(asset).pathname} ${answer.status}`);
  }
  const names = assets.map((asset) => new URL(asset).pathname.split('/').pop()).join(', ');
  return failed.length > 0
    ? {
        check,
        status: 'FAIL',
        detail: `the console's files do not load before sign-in: ${failed.join(', ')}${failed.some((f) => f.endsWith(' 401')) ? ' (/api/console/* must be in excludedPaths)' : ''}`,
      }
    : { check, status: 'ok', detail: `GET ${path} 200 HTML, and its ${names} 200 before sign-in` };
}

/**
 * Runs every smoke check against the app at `options.baseUrl`, in order: health, a protected
 * route without a token, the same with a forged admin principal, `GET /me` with the token (skipped
 * without one), the OpenAPI document, and the console's page and files. A check that throws (no
 * answer in time, connection refused) is a failure with the reason; this function itself does not
 * throw for an unreachable app.
 *
 * This is the entry point for callers other than the command line (tests, the Azure-mode front):
 * `runSmokeChecks({ baseUrl, token })`.
 *
 * @throws {TypeError} when `options.baseUrl` is not an absolute http(s) URL.
 */
export async function runSmokeChecks(options: SmokeOptions): Promise<SmokeReport> {
  const run: Run = {
    apiBase: apiBaseUrl(options.baseUrl),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    functionKey: options.functionKey || undefined,
    token: options.token || undefined,
  };
  const checks: Record<SmokeCheckName, () => Promise<SmokeResult>> = {
    health: () => checkHealth(run, options.waitMs ?? 0),
    'no-token': () => checkNoToken(run),
    'forged-principal': () => checkForgedPrincipal(run),
    me: () => checkMe(run),
    'host-endpoints': () => checkHostEndpoints(run),
    openapi: () => checkOpenApi(run),
    console: () => checkConsole(run),
  };
  const results: SmokeResult[] = [];
  for (const check of SMOKE_CHECKS) {
    try {
      results.push(await checks[check]());
    } catch (error) {
      results.push({ check, status: 'FAIL', detail: (error as Error).message });
    }
  }
  return {
    apiBase: run.apiBase,
    results,
    passed: results.every((result) => result.status !== 'FAIL'),
  };
}
