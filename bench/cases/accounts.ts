/**
 * Beyond one account (docs/accounts.md, issue 32 item 5), on real emulators: two more Azurite
 * processes, each its own data account behind its own counting proxy (requests are summed over
 * every account).
 *
 * 1. Spread writes: creates with index maintenance (the outbox, the writer's own drain, as the
 *    composition root wires them) from 32 concurrent writers over 16 departments, all in one
 *    account (baseline) against the same departments placed over two data accounts (pattern).
 *    Throughput ratio and requests per create; each side runs twice, alternately, the better run
 *    counts (the machine is shared).
 * 2. A relocation of a 5,000-employee department to the other data account while writes to it
 *    continue: its time, rows copied, writes acknowledged and refused (503 `Relocating`), and every
 *    acknowledged write read back afterwards (none may be missing). Baseline: the same writes
 *    without a relocation (for as long, at most a minute), for their rate. Its writes and steps
 *    are in bench/accounts/relocationWrites.ts.
 */
import os from 'node:os';
import { createServices, type Services } from '../../functions/shared/services';
import type { RelocationDeps } from '../../src/accounts/relocation/relocationSteps';
import { loadConfig, type Config } from '../../src/config';
import { ConflictError, ThrottledError, UnavailableError } from '../../src/domainErrors';
import { azuriteConnectionString, dataEmulatorAccount, startAzurite } from '../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../tools/faultProxy/faultProxy';
import { benchEmployee } from '../employees';
import { spreadGoal } from '../caseGoals';
import { exactly, judge } from '../goals';
import {
  lostWrites,
  refusedOutside,
  relocate,
  seedDepartment,
  writesAlone,
  writeWhile,
} from '../accounts/relocationWrites';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';

const WRITERS = 32;
const DEPARTMENTS = 16;
const departmentName = (d: number): string => `Spread${String(d).padStart(2, '0')}`;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** A line on the run's output while a long case goes on. */
const progress = (line: string): void => void process.stdout.write(`    ${line}\n`);

/** Two data accounts, each an Azurite process of its own behind a counting proxy. */
export interface DataAccounts {
  settings: Record<string, string>;
  proxies: FaultProxy[];
  stop(): Promise<void>;
}

export async function startDataAccounts(): Promise<DataAccounts> {
  const started = await Promise.all(
    [1, 2].map(async (index) => {
      const account = dataEmulatorAccount(index);
      const azurite = await startAzurite({ account });
      const proxy = await startFaultProxy({ target: azurite.ports });
      const connection = azuriteConnectionString(proxy.ports, '127.0.0.1', 'http', account);
      return { index, azurite, proxy, connection };
    }),
  );
  return {
    settings: Object.fromEntries([
      ['DATA_ACCOUNTS', 'DATA1,DATA2'],
      ...started.map(({ index, connection }) => [`DATA${index}`, connection]),
    ]),
    proxies: started.map(({ proxy }) => proxy),
    async stop() {
      for (const { proxy, azurite } of started) {
        await proxy.stop();
        await azurite.stop();
      }
    },
  };
}

/** Settings with names of this run's own, so every run starts empty. */
export function freshNames(env: BenchEnv): Record<string, string> {
  const table = (prefix: string): string => env.uniqueName(prefix, { table: true });
  return {
    EMPLOYEES_TABLE: table('AccEmp'),
    ARCHIVE_TABLE: table('AccArc'),
    EMPLOYEE_INDEX_TABLE: table('AccIdx'),
    EXPENSES_TABLE: table('AccExp'),
    MESSAGE_STATS_TABLE: table('AccSta'),
    ACCESS_LOG_TABLE: table('AccAcc'),
    PLACEMENTS_TABLE: table('AccPla'),
    INDEX_QUEUE: env.uniqueName('acc-idx'),
    LASTNAME_INDEX_CONTAINER: env.uniqueName('acc-ln'),
    PHOTOS_CONTAINER: env.uniqueName('acc-ph'),
  };
}

/** The configuration of one side: the harness's home account (its counting proxy) and `settings`. */
export function configOf(env: BenchEnv, settings: Record<string, string>): Config {
  return loadConfig({ ...process.env, AzureWebJobsStorage: env.connectionString, ...settings });
}

/** Requests storage saw so far, per account (each a counting proxy). */
export type Counter = () => number;

/** Requests every account saw since `before`. */
function requestsSince(counters: Counter[], before: number[]): number {
  return counters.reduce((sum, counter, i) => sum + counter() - before[i]!, 0);
}

/** The home account's counter (the harness's proxy) and each data account's. */
function countersOf(env: BenchEnv, data: DataAccounts): Counter[] {
  env.resetTraffic();
  return [
    () => env.traffic().requests,
    ...data.proxies.map((proxy) => () => proxy.counts().requests),
  ];
}

/**
 * Runs `work` as an API caller would: a 503 (storage busy past the app's retries, Azure's
 * targets; or out of reach, `Retry-After: 5`) is waited out and tried again; a create that then finds itself
 * already there (its earlier try landed) is done.
 */
export async function asCaller(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (attempt > 0 && error instanceof ConflictError) return;
      if (error instanceof UnavailableError) await sleep(5_000);
      else if (!(error instanceof ThrottledError) || error.code === 'Relocating') throw error;
      else await sleep(Math.max(1, error.retryAfterSeconds) * 1000);
    }
  }
}

/**
 * Creates `count` employees over `spread` departments, `writers` at a time, indexes brought up to
 * date.
 */
export async function spreadWrites(
  services: Services,
  counters: Counter[],
  label: string,
  count: number,
  spread = DEPARTMENTS,
  writers = WRITERS,
): Promise<Measurement & { setupRequests: number }> {
  const { departments } = services.directory();
  const setupFrom = counters.map((counter) => counter());
  for (let d = 0; d < spread; d++) await asCaller(() => departments.put(departmentName(d), {}));
  // One create per department first, its index brought up to date: what a department's first
  // write sets up once (its placement, each partition's fence in a data account) is reported
  // apart, so requests per create are those of the steady state on both sides.
  await createAll(services, spread, writers, (d) => [departmentName(d), count + 1 + d]);
  const setupRequests = requestsSince(counters, setupFrom);
  const before = counters.map((counter) => counter());
  const started = now();
  await createAll(services, count, writers, (i) => [departmentName((i + 1) % spread), i + 1]);
  const wallMs = now() - started;
  return {
    label,
    wallMs: Math.round(wallMs),
    operations: count,
    opsPerSecond: Math.round((count / wallMs) * 10_000) / 10,
    requests: requestsSince(counters, before),
    bytes: 0,
    setupRequests,
  };
}

/**
 * Creates `count` employees (`which(i)`: the department and number of the i-th), `writers` at a
 * time, then drains every department's outbox, as many at once as writers: index maintenance is
 * part of the work.
 */
async function createAll(
  services: Services,
  count: number,
  writers: number,
  which: (i: number) => [department: string, n: number],
): Promise<void> {
  const { employees } = services.directory();
  const touched = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) {
        const [department, n] = which(next++);
        touched.add(department);
        await asCaller(() => employees.create(department, benchEmployee(n)));
      }
    }),
  );
  await services.changeQueue().settled();
  const pending = [...touched];
  await Promise.all(
    Array.from({ length: Math.min(writers, pending.length) }, async () => {
      for (let department = pending.pop(); department !== undefined; department = pending.pop()) {
        await asCaller(() => services.indexDrains().request(department));
      }
    }),
  );
}

/** One side's run of {@link spreadWrites}. */
type SpreadRun = Measurement & { setupRequests: number };

/** The set-up requests of the run that counts. */
const setupOf = (runs: SpreadRun[], chosen: Measurement): number | undefined =>
  runs.find((run) => run === chosen)?.setupRequests;

async function spreadComparison(env: BenchEnv, data: DataAccounts): Promise<Comparison> {
  const count = env.size(2_000);
  const all = countersOf(env, data);
  const runs: { one: SpreadRun[]; two: SpreadRun[] } = { one: [], two: [] };
  for (let round = 0; round < 2; round++) {
    // Each side's configuration is made once: the composition root reads it on every use, and
    // names made anew per read would scatter a side over tables no routing knows.
    const oneConfig = configOf(env, freshNames(env));
    const one = createServices(() => oneConfig);
    runs.one.push(await spreadWrites(one, all, 'one account', count));
    progress(`one account: ${runs.one.at(-1)!.opsPerSecond} creates/s`);
    const twoConfig = configOf(env, { ...freshNames(env), ...data.settings });
    const two = createServices(() => twoConfig);
    runs.two.push(await spreadWrites(two, all, 'two data accounts', count));
    progress(`two data accounts: ${runs.two.at(-1)!.opsPerSecond} creates/s`);
  }
  const best = (list: Measurement[]): Measurement =>
    list.reduce((a, b) => (b.opsPerSecond > a.opsPerSecond ? b : a));
  const baseline = best(runs.one);
  const pattern = best(runs.two);
  const perCreate = (m: Measurement): string => (m.requests / m.operations).toFixed(2);
  return {
    name: `${count} creates with index maintenance by ${WRITERS} writers over ${DEPARTMENTS} departments: two data accounts vs one`,
    pattern,
    baseline,
    goal: spreadGoal(pattern, baseline, os.cpus().length),
    notes:
      `throughput ratio ${(pattern.opsPerSecond / baseline.opsPerSecond).toFixed(2)}× ` +
      `(runs: one ${runs.one.map((m) => m.opsPerSecond).join(', ')}/s; two ${runs.two.map((m) => m.opsPerSecond).join(', ')}/s); ` +
      `requests per create one ${perCreate(baseline)}, two ${perCreate(pattern)} (over every account); ` +
      `set up once before (the departments, one create each and its drain): one account ` +
      `${setupOf(runs.one, baseline)}, two ${setupOf(runs.two, pattern)} requests.`,
  };
}

async function relocationComparison(env: BenchEnv, data: DataAccounts): Promise<Comparison> {
  const seeded = env.size(5_000);
  const config = configOf(env, { ...freshNames(env), ...data.settings });
  const services = createServices(() => config);
  const department = 'Sales';
  await seedDepartment(services, department, seeded);
  const from = (await services.placement().ofDepartment(department)).account;
  const to = from === 'DATA1' ? 'DATA2' : 'DATA1';
  const all = countersOf(env, data);

  // Baseline: the writes alone, for as long as the relocation takes below.
  let relocating = true;
  const before = all.map((counter) => counter());
  const started = now();
  const writing = writeWhile(services, department, 100_001, seeded, () => !relocating);
  const deps: RelocationDeps = {
    placement: services.placement(),
    tables: config.tables,
    photosContainer: config.containers.photos,
    chunkRows: config.accounts.relocationChunkRows,
  };
  const { copied, frozenMs, copyMs, syncMs, synced, deleteMs, aroundSwitch } = await relocate(
    deps,
    department,
    to,
    config.accounts.placementCacheMs,
  );
  const relocationMs = now() - started;
  relocating = false;
  const during = await writing;
  const requests = requestsSince(all, before);

  const lost = await lostWrites(services, department, during.acknowledged);
  const count = (await services.directory().departments.get(department)).value.employeeCount;
  // A minute at most: enough for a rate.
  const quiet = await writesAlone(services, department, seeded, Math.min(relocationMs, 60_000));

  return {
    name: `relocation of a ${seeded}-employee department to the other data account while writes continue`,
    pattern: {
      label: 'relocation with writes',
      wallMs: Math.round(relocationMs),
      operations: copied,
      opsPerSecond: Math.round((copied / relocationMs) * 10_000) / 10,
      requests,
      bytes: 0,
    },
    baseline: {
      label: 'the same writes without a relocation',
      wallMs: Math.round(quiet.ms),
      operations: quiet.acknowledged,
      opsPerSecond: Math.round((quiet.acknowledged / quiet.ms) * 10_000) / 10,
      requests: 0,
      bytes: 0,
    },
    goal: judge('no acknowledged write lost; writes refused only around the switch', [
      exactly('acknowledged writes lost', lost, 0),
      refusedOutside(during.refusedAt, aroundSwitch, during.refused),
    ]),
    notes:
      `${(relocationMs / 1000).toFixed(1)} s, ${copied} rows and blobs copied; writes during it: ${during.writes} ` +
      `(${during.acknowledged.size} acknowledged, ${during.refused} refused with 503 Relocating, ${during.failed} failed otherwise); ` +
      `lost: ${lost}; copy ${(copyMs / 1000).toFixed(1)} s, frozen ${(frozenMs / 1000).toFixed(1)} s ` +
      `(last sync ${(syncMs / 1000).toFixed(1)} s for ${synced} keys, placement cache ${config.accounts.placementCacheMs / 1000} s), ` +
      `source deleted in ${(deleteMs / 1000).toFixed(1)} s; ` +
      `${count} employees after; ${quiet.acknowledged} writes in the same time without a relocation.`,
  };
}

/** Runs `compare` with two data accounts started for it, and stops them after. */
function withDataAccounts(
  compare: (env: BenchEnv, data: DataAccounts) => Promise<Comparison>,
): BenchCase['run'] {
  return async (env) => {
    const data = await startDataAccounts();
    try {
      return await compare(env, data);
    } finally {
      await data.stop();
    }
  };
}

const spread: BenchCase = {
  name: 'accounts: spread writes, two data accounts vs one',
  timeoutMs: 1_800_000,
  run: withDataAccounts(spreadComparison),
};

const relocation: BenchCase = {
  name: 'accounts: relocation of a department while writes continue',
  timeoutMs: 1_800_000,
  run: withDataAccounts(relocationComparison),
};

export default [spread, relocation];
