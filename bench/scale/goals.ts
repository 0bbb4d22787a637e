/**
 * The real-size scenario's "done when" (the real-size issue): its options, the goals it checks
 * against what it measured, and the summary it prints. Pure, so each goal's verdict is tested.
 */
import { parseArgs } from 'node:util';
import { MARK, tally, tallyLine, type GoalVerdict } from '../goals';

export type { GoalVerdict } from '../goals';

/** What `npm run bench:real-size -- [options]` takes. */
export interface RealSizeOptions {
  baseUrl: string;
  employees: number;
  logLines: number;
  /** Goal: the last import call takes at most this many times the first. */
  maxImportRatio: number;
  /** Goal: the org-wide search finds every shared-name employee within this long after the last call. */
  searchGoalMs: number;
  /** How long to keep waiting for the search (to report the time even past the goal). */
  searchWaitMs: number;
  /** Goal: the department archive completes within this long. */
  archiveGoalMs: number;
  /** How long to wait for an orchestration (audit, archive) before giving up on it. */
  orchestrationWaitMs: number;
  /** How long accepted log entries may take to become readable. */
  logWaitMs: number;
  /**
   * Start the app here (as `npm start` does, on the --base-url port) with CPU profiles of it and of
   * its emulator written to this folder; `undefined` runs against an app already started.
   */
  cpuProfileDir?: string;
  /**
   * The app's storage, for the emulator probe and the drain watch (outbox rows of the department,
   * the index queue); `undefined` skips both.
   */
  probe?: { connectionString: string; employeesTable: string; indexQueue: string };
  /** How long to watch for the index drains to converge after the last import call. */
  drainWaitMs: number;
  /** Where the run's results go (JSON, for `npm run bench:report`). */
  resultsFile: string;
}

export const REAL_SIZE_USAGE = `usage: npm run bench:real-size -- [options]
  --base-url URL         the running app's API (default http://localhost:7071/api)
  --employees N          employees imported into one department, in calls of 1,000 (default 20000)
  --log-lines N          entries of the log hour posted and read back (default 150000)
  --max-import-ratio R   goal: last import call ≤ R × the first (default 2)
  --search-goal-s S      goal: org-wide search finds everyone within S s of the last call (default 60)
  --search-wait-s S      keep waiting for the search up to S s (default 600)
  --archive-goal-s S     goal: the department archive completes within S s (default 360)
  --orchestration-wait-s S  give up on an orchestration after S s (default 1800)
  --log-wait-s S         accepted log entries readable within S s (default 120)
  --storage CONN         the app's storage, to time the emulator's own inserts at the same size and
                         watch the index drains converge (default UseDevelopmentStorage=true, as
                         npm start serves; "none" skips both)
  --employees-table NAME the app's employees table (default Employees)
  --index-queue NAME     the app's index queue (default index-updates)
  --drain-wait-s S       watch for the drains to converge up to S s after the last call (default 1800)
  --results FILE         where the run's figures and verdicts go as JSON, for npm run bench:report
                         (default bench/results-real-size-<employees>.json)
  --cpu-prof DIR         start the app here (npm start's launcher, from the build, on the --base-url
                         port, its own Azurite on 10000-10002 with data in ./.azurite) and write CPU
                         profiles of the app and of the emulator to DIR/app.cpuprofile and
                         DIR/emulator.cpuprofile; nothing may be running on those ports`;

function positive(raw: string | undefined, name: string, fallback: number, integer = true): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new Error(
      `--${name} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}".\n${REAL_SIZE_USAGE}`,
    );
  return value;
}

/**
 * Reads the command line (`argv` without node and the script).
 *
 * @throws {Error} with the usage for unknown options, bad numbers, more than 999,999 employees or
 *   a base URL that is not http(s).
 */
export function parseRealSizeArgs(argv: readonly string[]): RealSizeOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'base-url': { type: 'string' },
      employees: { type: 'string' },
      'log-lines': { type: 'string' },
      'max-import-ratio': { type: 'string' },
      'search-goal-s': { type: 'string' },
      'search-wait-s': { type: 'string' },
      'archive-goal-s': { type: 'string' },
      'orchestration-wait-s': { type: 'string' },
      'log-wait-s': { type: 'string' },
      storage: { type: 'string' },
      'employees-table': { type: 'string' },
      'index-queue': { type: 'string' },
      'drain-wait-s': { type: 'string' },
      results: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const baseUrl = (values['base-url'] ?? 'http://localhost:7071/api').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl))
    throw new Error(`--base-url must be an http(s) URL, got "${baseUrl}".\n${REAL_SIZE_USAGE}`);
  const employees = positive(values.employees, 'employees', 20_000);
  if (employees > 999_999) throw new Error(`--employees must be at most 999999 (6-digit ids).`);
  const seconds = (name: keyof typeof values, fallback: number): number =>
    positive(values[name] as string | undefined, name, fallback, false) * 1000;
  return {
    baseUrl,
    employees,
    logLines: positive(values['log-lines'], 'log-lines', 150_000),
    maxImportRatio: positive(values['max-import-ratio'], 'max-import-ratio', 2, false),
    searchGoalMs: seconds('search-goal-s', 60),
    searchWaitMs: seconds('search-wait-s', 600),
    archiveGoalMs: seconds('archive-goal-s', 360),
    orchestrationWaitMs: seconds('orchestration-wait-s', 1800),
    logWaitMs: seconds('log-wait-s', 120),
    drainWaitMs: seconds('drain-wait-s', 1800),
    resultsFile: values.results ?? `bench/results-real-size-${employees}.json`,
    ...(values['cpu-prof'] !== undefined && { cpuProfileDir: values['cpu-prof'] }),
    probe:
      values.storage === 'none'
        ? undefined
        : {
            connectionString: values.storage ?? 'UseDevelopmentStorage=true',
            employeesTable: values['employees-table'] ?? 'Employees',
            indexQueue: values['index-queue'] ?? 'index-updates',
          },
  };
}

/** What the scenario measured; a stage that did not get as far leaves its field undefined. */
export interface RealSizeFigures {
  /** ms of each import call, in order. */
  importCallMs: number[];
  /** Rows of each import call, in order (1,000 but for a last, shorter one). */
  importCallRows?: number[];
  /** ms of the emulator probe (raw inserts into the partition) before the first call and after the last. */
  probeMs?: { first: number; last: number };
  /** Rows the import calls created, and how many were asked for. */
  imported: number;
  employees: number;
  /**
   * The index drains after the last import call: ms until no outbox row was left in the department
   * and the index queue was empty (`convergedAfterMs`), or how long it was watched in vain.
   */
  drain?: { convergedAfterMs?: number; watchedMs: number };
  /** ms after the last import call when the search first found every shared-name employee. */
  searchAllFoundAfterMs?: number;
  /** Shared-name employees the last search found, and how many there are. */
  searchFound: number;
  searchExpected: number;
  audit?: { runtimeStatus: string; missing?: number; stale?: number; checked?: number };
  logs?: { posted: number; read: number; problem?: string; readMs: number; pages: number };
  archive?: { runtimeStatus: string; ms: number; archived?: number };
}

/** A verdict as a real-size results file holds it (see {@link realSizeVerdictOf}). */
export type StoredVerdict = GoalVerdict | { goal: string; measured: string; passed: boolean };

/**
 * A real-size verdict in the shape every bench goal has; files written before that shape held
 * `{ goal, measured, passed }`, judged all the same, so they read as met or missed.
 */
export function realSizeVerdictOf(stored: StoredVerdict): GoalVerdict {
  if ('verdict' in stored) return stored;
  return stored.passed
    ? { text: stored.goal, verdict: 'met', measured: stored.measured }
    : { text: stored.goal, verdict: 'missed', measured: stored.measured, why: stored.measured };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The ratio of the last import call's time to the first's; `undefined` without calls. */
export function importRatio(callMs: readonly number[]): number | undefined {
  if (callMs.length === 0 || !(callMs[0]! > 0)) return undefined;
  return callMs.at(-1)! / callMs[0]!;
}

/** Met when `passed`, else missed with `why` (one line: what fell short). */
function verdict(text: string, measured: string, passed: boolean, why: string): GoalVerdict {
  return passed ? { text, verdict: 'met', measured } : { text, verdict: 'missed', measured, why };
}

/** The import's goals: every row created, and the last call not much slower than the first. */
function importVerdicts(figures: RealSizeFigures, max: number): GoalVerdict[] {
  const ratio = importRatio(figures.importCallMs);
  const verdicts = [
    verdict(
      `import: all ${figures.employees} rows created`,
      `${figures.imported} created`,
      figures.imported === figures.employees,
      `${figures.employees - figures.imported} of ${figures.employees} rows not created`,
    ),
    verdict(
      `import: last call ≤ ${max}× the first`,
      ratio === undefined
        ? 'no calls'
        : `${ratio.toFixed(2)}× (first ${seconds(figures.importCallMs[0]!)}, last ${seconds(figures.importCallMs.at(-1)!)})`,
      ratio !== undefined && ratio <= max,
      ratio === undefined
        ? 'no import call was timed'
        : `last call ${ratio.toFixed(2)}× the first, above ${max}×`,
    ),
  ];
  const probe = figures.probeMs;
  if (ratio !== undefined && probe !== undefined && probe.first > 0) {
    // The emulator's growth at the same sizes divided out: what the app itself adds per call.
    const emulatorRatio = probe.last / probe.first;
    const adjusted = ratio / emulatorRatio;
    verdicts.push(
      verdict(
        `import: last/first ≤ ${max}× beyond the emulator's own growth`,
        `${adjusted.toFixed(2)}× (raw inserts into the partition: ${seconds(probe.first)} → ` +
          `${seconds(probe.last)}, ${emulatorRatio.toFixed(1)}×)`,
        adjusted <= max,
        `${adjusted.toFixed(2)}× beyond the emulator's own ${emulatorRatio.toFixed(1)}×, above ${max}×`,
      ),
    );
  }
  return verdicts;
}

/** The search's goal: every employee of the shared name found within the goal's time. */
function searchVerdict(figures: RealSizeFigures, goalMs: number): GoalVerdict {
  const found = figures.searchAllFoundAfterMs;
  return verdict(
    `search: all ${figures.searchExpected} of the shared name within ${seconds(goalMs)}`,
    found === undefined
      ? `${figures.searchFound} of ${figures.searchExpected} found, gave up`
      : `all found ${seconds(found)} after the last call`,
    found !== undefined && found <= goalMs && figures.searchExpected > 0,
    found === undefined
      ? `only ${figures.searchFound} of ${figures.searchExpected} found when the wait ended`
      : figures.searchExpected > 0
        ? `all found after ${seconds(found)}, later than ${seconds(goalMs)}`
        : 'no employee of the shared name to find',
  );
}

/** The audit's goal: it completed and found no index entry missing. */
function auditVerdict({ audit }: RealSizeFigures): GoalVerdict {
  return verdict(
    'audit: nothing missing',
    audit === undefined
      ? 'not run'
      : audit.runtimeStatus !== 'Completed'
        ? audit.runtimeStatus
        : `checked ${audit.checked ?? '?'}, missing ${audit.missing ?? '?'}, stale ${audit.stale ?? '?'}`,
    audit?.runtimeStatus === 'Completed' && audit.missing === 0,
    audit === undefined
      ? 'the audit did not run'
      : audit.runtimeStatus !== 'Completed'
        ? `the audit ended ${audit.runtimeStatus}`
        : `${audit.missing ?? 'an unknown number of'} index entries missing`,
  );
}

/** The logs' goal: the hour read back with every entry once, in time order. */
function logsVerdict({ logs }: RealSizeFigures): GoalVerdict {
  return verdict(
    'logs: the hour read back exactly (every entry once, in time order)',
    logs === undefined
      ? 'not run'
      : logs.problem === undefined
        ? `${logs.read} of ${logs.posted} in ${logs.pages} pages, ${seconds(logs.readMs)}`
        : logs.problem,
    logs !== undefined && logs.problem === undefined && logs.read === logs.posted,
    logs === undefined
      ? 'the log hour was not read back'
      : (logs.problem ?? `${logs.read} of ${logs.posted} entries read back`),
  );
}

/** The archive's goal: every employee of the department archived within the goal's time. */
function archiveVerdict(figures: RealSizeFigures, goalMs: number): GoalVerdict {
  const archive = figures.archive;
  return verdict(
    `archive: the department within ${seconds(goalMs)}`,
    archive === undefined
      ? 'not run'
      : `${archive.runtimeStatus} in ${seconds(archive.ms)}, archived ${archive.archived ?? '?'}`,
    archive?.runtimeStatus === 'Completed' &&
      archive.ms <= goalMs &&
      archive.archived === figures.employees,
    archive === undefined
      ? 'the archive did not run'
      : archive.runtimeStatus !== 'Completed'
        ? `the archive ended ${archive.runtimeStatus}`
        : archive.archived !== figures.employees
          ? `archived ${archive.archived ?? '?'} of ${figures.employees}`
          : `took ${seconds(archive.ms)}, longer than ${seconds(goalMs)}`,
  );
}

/** Every goal of the scenario against what it measured (a stage never reached misses its goal). */
export function checkGoals(figures: RealSizeFigures, options: RealSizeOptions): GoalVerdict[] {
  return [
    ...importVerdicts(figures, options.maxImportRatio),
    searchVerdict(figures, options.searchGoalMs),
    auditVerdict(figures),
    logsVerdict(figures),
    archiveVerdict(figures, options.archiveGoalMs),
  ];
}

/**
 * The summary: one line per goal, ✔ met or ✗ missed with what was measured (and, for a goal
 * missed, why on the next line), then `N of M goals met`.
 */
export function formatVerdicts(verdicts: readonly GoalVerdict[]): string {
  const width = Math.max(...verdicts.map((v) => v.text.length));
  const lines = verdicts.flatMap((v) => [
    `${MARK[v.verdict]} ${v.text.padEnd(width)}  ${v.measured}`,
    ...(v.verdict === 'met'
      ? []
      : [`    ${v.verdict === 'missed' ? 'missed' : 'not judged'}: ${v.why ?? ''}`]),
  ]);
  lines.push(`${tallyLine(tally(verdicts))}.`);
  return lines.join('\n');
}
