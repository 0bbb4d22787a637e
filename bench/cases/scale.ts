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
 * charts (bench/scale/chart.ts) and the tables of docs/benchmarks.md.
 */
import { randomBytes } from 'node:crypto';
import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { loadConfig } from '../../src/config';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';
import { emailCopyEntity, employeeEntity } from '../../src/directory/entities';
import {
  departmentPartitionKey,
  employeeRowKeyRange,
} from '../../src/storage/keys/tables/employees';
import { logHourPrefix } from '../../src/storage/keys/blobs/logBlobs';
import { startBuiltHost, type BuiltHost } from '../builtHost';
import { ScaleApi, sleep, type OrchestrationStatus } from '../scale/api';
import { outboxPending } from '../scale/drainWatch';
import {
  createBudget,
  formatScaleTable,
  idleRates,
  parseMs,
  parseSizeList,
  requestsBeyondIdle,
  runBounded,
  stepResult,
  type Budget,
  type IdleRates,
  type ScaleData,
  type ScaleSettings,
  type StepProgress,
  type StepResult,
} from '../scale/metrics';
import {
  checkLogSequence,
  importCalls,
  LOG_CALL_ENTRIES,
  logHourEntry,
  pastHour,
  scaleEmployee,
  SHARED_LAST_NAME,
  sharedNameCount,
} from '../scale/workload';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';

const DEPT = 'Scale';
const LOG_SOURCE = 'scale';
const FUNCTIONS =
  'dist/functions/{departments,employees,indexUpdates,outboxSweep,orchestrations,archive,logs,logBatches}.js';
const IDLE_MS = 5_000;
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

/** What a step's work reports when it finishes. */
interface StepOutcome {
  /** Rows covered, when not the whole size. */
  units?: number;
  note?: string;
}

/** The per-size context the steps share. */
class SizeRun {
  readonly results: StepResult[] = [];
  idle: IdleRates = {};
  /** Set once a step has failed or timed out: later steps of this run are skipped. */
  stopped?: string;

  constructor(
    readonly env: BenchEnv,
    readonly budget: Budget,
    readonly stepTimeoutMs: number,
    readonly size: number,
    readonly unit: StepResult['unit'],
  ) {}

  async step(
    name: string,
    work: (signal: AbortSignal, progress: StepProgress) => Promise<StepOutcome>,
    options: { raw?: boolean; stopsRun?: boolean } = {},
  ): Promise<StepResult> {
    const base = { step: name, size: this.size, unit: this.unit, raw: options.raw };
    if (this.stopped !== undefined || this.budget.remaining() === 0) {
      const result = stepResult({
        ...base,
        units: 0,
        status: 'skipped',
        wallMs: 0,
        requests: 0,
        entities: 0,
        bytes: 0,
        note: this.stopped ?? 'budget spent',
      });
      this.results.push(result);
      return result;
    }
    const timeoutMs = this.budget.stepTimeout(this.stepTimeoutMs);
    this.env.resetTraffic();
    process.stdout.write(`  … ${name} at ${this.size.toLocaleString('en-US')}\n`);
    const outcome = await runBounded(timeoutMs, work);
    const traffic = this.env.traffic();
    const figures = {
      ...base,
      wallMs: outcome.elapsedMs,
      requests: requestsBeyondIdle(traffic, this.idle, outcome.elapsedMs),
      entities: traffic.entitiesRead,
      bytes: traffic.bytesSent + traffic.bytesReceived,
    };
    let result: StepResult;
    if (outcome.status === 'ok') {
      result = stepResult({
        ...figures,
        units: outcome.value.units ?? this.size,
        status: 'ok',
        note: outcome.value.note,
      });
    } else {
      const why =
        outcome.status === 'timedOut'
          ? `timed out after ${(outcome.elapsedMs / 1000).toFixed(0)} s at ${outcome.done.toLocaleString('en-US')} of ${this.size.toLocaleString('en-US')}`
          : `failed at ${outcome.done} of ${this.size}: ${firstLine(outcome.error)}`;
      result = stepResult({ ...figures, units: outcome.done, status: outcome.status, note: why });
      if (options.stopsRun !== false)
        this.stopped = `after ${name} ${outcome.status === 'timedOut' ? 'timed out' : 'failed'}`;
    }
    this.results.push(result);
    return result;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200);
}

function isolatedSettings(env: BenchEnv): Record<string, string> {
  return {
    EMPLOYEES_TABLE: env.uniqueName('ScaleEmp', { table: true }),
    ARCHIVE_TABLE: env.uniqueName('ScaleArc', { table: true }),
    EMPLOYEE_INDEX_TABLE: env.uniqueName('ScaleIdx', { table: true }),
    LASTNAME_INDEX_CONTAINER: env.uniqueName('scale-lastnames'),
    LOGS_CONTAINER: env.uniqueName('scale-logs'),
    ARCHIVE_QUEUE: env.uniqueName('scale-arc'),
    INDEX_QUEUE: env.uniqueName('scale-idx'),
    LOG_QUEUE: env.uniqueName('scale-log'),
    AzureFunctionsJobHost__extensions__durableTask__hubName: `Scale${randomBytes(5).toString('hex')}`,
  };
}

async function withHost<T>(
  env: BenchEnv,
  settings: Record<string, string>,
  run: (api: ScaleApi, host: BuiltHost) => Promise<T>,
): Promise<T> {
  const host = await startBuiltHost(env, FUNCTIONS, settings);
  try {
    return await run(new ScaleApi(host.baseUrl, () => host.output()), host);
  } finally {
    await host.stop();
  }
}

/** Measures the host's idle request rates (its trigger polls), after a short settle. */
async function measureIdle(env: BenchEnv): Promise<IdleRates> {
  await sleep(2_000);
  env.resetTraffic();
  const started = Date.now();
  await sleep(IDLE_MS);
  return idleRates(env.traffic(), Date.now() - started);
}

/** An orchestration's status in a line: its totals (`{"checked", "missing", ...}`), not its details. */
function orchestrationNote(status: OrchestrationStatus): string {
  const output = status.output;
  if (output === null || typeof output !== 'object') {
    return `${status.runtimeStatus}: ${JSON.stringify(output ?? status.failure ?? null)}`;
  }
  const totals = Object.entries(output).filter(([, value]) => typeof value !== 'object');
  return `${status.runtimeStatus}: ${totals.map(([key, value]) => `${key} ${String(value)}`).join(', ')}`;
}

/**
 * What is wrong with the audit of a clean department of `size` employees: drift found, or fewer
 * entries checked than its five per-employee indexes hold (undefined: nothing).
 */
function auditDrift(output: unknown, size: number): string | undefined {
  const totals = output as { checked?: number; missing?: number; stale?: number } | null;
  if (totals?.missing !== 0 || totals.stale !== 0) return 'the audit found drift in a clean index';
  if ((totals.checked ?? 0) < 5 * size) return `the audit checked fewer than ${5 * size} entries`;
  return undefined;
}

/** What is wrong with the archive of a department of `size` (undefined: nothing). */
function archiveShortfall(output: unknown, size: number): string | undefined {
  const result = output as { archived?: number; notFound?: number } | null;
  if (result?.archived !== size || result.notFound !== 0) {
    return `the archive reports ${result?.archived} archived and ${result?.notFound} not found of ${size}`;
  }
  return undefined;
}

/** Employee entities in `table` (0 before it exists). */
async function countEmployees(table: TableClient): Promise<number> {
  const range = employeeRowKeyRange();
  const filter = odata`RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
  let count = 0;
  try {
    const pages = table.listEntities({ queryOptions: { filter, select: ['RowKey'] } });
    for await (const page of pages.byPage({ maxPageSize: 1000 })) count += page.length;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
  return count;
}

/** Drops a size's tables (directly), so the emulator does not carry them into the next size. */
async function dropTables(direct: StorageClients, settings: Record<string, string>): Promise<void> {
  const tables = [
    settings.EMPLOYEES_TABLE!,
    settings.ARCHIVE_TABLE!,
    settings.EMPLOYEE_INDEX_TABLE!,
  ];
  await Promise.allSettled(tables.map((name) => direct.table(name).deleteTable()));
}

/** The directory steps at one department size. */
async function runDepartment(env: BenchEnv, direct: StorageClients, run: SizeRun): Promise<void> {
  const settings = isolatedSettings(env);
  const size = run.size;
  const shared = sharedNameCount(size);
  try {
    await withHost(env, settings, async (api) => {
      await api.call('PUT', `departments/${DEPT}`, {
        body: { description: 'Scale' },
        expected: [200, 201],
      });
      run.idle = await measureIdle(env);

      let lastImportAt = Date.now();
      await run.step('import', async (signal, progress) => {
        const times: number[] = [];
        for (const rows of importCalls(size)) {
          const started = Date.now();
          const result = await api.call<{ created: number; failed: unknown[] }>(
            'POST',
            `departments/${DEPT}/employees/import`,
            { body: { employees: rows }, signal },
          );
          times.push(Date.now() - started);
          if (result.failed.length > 0)
            throw new Error(`Import refused ${result.failed.length} rows.`);
          progress.done += result.created;
        }
        lastImportAt = Date.now();
        const first = times[0]!;
        const last = times.at(-1)!;
        return {
          note: `${times.length} calls; first ${first} ms, last ${last} ms (last/first ${(last / first).toFixed(2)}×)`,
        };
      });

      const employees = direct.table(settings.EMPLOYEES_TABLE!);
      const indexQueue = direct.queue(settings.INDEX_QUEUE!);
      // A drain out of time leaves the others meaningful (search then says what it found).
      await run.step(
        'index drain',
        async (signal) => {
          // Direct (uncounted) checks: no outbox row left in the partition, no index message waiting.
          for (;;) {
            const rows = await outboxPending(employees, DEPT);
            const waiting =
              rows === 0 ? ((await indexQueue.getProperties()).approximateMessagesCount ?? 0) : 1;
            if (rows === 0 && waiting === 0) break;
            await sleep(250, signal);
          }
          return {
            note: `${((Date.now() - lastImportAt) / 1000).toFixed(1)} s after the last import call`,
          };
        },
        { stopsRun: false },
      );

      /** Pages through a list, counting its items; returns the number of pages. */
      const countAll = (
        listPath: string,
        query: Record<string, string>,
        signal: AbortSignal,
        progress: StepProgress,
      ): Promise<number> =>
        api.pageAll(listPath, query, (items) => (progress.done += items.length), { signal });
      /** Runs an orchestration to its end; one that does not complete fails the step. */
      const orchestrationStep = (
        name: string,
        startPath: string,
        options: {
          body?: unknown;
          progressOf?: () => Promise<number>;
          /** What is wrong with a completed orchestration's output (undefined: nothing). */
          check?: (output: unknown) => string | undefined;
        } = {},
      ) =>
        run.step(
          name,
          async (signal, progress) => {
            // How far it got, read now and then (directly, not counted), for a time-out to report.
            const ticker = options.progressOf
              ? setInterval(() => {
                  options.progressOf!().then(
                    (n) => (progress.done = n),
                    () => undefined,
                  );
                }, 15_000)
              : undefined;
            try {
              const status = await api.runOrchestration(startPath, { body: options.body, signal });
              if (status.runtimeStatus !== 'Completed') throw new Error(orchestrationNote(status));
              const wrong = options.check?.(status.output);
              if (wrong !== undefined) throw new Error(`${wrong}; ${orchestrationNote(status)}`);
              return { note: orchestrationNote(status) };
            } finally {
              clearInterval(ticker);
              if (options.progressOf)
                progress.done = await options.progressOf().catch(() => progress.done);
            }
          },
          // Archiving is the last step; a failed audit leaves the archive worth measuring.
          { stopsRun: false },
        );

      await run.step(
        'list',
        async (signal, progress) => {
          await countAll(`departments/${DEPT}/employees`, { pageSize: '1000' }, signal, progress);
          return {
            units: progress.done,
            note: progress.done === size ? undefined : `listed ${progress.done}`,
          };
        },
        { stopsRun: false },
      );

      await run.step(
        'search',
        async (signal, progress) => {
          const query = { lastName: SHARED_LAST_NAME, pageSize: '1000' };
          const pages = await countAll('employees', query, signal, progress);
          const found = progress.done;
          const complete = found === shared ? '' : ' — INCOMPLETE';
          return {
            note: `${found} of ${shared} members of the shared name in ${pages} pages${complete}`,
          };
        },
        { stopsRun: false },
      );

      // The integration tests audit small departments in small pages; here the audit pages through
      // real sizes in its default pages, and must find the freshly imported department clean.
      await orchestrationStep('audit', 'maintenance/indexes/audit', {
        body: { repair: false },
        check: (output) => auditDrift(output, size),
      });
      // The e2e tests archive a few dozen in small pages and chunks; here thousands in the
      // default ones (pages of 1,000, chunks of 100, continuing as new), each exactly once.
      await orchestrationStep('archive', `departments/${DEPT}/archive`, {
        progressOf: () => countEmployees(direct.table(settings.ARCHIVE_TABLE!)),
        check: (output) => archiveShortfall(output, size),
      });
    });
  } finally {
    await dropTables(direct, settings);
  }
}

/** The raw-SDK accesses at one department size: the emulator's own cost. */
async function runRawDepartment(env: BenchEnv, run: SizeRun): Promise<void> {
  const table = env.clients.table(env.uniqueName('ScaleRaw', { table: true }));
  await table.createTable();
  const partitionKey = departmentPartitionKey(DEPT);
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
  // Its own bound: the budget plus the hosts' start and stop (BENCH_CASE_TIMEOUT_MS still applies when larger).
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
