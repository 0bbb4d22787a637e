/**
 * Scale (the real-size issue, item 6): what each directory operation costs per employee as one
 * department grows, and the hour-of-logs read per log line as the hour grows, through the built
 * host's HTTP API against the counting proxy — with raw-SDK measurements of the same accesses at
 * the same sizes, so a reader sees the emulator's own cost beside the app's.
 *
 * Per department size (`BENCH_SCALE_SIZES`, default 1,000, 5,000 and 20,000), on a fresh host and
 * fresh tables: import (calls of 1,000 rows, a quarter sharing one last name), index drain (from
 * the last import call until the outbox is empty and the index queue drained), list (page through
 * the department), search (org-wide last-name search paged through every member of the shared
 * name), audit (`POST /maintenance/indexes/audit`), archive (`POST /departments/{dept}/archive`);
 * raw: EGT upserts of the same employee and email entities, and a range query over them. Per log
 * hour (`BENCH_SCALE_LOG_LINES`, default 10,000 and 50,000): log ingest (`POST /logs` calls of
 * 1,000 until the flush has written them), log read (`GET /logs` paged, checked exact and in
 * order); raw: list and download the hour's blobs.
 *
 * Every step is bounded (`BENCH_SCALE_STEP_TIMEOUT_MS`, default 240 s) and the whole case by a
 * budget (`BENCH_SCALE_BUDGET_MS`, default 14 min): a step out of time is reported as timed out
 * with how far it got, later steps of the run as skipped. Requests exclude the host's idle trigger
 * polling (measured for 5 s before each size). Every step's figures go into the run's report
 * (`bench/results-scale.json`, the case's `data`), from which `npm run bench:report` draws the
 * charts (bench/scale/chart.ts) and the tables of docs/benchmarks.md. The steps of one size run
 * through bench/scale/sizeRun.ts; the department's are in bench/scale/departmentSteps.ts.
 */
import { odata, type TransactionAction } from '@azure/data-tables';
import { loadConfig } from '../../src/config';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';
import { emailCopyEntity, employeeEntity } from '../../src/directory/entities';
import {
  departmentPartitionKey,
  employeeRowKeyRange,
} from '../../src/storage/keys/tables/employees';
import { logHourPrefix } from '../../src/storage/keys/blobs/logBlobs';
import { sleep } from '../scale/api';
import { runDepartment, SCALE_DEPT } from '../scale/departmentSteps';
import {
  createBudget,
  formatScaleTable,
  parseMs,
  parseSizeList,
  type ScaleData,
  type ScaleSettings,
  type StepResult,
} from '../scale/metrics';
import { isolatedSettings, measureIdle, withHost } from '../scale/scaleHost';
import { SizeRun } from '../scale/sizeRun';
import {
  checkLogSequence,
  LOG_CALL_ENTRIES,
  logHourEntry,
  pastHour,
  scaleEmployee,
} from '../scale/workload';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';

const LOG_SOURCE = 'scale';
/** Raw upserts: 50 employees (employee + email copy) per entity group transaction. */
const RAW_EMPLOYEES_PER_BATCH = 50;

/** Reads the case's settings from the environment (documented in docs/benchmarks.md). */
function readSettings(env: BenchEnv): ScaleSettings {
  const e = process.env;
  return {
    sizes: parseSizeList(
      e.BENCH_SCALE_SIZES,
      'BENCH_SCALE_SIZES',
      [1000, 5000, 20000].map(env.size),
    ),
    logSizes: parseSizeList(
      e.BENCH_SCALE_LOG_LINES,
      'BENCH_SCALE_LOG_LINES',
      [10_000, 50_000].map(env.size),
      10_000_000,
    ),
    stepTimeoutMs: parseMs(e.BENCH_SCALE_STEP_TIMEOUT_MS, 'BENCH_SCALE_STEP_TIMEOUT_MS', 240_000),
    budgetMs: parseMs(e.BENCH_SCALE_BUDGET_MS, 'BENCH_SCALE_BUDGET_MS', 14 * 60_000),
  };
}

/** The raw-SDK accesses at one department size: the emulator's own cost. */
async function runRawDepartment(env: BenchEnv, run: SizeRun): Promise<void> {
  const table = env.clients.table(env.uniqueName('ScaleRaw', { table: true }));
  await table.createTable();
  const partitionKey = departmentPartitionKey(SCALE_DEPT);
  run.idle = {};
  try {
    await run.step(
      'raw import (SDK EGT)',
      async (signal, progress) => {
        for (let first = 1; first <= run.size; first += RAW_EMPLOYEES_PER_BATCH) {
          signal.throwIfAborted();
          const actions: TransactionAction[] = [];
          for (let n = first; n < first + RAW_EMPLOYEES_PER_BATCH && n <= run.size; n++) {
            const primary = employeeEntity(partitionKey, scaleEmployee(n), {
              isManager: false,
              writeId: 'raw',
              reviewYears: [],
            });
            actions.push(
              ['upsert', primary, 'Replace'],
              ['upsert', emailCopyEntity(primary), 'Replace'],
            );
          }
          await table.submitTransaction(actions);
          progress.done += actions.length / 2;
        }
        return {};
      },
      // The range query then measures the partition as far as it got.
      { raw: true, stopsRun: false },
    );
    const range = employeeRowKeyRange();
    await run.step(
      'raw list (SDK range)',
      async (signal, progress) => {
        const filter = odata`PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
        for await (const page of table
          .listEntities({ queryOptions: { filter } })
          .byPage({ maxPageSize: 1000 })) {
          signal.throwIfAborted();
          progress.done += page.length;
        }
        return { units: progress.done };
      },
      { raw: true },
    );
  } finally {
    await table.deleteTable().catch(() => undefined);
  }
}

/** The log steps at one hour size. */
async function runLogHour(env: BenchEnv, direct: StorageClients, run: SizeRun): Promise<void> {
  const settings = isolatedSettings(env);
  const lines = run.size;
  const hour = pastHour(new Date());
  await withHost(env, settings, async (api) => {
    run.idle = await measureIdle(env);
    const logQueue = direct.queue(settings.LOG_QUEUE!);
    await run.step('log ingest', async (signal, progress) => {
      for (let first = 0; first < lines; first += LOG_CALL_ENTRIES) {
        const count = Math.min(LOG_CALL_ENTRIES, lines - first);
        const entries = Array.from({ length: count }, (_, i) =>
          logHourEntry(hour, lines, first + i),
        );
        await api.postLogs(LOG_SOURCE, entries, signal);
        progress.done += count;
      }
      // Written once the flush has emptied the queue (read directly, not counted).
      while (((await logQueue.getProperties()).approximateMessagesCount ?? 0) > 0)
        await sleep(250, signal);
      return {};
    });
    await run.step('log read', async (signal, progress) => {
      const seqs: number[] = [];
      const to = new Date(hour.getTime() + 3_600_000);
      await api.pageAll<{ seq: number }>(
        'logs',
        {
          source: LOG_SOURCE,
          from: hour.toISOString(),
          to: to.toISOString(),
          pageSize: '5000',
        },
        (items) => {
          for (const item of items) seqs.push(item.seq);
          progress.done += items.length;
        },
        { signal },
      );
      const wrong = checkLogSequence(seqs, lines);
      return {
        units: seqs.length,
        note: wrong === undefined ? 'exact, in time order' : `NOT EXACT: ${wrong}`,
      };
    });
    const container = env.clients.container(settings.LOGS_CONTAINER!);
    await run.step(
      'raw log read (SDK blobs)',
      async (signal, progress) => {
        for await (const blob of container.listBlobsFlat({
          prefix: logHourPrefix(LOG_SOURCE, hour),
        })) {
          const text = (
            await container
              .getBlobClient(blob.name)
              .downloadToBuffer(undefined, undefined, { abortSignal: signal })
          ).toString('utf8');
          progress.done += text.split('\n').filter((line) => line.trim() !== '').length;
        }
        return { units: progress.done };
      },
      { raw: true, stopsRun: false },
    );
  });
}

/** The results as comparisons for bench/results.json: each app step beside its raw access. */
function comparisons(results: readonly StepResult[]): Comparison[] {
  const measurement = (r: StepResult): Measurement => ({
    label: `${r.step} (${r.status})`,
    wallMs: r.wallMs,
    operations: r.units,
    opsPerSecond: r.wallMs > 0 ? Math.round((r.units / r.wallMs) * 10_000) / 10 : 0,
    requests: r.requests,
    bytes: r.bytes,
    entities: r.entities,
  });
  const pairs: [string, string][] = [
    ['import', 'raw import (SDK EGT)'],
    ['list', 'raw list (SDK range)'],
    ['log read', 'raw log read (SDK blobs)'],
  ];
  const out: Comparison[] = [];
  for (const [app, raw] of pairs) {
    for (const r of results.filter((x) => x.step === app)) {
      const base = results.find((x) => x.step === raw && x.size === r.size);
      if (!base) continue;
      out.push({
        name: `scale: ${app} at ${r.size.toLocaleString('en-US')} ${r.unit}s vs raw SDK`,
        pattern: measurement(r),
        baseline: measurement(base),
        notes:
          `per ${r.unit}: app ${r.msPerUnit} ms, ${r.requestsPerUnit} requests, ${r.entitiesPerUnit} entities; raw ${base.msPerUnit} ms, ${base.requestsPerUnit} requests, ${base.entitiesPerUnit} entities. ${r.note ?? ''}`.trim(),
      });
    }
  }
  return out;
}

const scale: BenchCase = {
  name: 'scale: cost per employee from 1,000 to 20,000 employees',
  onlyWhenNamed: true,
  // Its own bound: the budget plus the hosts' start and stop (BENCH_CASE_TIMEOUT_MS still applies
  // when larger).
  timeoutMs:
    parseMs(process.env.BENCH_SCALE_BUDGET_MS, 'BENCH_SCALE_BUDGET_MS', 14 * 60_000) + 3 * 60_000,
  async run(env) {
    const settings = readSettings(env);
    const budget = createBudget(settings.budgetMs);
    const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
    const direct = createStorageClients(directConfig.storage, directConfig.retry);
    const results: StepResult[] = [];
    // The log hours first: they are quick, and the largest department, which may use up the
    // budget, comes last.
    for (const lines of settings.logSizes) {
      const logRun = new SizeRun(env, budget, settings.stepTimeoutMs, lines, 'log line');
      await runLogHour(env, direct, logRun);
      results.push(...logRun.results);
    }
    for (const size of settings.sizes) {
      const appRun = new SizeRun(env, budget, settings.stepTimeoutMs, size, 'employee');
      await runDepartment(env, direct, appRun);
      const rawRun = new SizeRun(env, budget, settings.stepTimeoutMs, size, 'employee');
      await runRawDepartment(env, rawRun);
      results.push(...appRun.results, ...rawRun.results);
    }
    process.stdout.write(
      `\nScale (per unit; requests exclude idle trigger polls):\n${formatScaleTable(results)}\n\n`,
    );
    process.stdout.write('`npm run bench:report` draws the charts from this run.\n');
    const data: ScaleData = { settings, steps: results };
    return { comparisons: comparisons(results), data: { ...data } };
  },
};

export default scale;
