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
 * The passing run needs a front that validates tokens (the Azure-mode front); it calls
 * `runSmokeChecks({ baseUrl, token })` the same way. The command line is run once, as a child
 * process, for its output and exit code.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runSmokeChecks, type SmokeReport, type SmokeResult } from '../../../tools/smoke/checks';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';

const run = promisify(execFile);

/** The result of one check, by name. */
function result(report: SmokeReport, check: string): SmokeResult {
  const found = report.results.find((r) => r.check === check);
  if (!found) throw new Error(`no result for check ${check}: ${JSON.stringify(report.results)}`);
  return found;
}

const statuses = (report: SmokeReport): Record<string, string> =>
  Object.fromEntries(report.results.map((r) => [r.check, r.status]));

beforeAll(() => {
  // The console check loads dist/console/, which `npm run build` writes.
  const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
});

describe('against the local host in its local mode (hand-sent principals believed)', () => {
  let host: RunningHost;
  let report: SmokeReport;

  beforeAll(async () => {
    host = await startHost({ env: { TRUST_LOCAL_PRINCIPAL_HEADER: 'true' } });
    report = await runSmokeChecks({ baseUrl: host.baseUrl, timeoutMs: 20_000 });
  }, 90_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('fails, on the forged principal, with a line that says it was believed', () => {
    expect(report.passed).toBe(false);
    const forged = result(report, 'forged-principal');
    expect(forged.status).toBe('FAIL');
    expect(forged.detail).toMatch(/hand-made DirectoryAdmin x-ms-client-principal .* was believed/);
    expect(forged.detail).toContain('answered 200');
  });

  it('passes the checks the local mode does satisfy, and skips GET /me without a token', () => {
    expect(statuses(report)).toEqual({
      health: 'ok',
      'no-token': 'ok',
      'forged-principal': 'FAIL',
      me: 'skip',
      openapi: 'ok',
      console: 'ok',
    });
    // No principal at all is refused by the app itself, in its JSON error shape.
    expect(result(report, 'no-token').detail).toContain('401 from the app (Unauthenticated)');
    expect(result(report, 'openapi').detail).toMatch(/valid OpenAPI 3\.1\.\d+ document/);
    expect(result(report, 'console').detail).toMatch(/app\.js, styles\.css 200 before sign-in/);
    expect(result(report, 'me').detail).toContain('no token given');
  });

  it('prints one line per check and exits 1 from the command line', async () => {
    const cli = run(
      process.execPath,
      ['-r', '@swc-node/register', 'tools/smoke.ts', '--base-url', host.baseUrl],
      { cwd: PROJECT_ROOT, env: { ...process.env, SMOKE_TOKEN: '' }, timeout: 60_000 },
    );
    const failure = (await cli.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stdout?: string } | undefined;
    expect(failure?.code).toBe(1);
    const lines = failure!.stdout!.trim().split('\n');
    expect(lines[0]).toBe(`Smoke check of ${host.baseUrl} (read-only)`);
    expect(lines.slice(1, -1).map((line) => line.split(' ', 2).join(' '))).toEqual([
      'ok health:',
      'ok no-token:',
      'FAIL forged-principal:',
      'skip me:',
      'ok openapi:',
      'ok console:',
    ]);
    expect(lines.at(-1)).toBe('FAILED: 4 ok, 1 failed, 1 skipped');
  }, 90_000);

  it('exits 2 with the usage on a wrong command line', async () => {
    const failure = (await run(
      process.execPath,
      ['-r', '@swc-node/register', 'tools/smoke.ts', '--base-url', 'ftp://example.org'],
      { cwd: PROJECT_ROOT, timeout: 60_000 },
    ).then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined;
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('--base-url must be an http(s) URL');
    expect(failure?.stderr).toContain('usage: smoke --base-url URL');
  }, 90_000);
});

describe("against the local host with Flex Consumption's environment and no App Service authentication", () => {
  let host: RunningHost;
  let report: SmokeReport;

  beforeAll(async () => {
    host = await startHost({
      env: {
        WEBSITE_SKU: 'FlexConsumption',
        CONTAINER_NAME: 'x',
        LEGION_SERVICE_HOST: 'x',
        // Empty counts as unset: whatever the test process carries, authentication is off here.
        WEBSITE_AUTH_ENABLED: '',
      },
    });
    report = await runSmokeChecks({ baseUrl: host.baseUrl, timeoutMs: 20_000 });
  }, 90_000);
  afterAll(async () => {
    await host?.stop();
  });

  it('fails on health, which says authentication is missing', () => {
    expect(report.passed).toBe(false);
    const health = result(report, 'health');
    expect(health.status).toBe('FAIL');
    expect(health.detail).toContain('"auth": "missing"');
  });

  it('still sees every protected call refused: the app fails closed, forged principal included', () => {
    expect(statuses(report)).toEqual({
      health: 'FAIL',
      'no-token': 'ok',
      'forged-principal': 'ok',
      me: 'skip',
      openapi: 'ok',
      console: 'ok',
    });
    expect(result(report, 'forged-principal').detail).toContain(
      '401 from the app (Unauthenticated)',
    );
  });
});
