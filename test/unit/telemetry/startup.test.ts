/**
 * functions/shared/startup.ts, the first import of every entry point, starts telemetry before the
 * storage SDKs and `http`/`https` are loaded by the app (the Functions OpenTelemetry guide's
 * order): it loads none of them itself, and what loads after it is instrumented.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/** Requires startup.ts in a fresh Node process and reports what it loaded and patched. */
function afterStartup(env: Record<string, string>): { sdks: string[]; httpsPatched: boolean } {
  const script = `
    require('./functions/shared/startup');
    const sdks = Object.keys(require.cache)
      .filter((file) => /@azure[\\\\/](storage-|data-tables|core-rest-pipeline)|HttpClient/.test(file));
    const https = require('node:https');
    console.log(JSON.stringify({ sdks, httpsPatched: typeof https.request.__wrapped === 'boolean' }));
  `;
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`startup failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as {
    sdks: string[];
    httpsPatched: boolean;
  };
}

it('starts OpenTelemetry before any storage SDK or HTTP client is loaded', () => {
  const result = afterStartup({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  });
  expect(result.sdks).toEqual([]);
  // The HTTP instrumentation wraps https.request for the storage SDKs' outgoing calls.
  expect(result.httpsPatched).toBe(true);
});

it('loads nothing of the kind with telemetry off either', () => {
  const result = afterStartup({});
  expect(result.sdks).toEqual([]);
  expect(result.httpsPatched).toBe(false);
});
