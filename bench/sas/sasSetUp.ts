/**
 * The SAS case's fixture (bench/cases/sas.ts): one employee's expenses partition of
 * {@link CLAIMS} claims and a 64 KiB photo on fresh tables and containers, the SAS service wired
 * by the composition root as the app's own is, and the timing loop the latency figures use.
 */
import { loadConfig, type Config } from '../../src/config';
import { employeePartitionKey } from '../../src/storage/keys/tables/employeePartitions';
import { employeeRowKey } from '../../src/storage/keys/tables/employees';
import { invertedTicksRowKey } from '../../src/storage/keys/time';
import { photoBlobName } from '../../src/storage/keys/blobs/photoBlobs';
import { createServices } from '../../functions/shared/services';
import { PHOTO_BLOB_PROPERTY } from '../../src/photos/photoLocator';
import type { SasIssuer } from '../../src/accounts/routing/spreadSas';
import { percentile } from '../harness';
import type { BenchEnv } from '../types';

export const DEPT = 'Sales';
export const EMPLOYEE = '000223';
/** Claims in the employee's expenses partition. */
export const CLAIMS = 20;
export const PHOTO_BYTES = 64 * 1024;

/** Runs `op` `count` times one after another, timing each call. */
export async function timedLoop(
  count: number,
  op: () => Promise<unknown>,
): Promise<{ p50Ms: number; p95Ms: number }> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await op();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

/** The fixture {@link setUp} builds. */
export interface SasFixture {
  service: SasIssuer;
  config: Config;
  settings: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Fresh tables and containers holding the employee's claims and photo, and the SAS service. */
export async function setUp(env: BenchEnv): Promise<SasFixture> {
  const names = {
    EMPLOYEES_TABLE: env.uniqueName('BenchSasEmp', { table: true }),
    EXPENSES_TABLE: env.uniqueName('BenchSasExp', { table: true }),
    PHOTOS_CONTAINER: env.uniqueName('bench-sas-photos'),
    LOGS_CONTAINER: env.uniqueName('bench-sas-logs'),
  };
  const config = loadConfig({
    ...process.env,
    AzureWebJobsStorage: env.connectionString,
    ...names,
  });
  const { clients } = env;
  const expenses = clients.table(config.tables.expenses);
  const employees = clients.table(config.tables.employees);
  const photos = clients.container(config.containers.photos);
  await expenses.createTable();
  await employees.createTable();
  await photos.createIfNotExists();
  await clients.container(config.containers.logs).createIfNotExists();

  const partitionKey = employeePartitionKey(DEPT, EMPLOYEE);
  for (let i = 0; i < CLAIMS; i++) {
    await expenses.createEntity({
      partitionKey,
      rowKey: invertedTicksRowKey(new Date(Date.UTC(2026, 0, 1 + i)), `c${i}`),
      Amount: 12.5 * (i + 1),
      Currency: 'EUR',
      Description: `Taxi ride number ${i} to the customer site`,
    });
  }
  const photo = photoBlobName(DEPT, EMPLOYEE, 'v1');
  await photos.getBlockBlobClient(photo).uploadData(Buffer.alloc(PHOTO_BYTES, 7));
  await employees.createEntity({
    partitionKey: DEPT,
    rowKey: employeeRowKey(EMPLOYEE),
    [PHOTO_BLOB_PROPERTY]: photo,
  });

  return {
    // Wired by the composition root, as the app's own service is.
    service: createServices(() => config).sas(),
    config,
    settings: { ...names, AzureWebJobsStorage: env.connectionString },
    async cleanup() {
      await expenses.deleteTable();
      await employees.deleteTable();
      await photos.deleteIfExists();
      await clients.container(config.containers.logs).deleteIfExists();
    },
  };
}
