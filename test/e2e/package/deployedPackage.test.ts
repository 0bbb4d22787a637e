/**
 * The deployment package (`npm run package`, tools/package) as Azure gets it: built, zipped,
 * unpacked into a folder with no node_modules above it (so nothing resolves from the checkout),
 * within issue 44's limits, and run by the local host from that folder alone: health answers, a
 * create works, and its trace crosses HTTP and storage (the instrumented packages stay loadable);
 * the Azure Monitor setup, the one Azure runs, starts from the bundle too (its export to
 * Application Insights is not checked here).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { buildPackage, EXTERNAL_PACKAGES, PACKAGE_LIMITS } from '../../../tools/package/build';
import { filesUnder, unzipTo } from '../../../tools/package/zip';
import { globFiles } from '../../../tools/host/load/glob';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { startOtlpCollector, type OtlpCollector } from '../../support/otlpCollector';
import { asAdmin } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

const EMPLOYEES_TABLE = uniqueTableName('EmpPkg');
const EMPLOYEE_INDEX_TABLE = uniqueTableName('IdxPkg');
let work: string;
let app: string;
let zipFiles: string[];

/** Settings of a host running the package: its own queues and tables on the shared Azurite. */
function settings(extra: Record<string, string>): Record<string, string> {
  return {
    EMPLOYEES_TABLE,
    EMPLOYEE_INDEX_TABLE,
    ARCHIVE_QUEUE: uniqueName('archive'),
    INDEX_QUEUE: uniqueName('index'),
    LOG_QUEUE: uniqueName('logs'),
    ...extra,
  };
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'package-'));
  const built = await buildPackage(path.join(work, 'out'));
  app = path.join(work, 'app');
  zipFiles = unzipTo(built.zip, app);
}, 300_000);
afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await testClients().table(EMPLOYEES_TABLE).deleteTable();
  await testClients().table(EMPLOYEE_INDEX_TABLE).deleteTable();
});

it('is within 60 MB and 5,000 files, and holds what the host loads', () => {
  const files = filesUnder(app);
  expect(files).toEqual(zipFiles.sort());
  const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(app, file)).size, 0);
  expect(files.length).toBeLessThanOrEqual(PACKAGE_LIMITS.files);
  expect(bytes).toBeLessThanOrEqual(PACKAGE_LIMITS.bytes);
  expect(fs.readFileSync(path.join(app, 'host.json'), 'utf8')).toBe(
    fs.readFileSync(path.join(PROJECT_ROOT, 'host.json'), 'utf8'),
  );
  const manifest = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')) as {
    main: string;
    dependencies: Record<string, string>;
    scripts?: unknown;
  };
  // v4 model: the worker loads what `main` finds, here the one bundle.
  expect(globFiles(app, manifest.main)).toEqual(['dist/functions/app.js']);
  expect(Object.keys(manifest.dependencies).sort()).toEqual([...EXTERNAL_PACKAGES].sort());
  expect(manifest.scripts).toBeUndefined();
  expect(files).toEqual(expect.arrayContaining(['dist/console/index.html', 'dist/console/app.js']));
  // No folder above the package has node_modules: what the app requires comes from the package.
  for (let dir = path.dirname(app); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
  }
});

it('requires at run time only builtins, its node_modules and modules it may go without', () => {
  const bundle = fs.readFileSync(path.join(app, 'dist/functions/app.js'), 'utf8');
  const names = new Set([...bundle.matchAll(/\brequire\("([^"./][^"]*)"\)/g)].map((m) => m[1]!));
  const optional = new Set([
    '@azure/functions-core', // the worker's (the local host's) own module
    '@opentelemetry/instrumentation/build/src/autoLoaderUtils', // the distro's statsbeat, in a try
  ]);
  const unresolved = [...names].filter((name) => {
    if (builtinModules.includes(name.replace(/^node:/, '').split('/')[0]!)) return false;
    if (optional.has(name)) return false;
    const top = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!;
    return !fs.existsSync(path.join(app, 'node_modules', top, 'package.json'));
  });
  expect(unresolved).toEqual([]);
  expect([...names]).toEqual(expect.arrayContaining(EXTERNAL_PACKAGES));
});

describe('run by the local host from the unpacked zip', () => {
  let collector: OtlpCollector;
  let host: RunningHost;
  beforeAll(async () => {
    collector = await startOtlpCollector();
    host = await startHost({
      appRoot: app,
      env: settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }),
    });
  });
  afterAll(async () => {
    await host?.stop();
    await collector?.close();
  });

  it('answers health, serves the console, creates an employee, traced across HTTP and storage', async () => {
    expect((await fetch(`${host.baseUrl}/health`)).status).toBe(200);
    // The console's files, found next to the bundle (dist/console beside dist/functions).
    const page = await fetch(`${host.baseUrl}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    expect((await fetch(`${host.baseUrl}/console/app.js`)).status).toBe(200);
    const send = (method: string, route: string, body: unknown) =>
      fetch(
        `${host.baseUrl}${route}`,
        asAdmin({
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    expect((await send('PUT', '/departments/Packaged', {})).status).toBe(201);
    const created = await send('POST', '/departments/Packaged/employees', {
      employeeId: '000301',
      firstName: 'Ada',
      lastName: 'Bundle',
      email: 'ada.bundle@example.com',
    });
    expect(created.status).toBe(201);
    expect(host.output()).not.toMatch(/Telemetry is off/);

    const deadline = Date.now() + WAIT_MS;
    const inTrace = () => {
      const request = collector.spans.find((s) => s.attributes['faas.name'] === 'createEmployee');
      return request ? collector.spans.filter((s) => s.traceId === request.traceId) : [];
    };
    // The Azure SDK's span of a storage call (core-tracing, external) and, below it, the
    // outgoing HTTP request (the http instrumentation), both in the create's trace.
    const crossed = () => {
      const spans = inTrace();
      const sdk = spans.filter((s) => s.scope.startsWith('@azure/'));
      const outgoing = spans.find(
        (s) =>
          s.scope === '@opentelemetry/instrumentation-http' &&
          s.kind === 3 &&
          spans.some(
            (p) =>
              p.spanId === s.parentSpanId && (sdk.includes(p) || p.scope.startsWith('@azure/')),
          ),
      );
      return sdk.length > 0 && outgoing !== undefined;
    };
    while (!crossed()) {
      if (Date.now() > deadline) {
        throw new Error(
          `No storage spans in the create's trace: ${inTrace()
            .map((s) => `${s.scope}:${s.name}`)
            .join(', ')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});

it('starts the Azure Monitor distro (the setup Azure runs) from the bundle', async () => {
  const host = await startHost({
    appRoot: app,
    env: settings({
      // Nothing listens there: this checks that the distro loads and starts from the bundle.
      APPLICATIONINSIGHTS_CONNECTION_STRING:
        'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=http://127.0.0.1:9/',
      APPLICATIONINSIGHTS_STATSBEAT_DISABLED: 'true',
    }),
  });
  try {
    expect((await fetch(`${host.baseUrl}/health`)).status).toBe(200);
    expect(host.output()).not.toMatch(/Telemetry is off/);
  } finally {
    await host.stop();
  }
});
