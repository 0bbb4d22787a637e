/**
 * The benchmark harness's parts: the {@link BenchEnv} a case receives (clients through the counting
 * proxy, traffic snapshots, timing), case discovery, sequential runs that survive a failing case,
 * the printed table and the `bench/results.json` report. `bench/run.ts` wires them to Azurite.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StorageClients } from '../src/storage/clients';
import type { FaultProxy, ProxyCounts } from '../tools/faultProxy/faultProxy';
import { goalLabel, goalOf, tally, tallyLine, whyLine, type GoalVerdict } from './goals';
import type { RunEnvironment } from './machine';
import type {
  BenchCase,
  BenchEnv,
  CaseOutput,
  Comparison,
  Measurement,
  TrafficCounts,
} from './types';

// ---------------------------------------------------------------------------------------------
// The environment a case runs in
// ---------------------------------------------------------------------------------------------

export interface BenchEnvOptions {
  clients: StorageClients;
  proxy: FaultProxy;
  directConnectionString: string;
  /** Scale sizes down to a tenth (`BENCH_QUICK=1`). */
  quick: boolean;
}

/** `after - before`, per field (the proxy only counts up between resets). */
export function trafficBetween(before: ProxyCounts, after: ProxyCounts): TrafficCounts {
  const byKind: Record<string, number> = {};
  for (const [kind, count] of Object.entries(after.byKind)) {
    const delta = count - (before.byKind[kind] ?? 0);
    if (delta > 0) byKind[kind] = delta;
  }
  return {
    requests: after.requests - before.requests,
    byKind,
    bytesSent: after.bytesSent - before.bytesSent,
    bytesReceived: after.bytesReceived - before.bytesReceived,
    entitiesRead: after.entitiesRead - before.entitiesRead,
  };
}

/** Requests per operation by `service:METHOD` kind, most frequent first: "table:GET 3.24, …". */
export function requestsPerOperationByKind(traffic: TrafficCounts, operations: number): string {
  return Object.entries(traffic.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${(n / operations).toFixed(2)}`)
    .join(', ');
}

/** The size a case should use: `full`, or a tenth of it (at least 1) in a quick run. */
export function scaledSize(full: number, quick: boolean): number {
  return quick ? Math.max(1, Math.ceil(full / 10)) : full;
}

/** A unique table name (letters and digits, starting with a letter) or queue/container name. */
export function benchName(prefix: string, options: { table?: boolean } = {}): string {
  const suffix = randomBytes(5).toString('hex');
  if (options.table) {
    const letters = prefix.replace(/[^A-Za-z0-9]/g, '').replace(/^[^A-Za-z]+/, '') || 'Bench';
    return `${letters.slice(0, 63 - suffix.length)}${suffix}`;
  }
  const lower =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '') || 'bench';
  return `${lower.slice(0, 62 - suffix.length)}-${suffix}`;
}

/** What {@link createBenchEnv} builds; {@link runCase} gives each case its own signal and cleanups. */
export type SharedBenchEnv = Omit<BenchEnv, 'signal' | 'defer'>;

/** Builds the {@link BenchEnv} every case receives. */
export function createBenchEnv(options: BenchEnvOptions): SharedBenchEnv {
  const { proxy } = options;
  let since = proxy.counts();
  return {
    clients: options.clients,
    connectionString: proxy.connectionString,
    directConnectionString: options.directConnectionString,
    traffic: () => trafficBetween(since, proxy.counts()),
    resetTraffic: () => {
      since = proxy.counts();
    },
    uniqueName: benchName,
    size: (full) => scaledSize(full, options.quick),
    async measure(label, operations, fn) {
      const before = proxy.counts();
      const started = process.hrtime.bigint();
      const outcome = await fn();
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const traffic = trafficBetween(before, proxy.counts());
      const measurement: Measurement = {
        label,
        wallMs: round(wallMs, 1),
        operations,
        opsPerSecond: wallMs > 0 ? round((operations / wallMs) * 1000, 1) : 0,
        requests: traffic.requests,
        bytes: traffic.bytesSent + traffic.bytesReceived,
      };
      if (outcome && outcome.entities !== undefined) measurement.entities = outcome.entities;
      return measurement;
    },
  };
}

/** The `p`-th percentile (0–100) of `values` by nearest rank; 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

// ---------------------------------------------------------------------------------------------
// Discovering and running cases
// ---------------------------------------------------------------------------------------------

/** A case as discovered: the case itself, or why its module could not be used. */
export type LoadedCase =
  { file: string; benchCase: BenchCase } | { file: string; loadError: string };

function isBenchCase(value: unknown): value is BenchCase {
  const candidate = value as { name?: unknown; run?: unknown } | null;
  return typeof candidate?.name === 'string' && typeof candidate.run === 'function';
}

/**
 * Loads every `*.js` module in `directory` (sorted by file name); each default-exports a
 * {@link BenchCase} or an array of them. A module that fails to load, or exports something else,
 * becomes a `loadError` entry so that the run reports it instead of stopping.
 */
export function loadCases(directory: string): LoadedCase[] {
  const files = fs
    .readdirSync(directory)
    .filter((file) => file.endsWith('.js'))
    .sort();
  const loaded: LoadedCase[] = [];
  for (const file of files) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = (require(path.join(directory, file)) as { default?: unknown }).default;
      const cases = Array.isArray(exported) ? exported : [exported];
      if (cases.length === 0 || !cases.every(isBenchCase)) {
        loaded.push({
          file,
          loadError: 'does not default-export a BenchCase or an array of BenchCases',
        });
        continue;
      }
      for (const benchCase of cases) loaded.push({ file, benchCase });
    } catch (error) {
      loaded.push({ file, loadError: describeError(error) });
    }
  }
  return loaded;
}

/** Cases whose name contains one of `filters` (case-insensitive); all when there is none. */
export function selectCases(
  cases: readonly LoadedCase[],
  filters: readonly string[],
): LoadedCase[] {
  // Long cases (the scale case: about 14 minutes) run only when named.
  if (filters.length === 0)
    return cases.filter((c) => !('benchCase' in c && c.benchCase.onlyWhenNamed));
  const wanted = filters.map((f) => f.toLowerCase());
  return cases.filter((c) => {
    const name = 'benchCase' in c ? c.benchCase.name : c.file;
    return wanted.some((f) => name.toLowerCase().includes(f));
  });
}

/** Baseline / pattern; `null` when the pattern side is 0 (no meaningful ratio). */
export function ratio(baseline: number, pattern: number): number | null {
  return pattern > 0 ? round(baseline / pattern, 2) : null;
}

export interface ComparisonResult extends Omit<Comparison, 'goal'> {
  /** Baseline / pattern: above 1 means the pattern is cheaper or faster. */
  ratios: { time: number | null; requests: number | null; bytes: number | null };
  /** The goal's verdict; only its words in results written before verdicts (see `goalOf`). */
  goal?: GoalVerdict | string;
}

export interface CaseResult {
  name: string;
  file: string;
  /**
   * `ran`: the case finished without an exception (whether its goals were met is in its
   * comparisons' goals); results written before verdicts say `passed` for the same.
   */
  status: 'ran' | 'failed' | 'passed';
  durationMs: number;
  comparisons: ComparisonResult[];
  error?: string;
  /** Figures of the case's own beside its comparisons ({@link CaseOutput}). */
  data?: Record<string, unknown>;
}

/** A case's result as comparisons and data, whichever shape it returned. */
function caseOutput(result: Comparison | Comparison[] | CaseOutput): CaseOutput {
  if (Array.isArray(result)) return { comparisons: result };
  if ('comparisons' in result) return result;
  return { comparisons: [result] };
}

function withRatios(comparison: Comparison): ComparisonResult {
  return {
    ...comparison,
    ratios: {
      time: ratio(comparison.baseline.wallMs, comparison.pattern.wallMs),
      requests: ratio(comparison.baseline.requests, comparison.pattern.requests),
      bytes: ratio(comparison.baseline.bytes, comparison.pattern.bytes),
    },
  };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Case "${name}" did not finish within ${timeoutMs} ms.`)),
      timeoutMs,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `cleanups` last first; one that throws is reported on stderr and the others still run. */
async function runCleanups(name: string, cleanups: (() => unknown)[]): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      process.stderr.write(`Cleaning up after "${name}" failed: ${describeError(error)}\n`);
    }
  }
}

/**
 * Runs one case; a throw, a timeout or a malformed result is a failed case, never a crash. When
 * the case ends (in any way) its signal is aborted and what it registered with `env.defer` is
 * stopped, so a case that timed out does not go on working beside the next one.
 */
export async function runCase(
  loaded: LoadedCase,
  env: SharedBenchEnv,
  timeoutMs: number,
): Promise<CaseResult> {
  const started = Date.now();
  if ('loadError' in loaded) {
    return {
      name: loaded.file,
      file: loaded.file,
      status: 'failed',
      durationMs: 0,
      comparisons: [],
      error: loaded.loadError,
    };
  }
  const { benchCase, file } = loaded;
  const over = new AbortController();
  const cleanups: (() => unknown)[] = [];
  const caseEnv: BenchEnv = { ...env, signal: over.signal, defer: (c) => void cleanups.push(c) };
  let outcome: Pick<CaseResult, 'status' | 'comparisons' | 'error' | 'data'>;
  try {
    env.resetTraffic();
    const result = await withTimeout(
      Promise.resolve().then(() => benchCase.run(caseEnv)),
      Math.max(timeoutMs, benchCase.timeoutMs ?? 0),
      benchCase.name,
    );
    const output = caseOutput(result);
    outcome = {
      status: 'ran',
      comparisons: output.comparisons.map(withRatios),
      ...(output.data !== undefined && { data: output.data }),
    };
  } catch (error) {
    outcome = { status: 'failed', comparisons: [], error: describeError(error) };
  }
  over.abort(new Error(`Case "${benchCase.name}" is over.`));
  await runCleanups(benchCase.name, cleanups);
  const { status, comparisons, error, data } = outcome;
  const durationMs = Date.now() - started;
  return {
    name: benchCase.name,
    file,
    status,
    durationMs,
    comparisons,
    ...(error !== undefined && { error }),
    ...(data !== undefined && { data }),
  };
}

/** One case's storage access: its env, and how to cut it off when the case is over. */
export interface CaseSession {
  env: SharedBenchEnv;
  /** Stops the case's proxies: whatever the case still sends after it ended fails. */
  close(): Promise<void>;
}

/**
 * Runs `cases` one after the other, each in its own session (its own counting proxy), closed
 * before the next opens: a case that timed out and still has work in flight cannot reach storage
 * any more, so the next case measures alone.
 */
export async function runCases(
  cases: readonly LoadedCase[],
  openSession: () => Promise<CaseSession>,
  timeoutMs: number,
  onResult: (result: CaseResult) => void = () => undefined,
  onStart: (name: string) => void = () => undefined,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const loaded of cases) {
    onStart('benchCase' in loaded ? loaded.benchCase.name : loaded.file);
    const session = await openSession();
    try {
      const result = await runCase(loaded, session.env, timeoutMs);
      results.push(result);
      onResult(result);
    } finally {
      await session.close();
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------

/** `1.2 kB`, `3.4 MB`: decimal units, as network and billing figures are quoted. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A baseline/pattern ratio: `1,800×`, `10.8×`, `0.67×`; `∞` when the pattern needed none. */
export function formatRatio(value: number | null, baseline: number): string {
  if (value === null) return baseline > 0 ? '∞' : '–';
  return `${value >= 100 ? formatNumber(value) : value.toFixed(value >= 10 ? 1 : 2)}×`;
}

const COLUMNS = [
  '',
  'side',
  'label',
  'wall ms',
  'ops/s',
  'requests',
  'entities',
  'bytes',
  'p50/p95 ms',
] as const;
const RIGHT_ALIGNED = new Set([3, 4, 5, 6, 7, 8]);

function measurementRow(side: string, m: Measurement): string[] {
  const latency =
    m.p50Ms !== undefined ? `${m.p50Ms.toFixed(1)}/${(m.p95Ms ?? m.p50Ms).toFixed(1)}` : '';
  return [
    '',
    side,
    m.label,
    formatNumber(m.wallMs, 1),
    formatNumber(m.opsPerSecond, 1),
    formatNumber(m.requests),
    m.entities === undefined ? '' : formatNumber(m.entities),
    formatBytes(m.bytes),
    latency,
  ];
}

function renderRows(rows: string[][]): string[] {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((row) =>
    row
      .map((cell, i) =>
        RIGHT_ALIGNED.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd(),
  );
}

/** Every goal of `results`, in run order, as verdicts (words only from before verdicts). */
export function goalsOf(results: readonly Pick<CaseResult, 'comparisons'>[]): GoalVerdict[] {
  return results.flatMap((r) =>
    r.comparisons.flatMap((c) => {
      const goal = goalOf(c.goal);
      return goal ? [goal] : [];
    }),
  );
}

/** `17 of 19 cases ran, 2 failed; 9 of 14 goals met, 3 missed, 2 not judged`. */
export function runSummary(results: readonly CaseResult[]): string {
  const failed = results.filter((r) => r.status === 'failed').length;
  return (
    `${results.length - failed} of ${results.length} case(s) ran, ${failed} failed; ` +
    tallyLine(tally(goalsOf(results)))
  );
}

/**
 * The console report: the run's goals tallied first, then per comparison the pattern and
 * baseline rows, the baseline/pattern ratios for time, requests and bytes, and the goal marked ✔
 * (met), ✗ (missed, with one line on why) or – (not judged, with the reason); failed cases with
 * their error. The tally is repeated last.
 */
export function formatReport(results: readonly CaseResult[]): string {
  const lines: string[] = [runSummary(results), ''];
  for (const result of results) {
    if (result.status === 'failed') {
      lines.push(`✗ ${result.name} FAILED (${formatNumber(result.durationMs)} ms)`);
      lines.push(
        ...(result.error ?? '')
          .split('\n')
          .slice(0, 8)
          .map((l) => `    ${l}`),
      );
      lines.push('');
      continue;
    }
    for (const c of result.comparisons) {
      lines.push(`■ ${c.name}`);
      const rows = [
        [...COLUMNS],
        measurementRow('pattern', c.pattern),
        measurementRow('baseline', c.baseline),
      ];
      lines.push(...renderRows(rows));
      lines.push(
        `  baseline/pattern: time ${formatRatio(c.ratios.time, c.baseline.wallMs)}, ` +
          `requests ${formatRatio(c.ratios.requests, c.baseline.requests)}, ` +
          `bytes ${formatRatio(c.ratios.bytes, c.baseline.bytes)}`,
      );
      const goal = goalOf(c.goal);
      if (goal) {
        lines.push(`  goal ${goalLabel(goal)}`);
        const why = whyLine(goal);
        if (why) lines.push(`    ${why}`);
      }
      if (c.notes) lines.push(`  notes: ${c.notes}`);
      lines.push('');
    }
  }
  lines.push(runSummary(results));
  return lines.join('\n');
}

export interface BenchReport extends RunEnvironment {
  /** When the run started (ISO 8601). */
  date: string;
  /** When it ended. */
  finishedAt?: string;
  /** Load averages when the run ended: the 15-minute one covers most of a full run. */
  loadAverageAtEnd?: number[];
  quick: boolean;
  filters: string[];
  durationMs: number;
  cases: CaseResult[];
}

/**
 * The machine-readable report, with what is needed to compare runs across machines: `environment`
 * as recorded when the run started (its commit, the emulator, the load then).
 */
export function buildReport(
  results: CaseResult[],
  options: {
    quick: boolean;
    filters: string[];
    durationMs: number;
    startedAt: Date;
    environment: RunEnvironment;
  },
): BenchReport {
  return {
    date: options.startedAt.toISOString(),
    finishedAt: new Date(options.startedAt.getTime() + options.durationMs).toISOString(),
    ...options.environment,
    loadAverageAtEnd: os.loadavg().map((v) => round(v, 1)),
    quick: options.quick,
    filters: options.filters,
    durationMs: options.durationMs,
    cases: results,
  };
}

/**
 * Where a run writes its report: `bench/results.json` for a run of every default case, and
 * `bench/results-<filters>.json` for a run of some (`npm run bench -- scale` writes
 * `bench/results-scale.json`), so a run of one case never replaces the full run's report.
 */
export function defaultResultsFile(root: string, filters: readonly string[]): string {
  if (filters.length === 0) return path.join(root, 'bench', 'results.json');
  const slug =
    filters
      .join('-')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'filtered';
  return path.join(root, 'bench', `results-${slug}.json`);
}
