/**
 * `npm run bench [filter...]` (= `node dist/bench/run.js [filter...]` after a build): starts an
 * in-memory Azurite on free ports, runs the cases in `dist/bench/cases/` one after the other (only
 * those whose name contains one of the filters, when given), each behind its own fault proxy in
 * pass-through mode that counts every request (stopped with the case, so a case that timed out
 * cannot reach storage any more), prints each pattern beside its baseline and writes
 * `bench/results.json` (a run without filters) or `bench/results-<filters>.json`, with the machine,
 * the emulator and the commit it ran on (bench/machine.ts). `npm run bench:report` renders the
 * README's and docs' figures from them. Exit code 1 when a case failed or no case matched.
 *
 * Environment: `BENCH_QUICK=1` scales sizes to a tenth; `BENCH_CASE_TIMEOUT_MS` (default 600000)
 * bounds one case; `BENCH_RESULTS` overrides the report's path.
 */
import { withoutPlatformMarkers } from '../tools/host/launch';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, resetConfig } from '../src/config';
import { createStorageClients } from '../src/storage/clients';
import { resetServices } from '../functions/shared/services';
import { startAzurite } from '../tools/azurite';
import { startFaultProxy } from '../tools/faultProxy/faultProxy';
import { tally, tallyLine } from './goals';
import { runEnvironment } from './machine';
import {
  buildReport,
  createBenchEnv,
  defaultResultsFile,
  formatReport,
  goalsOf,
  loadCases,
  runCases,
  selectCases,
  type CaseResult,
  type CaseSession,
} from './harness';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

function readTimeout(): number {
  const raw = process.env.BENCH_CASE_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === '') return 600_000;
  if (!/^\d+$/.test(raw.trim()))
    throw new Error(`BENCH_CASE_TIMEOUT_MS must be a whole number of ms, got "${raw}".`);
  return Number(raw);
}

async function main(): Promise<number> {
  const filters = process.argv.slice(2).filter((arg) => arg.trim() !== '');
  const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
  const caseTimeoutMs = readTimeout();
  const casesDir = path.join(__dirname, 'cases');
  const resultsFile = path.resolve(
    process.env.BENCH_RESULTS ?? defaultResultsFile(PROJECT_ROOT, filters),
  );

  const available = fs.existsSync(casesDir) ? loadCases(casesDir) : [];
  const selected = selectCases(available, filters);
  if (selected.length === 0) {
    const names = available.map((c) => ('benchCase' in c ? c.benchCase.name : c.file));
    process.stderr.write(
      `No benchmark case matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : '(no filter)'}.\n` +
        `Available: ${names.length ? names.join(', ') : `none in ${casesDir}`}\n`,
    );
    return 1;
  }

  const started = Date.now();
  // Recorded before the run: the load on the machine when it started, the commit it measures.
  const environment = runEnvironment(PROJECT_ROOT);
  const azurite = await startAzurite();
  // The benches call adapters with hand-made principals, as a developer does locally: a local
  // run, whatever markers of an Azure instance the shell carries.
  for (const name of withoutPlatformMarkers(process.env).removed) delete process.env[name];
  process.env.TRUST_LOCAL_PRINCIPAL_HEADER = 'true';
  /**
   * Each case gets its own counting proxy and its own uncounted one for direct access; both are
   * stopped when the case ends, so a case that timed out cannot reach storage any more.
   */
  const openSession = async (): Promise<CaseSession> => {
    const proxy = await startFaultProxy({ target: azurite.ports });
    const direct = await startFaultProxy({ target: azurite.ports });
    // Services that use the process's services (functions/shared/services.ts) go through it too.
    process.env.AzureWebJobsStorage = proxy.connectionString;
    resetConfig();
    resetServices();
    const config = loadConfig(process.env);
    const env = createBenchEnv({
      clients: createStorageClients(config.storage, config.retry),
      proxy,
      directConnectionString: direct.connectionString,
      quick,
    });
    return {
      env,
      close: async () => {
        await Promise.all([proxy.stop(), direct.stop()]);
        resetServices();
      },
    };
  };
  let results: CaseResult[];
  try {
    process.stdout.write(
      `Benchmarks on Azurite (in memory) through a counting proxy; ${selected.length} case(s)` +
        `${quick ? ', quick sizes (BENCH_QUICK)' : ''}.\n\n`,
    );
    results = await runCases(
      selected,
      openSession,
      caseTimeoutMs,
      (result) =>
        process.stdout.write(
          `${result.status === 'failed' ? '✗' : '✓'} ${result.name} (${(result.durationMs / 1000).toFixed(1)} s` +
            `${result.status === 'failed' ? '' : `; ${tallyLine(tally(goalsOf([result])))}`})\n`,
        ),
      (name) => process.stdout.write(`… ${name}\n`),
    );
  } finally {
    await azurite.stop();
  }

  process.stdout.write(`\n${formatReport(results)}\n`);
  const report = buildReport(results, {
    quick,
    filters,
    durationMs: Date.now() - started,
    startedAt: new Date(started),
    environment,
  });
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `Results written to ${path.relative(process.cwd(), resultsFile) || resultsFile}\n`,
  );
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

// A case that timed out may still have work in flight; once its proxies are stopped, that work
// fails where nobody awaits it any more. Say so instead of ending the run.
process.on('unhandledRejection', (reason) => {
  const message = reason instanceof Error ? reason.message : String(reason);
  process.stderr.write(`(work left over from an ended case failed: ${message.split('\n')[0]})\n`);
});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `Benchmark run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
