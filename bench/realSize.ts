/**
 * `npm run bench:real-size -- [options]`: the real-size issue's "done when" scenario against a
 * running app (`npm start`, default http://localhost:7071/api; principal headers sent by hand, as
 * the local host allows on loopback):
 *
 * 1. import N employees (default 20,000) into one new department in calls of 1,000 rows, a quarter
 *    sharing one last name, printing each call's time and the last/first ratio;
 * 2. wait until the org-wide last-name search finds every shared-name employee (seconds after the
 *    last call);
 * 3. run the index audit orchestration and report missing/stale;
 * 4. post a log hour of L entries (default 150,000) through `POST /logs` and read it back in pages
 *    (every entry once, in time order);
 * 5. archive the department through its orchestration, timed.
 *
 * While 2–5 run, it watches the index drains converge (no outbox row left in the department, the
 * index queue empty; bench/scale/drainWatch.ts). Prints a summary of the goals
 * (bench/scale/goals.ts), writes the figures, verdicts, machine, emulator and commit to
 * `bench/results-real-size-<employees>.json` (`--results`) for `npm run bench:report`, and exits
 * 1 when a goal fails, 2 on bad options or an unreachable app. Each run uses its own department, shared last name and log
 * source, so runs against the same storage do not see each other's data. Options: see
 * {@link REAL_SIZE_USAGE}; `--employees 2000 --log-lines 20000` is a quick try. With
 * `--cpu-prof DIR` it starts the app itself and leaves CPU profiles of the app and its emulator.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot, runEnvironment } from './machine';
import { watchDrains } from './scale/drainWatch';
import { buildRealSizeReport } from './scale/realSizeReport';
import { ScaleApi, sleep, type OrchestrationStatus } from './scale/api';
import { PROBE_ENTITIES, probeInsertMs, probeTable } from './scale/emulatorProbe';
import { startProfiledApp, type ProfiledApp } from './scale/profiledApp';
import {
  checkGoals,
  formatVerdicts,
  importRatio,
  parseRealSizeArgs,
  REAL_SIZE_USAGE,
  type RealSizeFigures,
  type RealSizeOptions,
} from './scale/goals';
import {
  checkLogSequence,
  importCalls,
  LOG_CALL_ENTRIES,
  logHourEntry,
  pastHour,
  sharedNameCount,
} from './scale/workload';

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

const secondsOf = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A number field of an orchestration's output, when there is one. */
function outputNumber(status: OrchestrationStatus, key: string): number | undefined {
  const value = (status.output as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' ? value : undefined;
}

/** Runs the orchestration at `startPath`, giving up after `waitMs`. */
async function orchestrate(
  api: ScaleApi,
  startPath: string,
  waitMs: number,
  body?: unknown,
): Promise<OrchestrationStatus> {
  return api.runOrchestration(startPath, {
    body,
    pollMs: 1000,
    signal: AbortSignal.timeout(waitMs),
  });
}

async function importStage(
  api: ScaleApi,
  dept: string,
  sharedName: string,
  options: RealSizeOptions,
  figures: RealSizeFigures,
): Promise<void> {
  say(`1. Import ${options.employees} employees into "${dept}" in calls of 1,000`);
  await api.call('PUT', `departments/${encodeURIComponent(dept)}`, {
    body: { description: 'Real-size scenario' },
    expected: [200, 201],
  });
  const probe = options.probe && probeTable(options.probe);
  const probeFirst = probe && (await probeInsertMs(probe, dept, 'first'));
  if (probeFirst !== undefined)
    say(
      `   emulator probe: ${PROBE_ENTITIES} raw inserts into the empty partition ${Math.round(probeFirst)} ms`,
    );
  const calls = importCalls(options.employees, sharedName);
  figures.importCallRows = [];
  for (const [i, rows] of calls.entries()) {
    const started = Date.now();
    const result = await api.call<{ created: number; failed: unknown[] }>(
      'POST',
      `departments/${encodeURIComponent(dept)}/employees/import`,
      { body: { employees: rows } },
    );
    const ms = Date.now() - started;
    figures.importCallMs.push(ms);
    figures.importCallRows.push(rows.length);
    figures.imported += result.created;
    say(
      `   call ${String(i + 1).padStart(3)}/${calls.length}: ${String(ms).padStart(6)} ms, ` +
        `${result.created} created${result.failed.length ? `, ${result.failed.length} FAILED` : ''}`,
    );
  }
  const ratio = importRatio(figures.importCallMs);
  say(`   last/first: ${ratio === undefined ? '–' : `${ratio.toFixed(2)}×`}`);
  if (probe && probeFirst !== undefined) {
    const probeLast = await probeInsertMs(probe, dept, 'last');
    figures.probeMs = { first: probeFirst, last: probeLast };
    say(
      `   emulator probe: ${PROBE_ENTITIES} raw inserts into the partition now ${Math.round(probeLast)} ms ` +
        `(${(probeLast / probeFirst).toFixed(1)}× the empty partition's)`,
    );
  }
}

async function searchStage(
  api: ScaleApi,
  sharedName: string,
  lastCallAt: number,
  options: RealSizeOptions,
  figures: RealSizeFigures,
): Promise<void> {
  say(
    `2. Wait for the org-wide search to find all ${figures.searchExpected} named "${sharedName}"`,
  );
  const deadline = lastCallAt + options.searchWaitMs;
  for (;;) {
    let found = 0;
    await api.pageAll('employees', { lastName: sharedName, pageSize: '1000' }, (items) => {
      found += items.length;
    });
    figures.searchFound = found;
    if (found >= figures.searchExpected) {
      figures.searchAllFoundAfterMs = Date.now() - lastCallAt;
      say(`   all found ${secondsOf(figures.searchAllFoundAfterMs)} after the last import call`);
      return;
    }
    if (Date.now() > deadline) {
      say(
        `   ${found} of ${figures.searchExpected} after ${secondsOf(options.searchWaitMs)}: giving up`,
      );
      return;
    }
    await sleep(1000);
  }
}

async function auditStage(
  api: ScaleApi,
  options: RealSizeOptions,
  figures: RealSizeFigures,
): Promise<void> {
  say('3. Index audit (repair: false)');
  const started = Date.now();
  const status = await orchestrate(api, 'maintenance/indexes/audit', options.orchestrationWaitMs, {
    repair: false,
  });
  figures.audit = {
    runtimeStatus: status.runtimeStatus,
    checked: outputNumber(status, 'checked'),
    missing: outputNumber(status, 'missing'),
    stale: outputNumber(status, 'stale'),
  };
  say(
    `   ${status.runtimeStatus} in ${secondsOf(Date.now() - started)}: checked ${figures.audit.checked}, ` +
      `missing ${figures.audit.missing}, stale ${figures.audit.stale}${status.failure ? ` (${status.failure})` : ''}`,
  );
}

async function logStage(
  api: ScaleApi,
  source: string,
  options: RealSizeOptions,
  figures: RealSizeFigures,
): Promise<void> {
  const lines = options.logLines;
  const hour = pastHour(new Date());
  say(
    `4. Post a log hour of ${lines} entries (source "${source}", ${hour.toISOString()}) and read it back`,
  );
  const postStarted = Date.now();
  for (let first = 0; first < lines; first += LOG_CALL_ENTRIES) {
    const count = Math.min(LOG_CALL_ENTRIES, lines - first);
    await api.postLogs(
      source,
      Array.from({ length: count }, (_, i) => logHourEntry(hour, lines, first + i)),
    );
  }
  say(`   posted in ${secondsOf(Date.now() - postStarted)}`);
  const query = {
    source,
    from: hour.toISOString(),
    to: new Date(hour.getTime() + 3_600_000).toISOString(),
    pageSize: '5000',
  };
  const deadline = Date.now() + options.logWaitMs;
  for (;;) {
    const seqs: number[] = [];
    const started = Date.now();
    const pages = await api.pageAll<{ seq: number }>('logs', query, (items) => {
      for (const item of items) seqs.push(item.seq);
    });
    const readMs = Date.now() - started;
    const problem = checkLogSequence(seqs, lines);
    // Fewer entries: the flush may not have written them all yet; anything else is wrong now.
    if (problem === undefined || seqs.length > lines || Date.now() > deadline) {
      figures.logs = { posted: lines, read: seqs.length, problem, readMs, pages };
      say(
        `   read ${seqs.length} in ${pages} pages, ${secondsOf(readMs)}: ${problem ?? 'exact, in time order'}`,
      );
      return;
    }
    await sleep(2000);
  }
}

async function archiveStage(
  api: ScaleApi,
  dept: string,
  options: RealSizeOptions,
  figures: RealSizeFigures,
): Promise<void> {
  say(`5. Archive "${dept}"`);
  const started = Date.now();
  const status = await orchestrate(
    api,
    `departments/${encodeURIComponent(dept)}/archive`,
    options.orchestrationWaitMs,
  );
  figures.archive = {
    runtimeStatus: status.runtimeStatus,
    ms: Date.now() - started,
    archived: outputNumber(status, 'archived'),
  };
  say(
    `   ${status.runtimeStatus} in ${secondsOf(figures.archive.ms)}: archived ${figures.archive.archived}` +
      `${status.failure ? ` (${status.failure})` : ''}`,
  );
}

/** Runs a stage; a failure is reported and leaves its figures unset (its goal then fails). */
async function stage(name: string, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    say(
      `   ${name} stopped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    return false;
  }
}

async function main(): Promise<number> {
  let options: RealSizeOptions;
  try {
    options = parseRealSizeArgs(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n${message.includes('usage:') ? '' : `${REAL_SIZE_USAGE}\n`}`);
    return 2;
  }
  const api = new ScaleApi(options.baseUrl);
  let profiled: ProfiledApp | undefined;
  if (options.cpuProfileDir) {
    say(`Starting the app with CPU profiles (written to ${options.cpuProfileDir})...`);
    try {
      profiled = await startProfiledApp(options.baseUrl, options.cpuProfileDir);
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
  }
  try {
    return await scenario(api, options);
  } finally {
    if (profiled) {
      say('\nStopping the app to write the CPU profiles...');
      for (const line of await profiled.stop()) say(line);
    }
  }
}

async function scenario(api: ScaleApi, options: RealSizeOptions): Promise<number> {
  try {
    await api.call('GET', 'health');
  } catch (error) {
    process.stderr.write(
      `The app at ${options.baseUrl} is not answering GET /health (${error instanceof Error ? error.message : String(error)}).\n` +
        `Start it with "npm start" (or pass --base-url).\n${REAL_SIZE_USAGE}\n`,
    );
    return 2;
  }
  const environment = runEnvironment(projectRoot(__dirname));
  const startedAt = new Date();
  const run = randomBytes(4).toString('hex');
  const dept = `RealSize-${run}`;
  const sharedName = `Realsize${run}`;
  const figures: RealSizeFigures = {
    importCallMs: [],
    imported: 0,
    employees: options.employees,
    searchFound: 0,
    searchExpected: sharedNameCount(options.employees),
  };
  say(
    `Real-size scenario against ${options.baseUrl}: ${options.employees} employees, ${options.logLines} log lines.`,
  );
  const started = Date.now();
  const imported = await stage('import', () =>
    importStage(api, dept, sharedName, options, figures),
  );
  const lastCallAt = Date.now();
  // The drains are watched from the last call while the other stages run (read directly).
  const drains =
    imported && options.probe
      ? watchDrains(options.probe, dept, lastCallAt, options.drainWaitMs).then((outcome) => {
          figures.drain = outcome;
          say(
            outcome.convergedAfterMs === undefined
              ? `   (index drains not converged ${secondsOf(outcome.watchedMs)} after the last import call)`
              : `   (index drains converged ${secondsOf(outcome.convergedAfterMs)} after the last import call)`,
          );
        })
      : undefined;
  if (imported) {
    await stage('search', () => searchStage(api, sharedName, lastCallAt, options, figures));
    await stage('audit', () => auditStage(api, options, figures));
  }
  await stage('logs', () => logStage(api, `realsize-${run}`, options, figures));
  await drains;
  if (imported) await stage('archive', () => archiveStage(api, dept, options, figures));

  const verdicts = checkGoals(figures, options);
  say(`\nSummary (${secondsOf(Date.now() - started)} in all):\n${formatVerdicts(verdicts)}`);
  const report = buildRealSizeReport({
    options,
    figures,
    verdicts,
    environment,
    startedAt,
    finishedAt: new Date(),
    loadAverageAtEnd: os.loadavg().map((v) => Math.round(v * 10) / 10),
  });
  const file = path.resolve(options.resultsFile);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  say(`Results written to ${path.relative(process.cwd(), file) || file}`);
  return verdicts.every((v) => v.verdict === 'met') ? 0 : 1;
}

void main()
  .catch((error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`Real-size scenario failed: ${detail}\n`);
    return 1;
  })
  .then((code) => process.exit(code));
