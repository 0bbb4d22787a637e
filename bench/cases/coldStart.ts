/**
 * Cold start (issue 44): the deployment package (`npm run package`, unpacked from its zip into a
 * folder with no node_modules above it) and today's unbundled layout (dist/functions/*.js over
 * the project's node_modules), each started on the built local host {@link RUNS} times with
 * telemetry on as in Azure (the Azure Monitor distro, exporting to a local sink): process start
 * → first 200 of `GET /api/health`, and → first 201 of an employee create sent right after it.
 * p50 and max of each (with five runs the p95 is the max). Before the measured runs, one run of
 * each layout (not counted) creates the department and warms the file cache for both alike.
 * Also the package's size beside today's production tree (pruned node_modules and dist).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../tools/azurite';
import { withoutPlatformMarkers } from '../../tools/host/launch';
import { buildPackage, PACKAGE_LIMITS, type BuiltPackage } from '../../tools/package/build';
import { filesUnder, unzipTo } from '../../tools/package/zip';
import { atMost, judge, num, type GoalVerdict } from '../goals';
import { adminPrincipal, asPrincipal } from '../principals';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const HOST_CLI = path.join(PROJECT_ROOT, 'dist', 'tools', 'host', 'cli.js');
/** Measured starts of each layout. */
export const RUNS = 5;
/** Flex Consumption gives a worker this long to initialise. */
export const FLEX_INIT_MS = 30_000;
const progress = (line: string): void => void process.stdout.write(`    ${line}\n`);

/** One start: ms from spawn to the first 200 of health, and to the create's 201. */
export interface StartTimes {
  healthMs: number;
  createMs: number;
}

/** The median (of an odd count, the middle value) and the largest of `values`. */
export function p50AndMax(values: readonly number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const p50 = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { p50, max: sorted.at(-1)! };
}

/**
 * The goal of one measure (health or create): the package starts no slower than today's layout
 * (p50, within 10% for noise). Its slowest start is reported beside Flex Consumption's 30 s for a
 * worker to initialise, not judged: the local host on a shared machine is not Azure's worker.
 */
export function coldStartGoal(
  what: string,
  packaged: readonly number[],
  unbundled: readonly number[],
): GoalVerdict {
  const p = p50AndMax(packaged);
  const u = p50AndMax(unbundled);
  return judge(
    `${what}: packaged p50 ≤ 1.1× the unbundled layout's`,
    [atMost('packaged p50 / unbundled p50', p.p50 / u.p50, 1.1, '×')],
    `packaged max ${num(p.max)} ms beside Flex's ${num(FLEX_INIT_MS)} ms worker budget (not judged locally)`,
  );
}

/** Accepts whatever the Azure Monitor exporter sends, as the ingestion endpoint would. */
async function ingestionSink(env: BenchEnv): Promise<string> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"itemsReceived":0,"itemsAccepted":0,"errors":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env.defer(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** The layout's host arguments: the package folder by its `main`, or dist/functions. */
type Layout = { label: string; args: string[] };

/** Starts the host once and times the first answers. */
async function startOnce(
  env: BenchEnv,
  layout: Layout,
  settings: Record<string, string>,
  employeeId: string,
  prepare = false,
): Promise<StartTimes> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api`;
  const started = performance.now();
  const child = spawn(process.execPath, [HOST_CLI, ...layout.args, '--port', String(port)], {
    cwd: PROJECT_ROOT,
    env: {
      ...withoutPlatformMarkers(process.env).env,
      ...settings,
      HOST_LOG_LEVEL: 'warning',
      TRUST_LOCAL_PRINCIPAL_HEADER: 'true',
      AzureFunctionsWebHost__hostid: `bench-${randomBytes(6).toString('hex')}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => void (errors = (errors + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = started + 120_000;
    let healthMs: number | undefined;
    while (healthMs === undefined) {
      if (child.exitCode !== null || performance.now() > deadline || env.signal.aborted) {
        throw new Error(`${layout.label}: no 200 from /api/health. ${errors}`);
      }
      const status = await fetch(`${base}/health`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) healthMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const send = (method: string, route: string, body: unknown) =>
      fetch(
        `${base}${route}`,
        asPrincipal(adminPrincipal, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    if (prepare) await send('PUT', '/departments/ColdStart', {});
    const created = await send('POST', '/departments/ColdStart/employees', {
      employeeId,
      firstName: 'Cold',
      lastName: `Start${employeeId}`,
      email: `cold.${employeeId}@example.com`,
    });
    if (created.status !== 201) {
      throw new Error(`${layout.label}: create answered ${created.status}. ${errors}`);
    }
    return { healthMs, createMs: performance.now() - started };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

function measurement(label: string, times: readonly number[]): Measurement {
  const { p50, max } = p50AndMax(times);
  const wallMs = times.reduce((a, b) => a + b, 0);
  return {
    label,
    wallMs: Math.round(wallMs),
    operations: times.length,
    opsPerSecond: Math.round((times.length / wallMs) * 1000 * 100) / 100,
    requests: 0,
    bytes: 0,
    p50Ms: Math.round(p50),
    p95Ms: Math.round(max),
  };
}

/** Files and bytes of today's production tree: `npm ls --omit=dev` folders plus dist/. */
function productionTree(): { files: number; bytes: number } {
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  }).stdout;
  const folders = listed.split('\n').filter((line) => line.includes(`node_modules${path.sep}`));
  const count = (dir: string): { files: number; bytes: number } =>
    filesUnder(dir)
      .filter((file) => !file.split('/').includes('node_modules'))
      .reduce(
        (sum, file) => ({
          files: sum.files + 1,
          bytes: sum.bytes + fs.statSync(path.join(dir, file)).size,
        }),
        { files: 0, bytes: 0 },
      );
  return [...folders.map((dir) => dir.trim()), path.join(PROJECT_ROOT, 'dist')]
    .filter((dir) => fs.existsSync(dir))
    .map(count)
    .reduce((a, b) => ({ files: a.files + b.files, bytes: a.bytes + b.bytes }));
}

/** The hosts' settings: fresh names, and telemetry exported as in Azure to a local sink. */
async function hostSettings(env: BenchEnv): Promise<Record<string, string>> {
  return {
    AzureWebJobsStorage: env.directConnectionString,
    APPLICATIONINSIGHTS_CONNECTION_STRING: `InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=${await ingestionSink(env)}`,
    APPLICATIONINSIGHTS_STATSBEAT_DISABLED: 'true',
    EMPLOYEES_TABLE: env.uniqueName('ColdEmp', { table: true }),
    EMPLOYEE_INDEX_TABLE: env.uniqueName('ColdIdx', { table: true }),
    ARCHIVE_QUEUE: env.uniqueName('cold-archive'),
    INDEX_QUEUE: env.uniqueName('cold-index'),
    LOG_QUEUE: env.uniqueName('cold-logs'),
  };
}

/**
 * Starts each layout once uncounted, then {@link RUNS} times alternating: each layout's start
 * times, by its label.
 */
async function timeStarts(
  env: BenchEnv,
  layouts: readonly Layout[],
  settings: Record<string, string>,
): Promise<Map<string, StartTimes[]>> {
  let next = 0;
  const id = (): string => String(900_000 + (next += 1));
  const times = new Map<string, StartTimes[]>(layouts.map((l) => [l.label, []]));
  // Uncounted starts: the department (created by the first) and a warm file cache for both.
  for (const layout of layouts) await startOnce(env, layout, settings, id(), true);
  for (let run = 0; run < RUNS; run += 1) {
    // Alternating, so a slower moment of the machine falls on both layouts alike.
    for (const layout of layouts) {
      const t = await startOnce(env, layout, settings, id());
      times.get(layout.label)!.push(t);
      progress(
        `${layout.label}: health ${Math.round(t.healthMs)} ms, create ${Math.round(t.createMs)} ms`,
      );
    }
  }
  return times;
}

/** The start comparisons, package against the unbundled layout: to health, and to a create. */
function startComparisons(
  [packagedLayout, unbundledLayout]: readonly Layout[],
  times: ReadonlyMap<string, StartTimes[]>,
): Comparison[] {
  const packaged = times.get(packagedLayout!.label)!;
  const unbundled = times.get(unbundledLayout!.label)!;
  const health = (list: StartTimes[]) => list.map((t) => t.healthMs);
  const create = (list: StartTimes[]) => list.map((t) => t.createMs);
  return [
    {
      name: 'cold start: process start → first 200 of GET /api/health',
      pattern: measurement(packagedLayout!.label, health(packaged)),
      baseline: measurement(unbundledLayout!.label, health(unbundled)),
      goal: coldStartGoal('health', health(packaged), health(unbundled)),
      notes: `${RUNS} starts each, alternating; p50/p95 columns are p50/max; telemetry: the Azure Monitor distro.`,
    },
    {
      name: 'cold start: process start → first 201 of an employee create',
      pattern: measurement(packagedLayout!.label, create(packaged)),
      baseline: measurement(unbundledLayout!.label, create(unbundled)),
      goal: coldStartGoal('create', create(packaged), create(unbundled)),
      notes: 'The create is sent as soon as health answers 200.',
    },
  ];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The package's size beside today's production tree (files as operations), judged on its limits. */
function sizeComparison(built: BuiltPackage, tree: { files: number; bytes: number }): Comparison {
  const size = (label: string, files: number, bytes: number): Measurement => ({
    label,
    wallMs: 0,
    operations: files,
    opsPerSecond: 0,
    requests: 0,
    bytes,
  });
  return {
    name: "deployed package: npm run package vs today's production tree (files as operations)",
    pattern: size('npm run package', built.files, built.bytes),
    baseline: size('pruned node_modules + dist', tree.files, tree.bytes),
    goal: judge(`≤ 60 MB and ≤ ${num(PACKAGE_LIMITS.files)} files`, [
      atMost('package', built.bytes / 1024 / 1024, PACKAGE_LIMITS.bytes / 1024 / 1024, ' MB'),
      atMost('package files', built.files, PACKAGE_LIMITS.files),
    ]),
    notes:
      `package ${built.files} files, ${mb(built.bytes)} (zip ${mb(built.zipBytes)}); today's ` +
      `production tree ${num(tree.files)} files, ${mb(tree.bytes)} (npm ls --omit=dev, and dist/).`,
  };
}

const coldStartCase: BenchCase = {
  name: 'coldStart: the deployment package vs the unbundled layout, telemetry on',
  timeoutMs: 900_000,
  async run(env) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'coldstart-'));
    env.defer(() => fs.rmSync(work, { recursive: true, force: true }));
    const built = await buildPackage(path.join(work, 'out'));
    const app = path.join(work, 'app');
    unzipTo(built.zip, app);
    const settings = await hostSettings(env);
    const layouts: Layout[] = [
      { label: 'npm run package', args: ['--app-root', app] },
      {
        label: 'unbundled dist/functions',
        args: ['--app-root', PROJECT_ROOT, '--functions', 'dist/functions/*.js'],
      },
    ];
    const times = await timeStarts(env, layouts, settings);
    const tree = productionTree();
    return {
      comparisons: [...startComparisons(layouts, times), sizeComparison(built, tree)],
      data: {
        package: { files: built.files, bytes: built.bytes, zipBytes: built.zipBytes },
        productionTree: tree,
        runs: Object.fromEntries(times),
        summary:
          `package ${built.files} files, ${mb(built.bytes)} (zip ${mb(built.zipBytes)}) vs today's ` +
          `production tree ${num(tree.files)} files, ${mb(tree.bytes)}`,
      },
    };
  },
};

export default coldStartCase;
