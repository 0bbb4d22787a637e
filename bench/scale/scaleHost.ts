/**
 * The built host of one size of the scale case (bench/cases/scale.ts), on tables, containers,
 * queues and a task hub of its own, so no size inherits another's data; its idle request rates
 * (the trigger polls) are measured first so the steps' figures can leave them out.
 */
import { randomBytes } from 'node:crypto';
import type { StorageClients } from '../../src/storage/clients';
import { startBuiltHost, type BuiltHost } from '../builtHost';
import type { BenchEnv } from '../types';
import { ScaleApi, sleep } from './api';
import { idleRates, type IdleRates } from './metrics';

const FUNCTIONS =
  'dist/functions/{departments,employees,indexUpdates,outboxSweep,orchestrations,archive,logs,logBatches}.js';
const IDLE_MS = 5_000;

/** Fresh storage names (and task hub) for one size's host. */
export function isolatedSettings(env: BenchEnv): Record<string, string> {
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

/** Runs `run` against a built host on `settings`, stopped afterwards whatever happens. */
export async function withHost<T>(
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
export async function measureIdle(env: BenchEnv): Promise<IdleRates> {
  await sleep(2_000);
  env.resetTraffic();
  const started = Date.now();
  await sleep(IDLE_MS);
  return idleRates(env.traffic(), Date.now() - started);
}

/** Drops a size's tables (directly), so the emulator does not carry them into the next size. */
export async function dropTables(
  direct: StorageClients,
  settings: Record<string, string>,
): Promise<void> {
  const tables = [
    settings.EMPLOYEES_TABLE!,
    settings.ARCHIVE_TABLE!,
    settings.EMPLOYEE_INDEX_TABLE!,
  ];
  await Promise.allSettled(tables.map((name) => direct.table(name).deleteTable()));
}
