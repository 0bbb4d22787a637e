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
 *    without a relocation (for as long, at most a minute), for their rate.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createServices, type Services } from '../../functions/shared/services';
import { copyChunk } from '../../src/accounts/relocation/relocationCopy';
import { deleteChunk } from '../../src/accounts/relocation/relocationDelete';
import {
  freezeDepartment,
  startRelocation,
  switchDepartment,
  type RelocationCursor,
  type RelocationDeps,
} from '../../src/accounts/relocation/relocationSteps';
import { syncChunk } from '../../src/accounts/relocation/relocationSync';
import { loadConfig, type Config } from '../../src/config';
import { ConflictError, ThrottledError, UnavailableError } from '../../src/domainErrors';
import { azuriteConnectionString, dataEmulatorAccount, startAzurite } from '../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../tools/faultProxy/faultProxy';
import { benchEmployee } from '../employees';
import { spreadGoal } from '../caseGoals';
import { exactly, holds, judge } from '../goals';
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
): Promise<Measurement> {
  const { departments, employees } = services.directory();
  for (let d = 0; d < spread; d++) await asCaller(() => departments.put(departmentName(d), {}));
  const before = counters.map((counter) => counter());
  const started = now();
  let next = 1;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next <= count) {
        const n = next++;
        await asCaller(() => employees.create(departmentName(n % spread), benchEmployee(n)));
      }
    }),
  );
  // Index maintenance is part of the work: every outbox drained, as many at once as writers.
  await services.changeQueue().settled();
  let drained = 0;
  await Promise.all(
    Array.from({ length: Math.min(writers, spread) }, async () => {
      for (let d = drained++; d < spread; d = drained++) {
        await asCaller(() => services.indexDrains().request(departmentName(d)));
      }
    }),
  );
  const wallMs = now() - started;
  return {
    label,
    wallMs: Math.round(wallMs),
    operations: count,
    opsPerSecond: Math.round((count / wallMs) * 10_000) / 10,
    requests: requestsSince(counters, before),
    bytes: 0,
  };
}

async function spreadComparison(env: BenchEnv, data: DataAccounts): Promise<Comparison> {
  const count = env.size(2_000);
  const all = countersOf(env, data);
  const runs: { one: Measurement[]; two: Measurement[] } = { one: [], two: [] };
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
      `requests per create one ${perCreate(baseline)}, two ${perCreate(pattern)} (over every account).`,
  };
}

/** Refusals before the freeze or after every placement cache saw the switch: there must be none. */
function refusedOutside(at: number[], around: { from: number; to: number }, refused: number) {
  const outside = at.filter((t) => t < around.from || t > around.to).length;
  return holds(
    `${outside} of ${refused} refusals outside the freeze-to-switch window`,
    outside === 0,
  );
}

/** Writes to the department until `stop`: creates of new employees and renames of seeded ones. */
async function writeWhile(
  services: Services,
  department: string,
  first: number,
  seeded: number,
  stop: () => boolean,
): Promise<{
  acknowledged: Map<string, string>;
  refused: number;
  /** When each refusal came (`now()`), to tell whether they all fell around the switch. */
  refusedAt: number[];
  failed: number;
  writes: number;
}> {
  const acknowledged = new Map<string, string>();
  const refusedAt: number[] = [];
  let refused = 0;
  let failed = 0;
  let writes = 0;
  let next = first;
  const { employees } = services.directory();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stop()) {
        const n = next++;
        writes++;
        const create = n % 2 === 0;
        const id = create ? String(n).padStart(6, '0') : String((n % seeded) + 1).padStart(6, '0');
        const value = `Late${n}`;
        try {
          if (create) await employees.create(department, { ...benchEmployee(n), lastName: value });
          else await employees.patch(department, id, { lastName: value });
          acknowledged.set(id, value);
        } catch (error) {
          if (error instanceof ThrottledError && error.code === 'Relocating') {
            refused++;
            refusedAt.push(now());
            await sleep(200);
          } else failed++;
        }
      }
    }),
  );
  return { acknowledged, refused, refusedAt, failed, writes };
}

/** The relocation's steps in the orchestrator's order, with its waits for the placement cache. */
async function relocate(deps: RelocationDeps, department: string, to: string, cacheMs: number) {
  const plan = await startRelocation(deps, department, to, randomUUID().replace(/-/g, ''));
  const run = async (
    step: (c?: RelocationCursor) => Promise<{ next?: RelocationCursor; rows: number }>,
  ) => {
    let cursor: RelocationCursor | undefined;
    let rows = 0;
    do {
      const result = await step(cursor);
      rows += result.rows;
      cursor = result.next;
    } while (cursor);
    return rows;
  };
  const started = now();
  const copied = await run((c) => copyChunk(deps, plan, c));
  const copyMs = now() - started;
  progress(`copied ${copied} rows and blobs in ${(copyMs / 1000).toFixed(1)} s`);
  const freezing = now();
  await freezeDepartment(deps, plan);
  const frozenAt = now();
  const synced = await run((c) => syncChunk(deps, plan, c));
  const syncMs = now() - frozenAt;
  await sleep(Math.max(0, frozenAt + cacheMs + 1_000 - now()));
  await switchDepartment(deps, plan);
  const switchedAt = now();
  const frozenMs = switchedAt - freezing;
  await sleep(cacheMs + 1_000);
  const deleting = now();
  await run((c) => deleteChunk(deps, plan, c));
  // Around the switch: from the freeze until placement caches have all seen the switch.
  const aroundSwitch = { from: freezing, to: switchedAt + cacheMs + 1_000 };
  return { copied, frozenMs, copyMs, syncMs, synced, deleteMs: now() - deleting, aroundSwitch };
}

async function relocationComparison(env: BenchEnv, data: DataAccounts): Promise<Comparison> {
  const seeded = env.size(5_000);
  const config = configOf(env, { ...freshNames(env), ...data.settings });
  const services = createServices(() => config);
  const department = 'Sales';
  const { departments, employees } = services.directory();
  await departments.put(department, { description: 'Relocated' });
  for (let i = 0; i < seeded; i += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, seeded - i) }, (_, k) =>
      benchEmployee(i + k + 1),
    );
    await employees.import(department, rows);
  }
  await services.changeQueue().settled();
  await services.indexDrains().request(department);
  progress(`seeded ${seeded} employees`);
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

  // Every acknowledged write is there, exactly as acknowledged.
  let lost = 0;
  for (const [id, lastName] of during.acknowledged) {
    const current = await employees.get(department, id).catch(() => undefined);
    if (current?.value.lastName !== lastName) lost++;
  }
  const count = (await departments.get(department)).value.employeeCount;

  const quiet = { acknowledged: 0 };
  let stop = false;
  const quietStarted = now();
  const alone = writeWhile(services, department, 900_001, seeded, () => stop);
  // A minute at most: enough for a rate.
  await sleep(Math.min(relocationMs, 60_000));
  stop = true;
  quiet.acknowledged = (await alone).acknowledged.size;
  const quietMs = now() - quietStarted;

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
      wallMs: Math.round(quietMs),
      operations: quiet.acknowledged,
      opsPerSecond: Math.round((quiet.acknowledged / quietMs) * 10_000) / 10,
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
