/**
 * The smoke check (tools/smoke/checks.ts, `npm run smoke`) against the local host, in the two
 * set-ups it must refuse:
 *
 * - the local mode (`TRUST_LOCAL_PRINCIPAL_HEADER=true`, no Azure marker): a hand-made admin
 *   principal without a token is believed, so the smoke fails on that line — while health, the
 *   anonymous 401, the API description and the console pass;
 * - Flex Consumption's environment (`WEBSITE_SKU=FlexConsumption`, `CONTAINER_NAME`,
 *   `LEGION_SERVICE_HOST`) without App Service authentication (no `WEBSITE_AUTH_ENABLED`): the
 *   app fails closed and health says `"auth":"missing"`, so the smoke fails on health.
 *
 * and then "as deployed" (test/support/azureMode.ts: the host with Flex Consumption's environment
 * behind the imitation of App Service authentication):
 *
 * - with authentication on and an admin token, every check passes — `me` included, not skipped;
 *   the local host enforces no function keys, so the anonymous 401s are shown to be the platform's
 *   own refusal, not a missing key's; and the signed-in admin is refused at the host's own
 *   endpoints (`host-endpoints`), which want the host key as Azure wants the system key;
 * - with authentication switched off in front and in the app's settings, the smoke fails on health
 *   (`"auth":"missing"`) and on the token, which nothing validates any more.
 *
 * The command line is run as a child process for its output and exit code.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  PROTECTED_PATH,
  runSmokeChecks,
  SMOKE_CHECKS,
  type SmokeCheckName,
  type SmokeReport,
  type SmokeResult,
  type SmokeStatus,
} from '../../../tools/smoke/checks';
import { expectPlatformRefusal, startAzureMode } from '../../support/azureMode';
import { PROJECT_ROOT, startHost } from '../../support/host';
import { WAIT_MS } from '../../support/waits';
import { send } from '../acceptance/client';

const run = promisify(execFile);

/** The result of one check, by name. */
function result(report: SmokeReport, check: string): SmokeResult {
  const found = report.results.find((r) => r.check === check);
  if (!found) throw new Error(`no result for check ${check}: ${JSON.stringify(report.results)}`);
  return found;
}

const statuses = (report: SmokeReport): Record<string, string> =>
  Object.fromEntries(report.results.map((r) => [r.check, r.status]));

/** Every check's status: `ok`, but for those given. */
const allOkBut = (
  others: Partial<Record<SmokeCheckName, SmokeStatus>> = {},
): Record<string, string> => ({
  ...Object.fromEntries(SMOKE_CHECKS.map((check) => [check, 'ok'])),
  ...others,
});

/** One app the smoke runs against: started, smoked and stopped around a describe block's tests. */
interface SmokeRun<App> {
  app: App;
  /** The token the smoke sent, when the run has one. */
  token?: string;
  report: SmokeReport;
}

/**
 * Starts the app (`start`) before the block's tests, runs every smoke check against it (with a
 * token from `tokenOf`, when given) and stops it after them.
 */
function smokeRun<App extends { baseUrl: string; stop(): Promise<void> }>(
  start: () => Promise<App>,
  tokenOf?: (app: App) => Promise<string>,
): SmokeRun<App> {
  const state = {} as SmokeRun<App>;
  beforeAll(async () => {
    state.app = await start();
    if (tokenOf) state.token = await tokenOf(state.app);
    state.report = await runSmokeChecks({
      baseUrl: state.app.baseUrl,
      ...(state.token ? { token: state.token } : {}),
      timeoutMs: 20_000,
    });
  });
  afterAll(async () => {
    await state.app?.stop();
  });
  return state;
}

/** The smoke's command line as a child process: its exit code and output lines. */
async function smokeCli(
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<{ code: number; lines: string[] }> {
  const outcome = await run(
    process.execPath,
    ['-r', '@swc-node/register', 'tools/smoke.ts', '--base-url', baseUrl],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SMOKE_TOKEN: '', SMOKE_FUNCTION_KEY: '', ...env },
      timeout: WAIT_MS,
    },
  ).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code?: number; stdout?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout,
    }),
  );
  return { code: outcome.code, lines: (outcome.stdout ?? '').trim().split('\n') };
}

/** `ok health:`, `FAIL me:`...: each check line's status and name. */
const checkLines = (lines: string[]): string[] =>
  lines.slice(1, -1).map((line) => line.split(' ', 2).join(' '));

beforeAll(() => {
  // The console check loads dist/console/, which `npm run build` writes.
  const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
});

describe('against the local host in its local mode (hand-sent principals believed)', () => {
  const smoke = smokeRun(() => startHost({ env: { TRUST_LOCAL_PRINCIPAL_HEADER: 'true' } }));

  it('fails, on the forged principal, with a line that says it was believed', () => {
    expect(smoke.report.passed).toBe(false);
    const forged = result(smoke.report, 'forged-principal');
    expect(forged.status).toBe('FAIL');
    expect(forged.detail).toMatch(/hand-made DirectoryAdmin x-ms-client-principal .* was believed/);
    expect(forged.detail).toContain('answered 200');
  });

  it('passes the checks the local mode does satisfy, and skips GET /me without a token', () => {
    expect(statuses(smoke.report)).toEqual(
      allOkBut({ 'forged-principal': 'FAIL', me: 'skip', 'host-endpoints': 'skip' }),
    );
    // No principal at all is refused by the app itself, in its JSON error shape.
    expect(result(smoke.report, 'no-token').detail).toContain('401 from the app (Unauthenticated)');
    expect(result(smoke.report, 'openapi').detail).toMatch(/valid OpenAPI 3\.1\.\d+ document/);
    expect(result(smoke.report, 'console').detail).toMatch(
      /app\.js, styles\.css 200 before sign-in/,
    );
    expect(result(smoke.report, 'me').detail).toContain('no token given');
  });

  it('prints one line per check and exits 1 from the command line', async () => {
    const { code, lines } = await smokeCli(smoke.app.baseUrl);
    expect(code).toBe(1);
    expect(lines[0]).toBe(`Smoke check of ${smoke.app.baseUrl} (read-only)`);
    // (Two closing lines here: the count and the note on the skipped signed-in checks.)
    expect(checkLines(lines.slice(0, -1))).toEqual([
      'ok health:',
      'ok no-token:',
      'FAIL forged-principal:',
      'skip me:',
      'skip host-endpoints:',
      'ok openapi:',
      'ok console:',
    ]);
    expect(lines.at(-2)).toBe('FAILED: 4 ok, 1 failed, 2 skipped');
    // Without a token the signed-in check is skipped, and the last line says so.
    expect(lines.at(-1)).toMatch(/^NOTE: no token .*the signed-in checks were SKIPPED, not passed/);
  });

  it('exits 2 with the usage on a wrong command line', async () => {
    const failure = (await run(
      process.execPath,
      ['-r', '@swc-node/register', 'tools/smoke.ts', '--base-url', 'ftp://example.org'],
      { cwd: PROJECT_ROOT, timeout: WAIT_MS },
    ).then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('--base-url must be an http(s) URL');
    expect(failure?.stderr).toContain('usage: smoke --base-url URL');
  });
});

describe("against the local host with Flex Consumption's environment and no App Service authentication", () => {
  const smoke = smokeRun(() =>
    startHost({
      env: {
        WEBSITE_SKU: 'FlexConsumption',
        CONTAINER_NAME: 'x',
        LEGION_SERVICE_HOST: 'x',
        // Empty counts as unset: whatever the test process carries, authentication is off here.
        WEBSITE_AUTH_ENABLED: '',
      },
    }),
  );

  it('fails on health, which says authentication is missing', () => {
    expect(smoke.report.passed).toBe(false);
    const health = result(smoke.report, 'health');
    expect(health.status).toBe('FAIL');
    expect(health.detail).toContain('"auth": "missing"');
  });

  it('still sees every protected call refused: the app fails closed, forged principal included', () => {
    expect(statuses(smoke.report)).toEqual(
      allOkBut({ health: 'FAIL', me: 'skip', 'host-endpoints': 'skip' }),
    );
    expect(result(smoke.report, 'forged-principal').detail).toContain(
      '401 from the app (Unauthenticated)',
    );
  });
});

describe('as deployed: the Azure-mode front with App Service authentication on', () => {
  const smoke = smokeRun(
    () => startAzureMode(),
    (app) =>
      app.tokenFor({
        userId: 'smoke-admin',
        name: 'Smoke Admin',
        roles: ['DirectoryAdmin'],
      }),
  );

  it('passes every check, none skipped: the token reaches GET /me as the admin', () => {
    expect(smoke.report.passed).toBe(true);
    expect(statuses(smoke.report)).toEqual(allOkBut());
    expect(result(smoke.report, 'me').detail).toBe(
      'GET /api/me 200 as Smoke Admin; roles: DirectoryAdmin',
    );
    expect(result(smoke.report, 'health').detail).toContain('auth not missing');
  });

  it('asks whether a signed-in caller reaches the host’s own endpoints without the key: it does not', async () => {
    expect(result(smoke.report, 'host-endpoints').detail).toMatch(
      /with the token but no system or master key: refused/,
    );
    // With the key printed at startup (the system key's stand-in) they answer: the check asks the
    // right question of this host, not one a closed port would answer too.
    const status = await fetch(`${smoke.app.origin}/admin/host/status`, {
      headers: { authorization: `Bearer ${smoke.token!}`, 'x-functions-key': smoke.app.host.key! },
    });
    expect(status.status).toBe(200);
  });

  it('sees the 401s without a token come from in front of the app, and they are the platform’s own', async () => {
    for (const check of ['no-token', 'forged-principal']) {
      // Not the app's JSON error: something in front answered, and without a key the smoke cannot
      // tell App Service authentication from the Functions host's key check...
      expect(result(smoke.report, check).detail).toContain('401 from in front of the app');
    }
    // ...but the local host checks no keys, so here it can only be the front: App Service
    // authentication's 401 (Bearer challenge, plain text), to a forged principal too.
    expectPlatformRefusal(
      await send(smoke.app.baseUrl, 'GET', PROTECTED_PATH, { principal: null }),
    );
    // (send's default caller is a hand-made admin principal header, sent without a token.)
    expectPlatformRefusal(await send(smoke.app.baseUrl, 'GET', PROTECTED_PATH));
  });

  it('exits 0 from the command line, with the token and a function key as the postdeploy hook passes them', async () => {
    // The local host enforces no function keys: any key stands in for the deployment's, and with
    // one the smoke names the 401's origin (shown to be the platform's above).
    const { code, lines } = await smokeCli(smoke.app.origin, {
      SMOKE_TOKEN: smoke.token!,
      SMOKE_FUNCTION_KEY: 'local-hosts-check-no-keys',
    });
    expect(lines.at(-1)).toBe('PASSED: 7 ok, 0 failed, 0 skipped');
    expect(code).toBe(0);
    expect(lines[0]).toBe(`Smoke check of ${smoke.app.baseUrl} (read-only)`);
    expect(checkLines(lines)).toEqual([
      'ok health:',
      'ok no-token:',
      'ok forged-principal:',
      'ok me:',
      'ok host-endpoints:',
      'ok openapi:',
      'ok console:',
    ]);
    expect(lines.find((line) => line.startsWith('ok no-token:'))).toContain(
      '401 from App Service authentication',
    );
  });
});

describe('as deployed but with App Service authentication switched off', () => {
  const smoke = smokeRun(
    () =>
      startAzureMode({
        authSettings: { platform: { enabled: false } },
        env: { WEBSITE_AUTH_ENABLED: '' },
      }),
    (app) => app.tokenFor({ userId: 'smoke-admin', roles: ['DirectoryAdmin'] }),
  );

  it('fails on health, which says authentication is missing, and on the token nothing validates', () => {
    expect(smoke.report.passed).toBe(false);
    expect(result(smoke.report, 'health').detail).toContain('"auth": "missing"');
    expect(result(smoke.report, 'me').detail).toContain('GET /api/me with the token answered 401');
    expect(statuses(smoke.report)).toEqual(allOkBut({ health: 'FAIL', me: 'FAIL' }));
  });

  it('names the forged principal: it reaches the app, which fails closed and refuses it itself', () => {
    expect(result(smoke.report, 'forged-principal').detail).toBe(
      'GET /api/departments with a hand-made DirectoryAdmin x-ms-client-principal and no token: 401 from the app (Unauthenticated)',
    );
  });
});
