/**
 * The directory's bulk import against its naive alternatives, in the same run: 5,000 employees
 * through the service in 1,000-row calls vs raw batched upserts of the same primary and email
 * entities (transactions of 100 operations, one at a time: the mean of a run before and one after
 * the service), four at a time, and raw batched inserts. Apart from the directory's other
 * same-partition cases (`directory.ts`) because its fair baseline is a story of its own.
 */
import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { Directory } from '../../src/directory';
import { emailCopyEntity, employeeEntity } from '../../src/directory/entities';
import { benchEmployee } from '../employees';
import { atLeast, judge } from '../goals';
import { requestsPerOperationByKind } from '../harness';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { DEPT, freshDirectory } from './directory';

/** The import warm-up's department and first employee number (far above the measured ones). */
const WARM_UP_DEPT = 'WarmUp';
const WARM_UP_FIRST = 900_001;

/** The entities a raw loader writes for one employee: the same primary and email copy. */
function rawEntities(n: number, operation: 'upsert' | 'create' = 'upsert'): TransactionAction[] {
  const primary = employeeEntity(DEPT, benchEmployee(n), { isManager: false, writeId: 'raw' });
  return operation === 'upsert'
    ? [
        ['upsert', primary, 'Replace'],
        ['upsert', emailCopyEntity(primary), 'Replace'],
      ]
    : [
        ['create', primary],
        ['create', emailCopyEntity(primary)],
      ];
}

async function rawBatches(
  table: TableClient,
  first: number,
  count: number,
  concurrency: number,
  operation: 'upsert' | 'create',
): Promise<void> {
  const batches: TransactionAction[][] = [];
  for (let i = 0; i < count; i += 50) {
    batches.push(
      Array.from({ length: Math.min(50, count - i) }, (_, k) =>
        rawEntities(first + i + k, operation),
      ).flat(),
    );
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) await table.submitTransaction(batches[next++]!);
    }),
  );
}

/** The raw sides of the import comparison: the headline (upserts, one at a time), then two more. */
const RAW_IMPORTS = [
  { operation: 'upsert', concurrency: 1 },
  { operation: 'create', concurrency: 1 },
  { operation: 'upsert', concurrency: 4 },
] as const;

/** One raw side: `total` rows in 100-operation transactions into a fresh table, measured. */
async function rawImport(
  env: BenchEnv,
  total: number,
  { operation, concurrency }: (typeof RAW_IMPORTS)[number],
): Promise<Measurement> {
  const raw = env.clients.table(
    env.uniqueName(`DirImportRaw${operation}${concurrency}`, { table: true }),
  );
  await raw.createTable();
  env.resetTraffic();
  const label = `raw ${operation === 'upsert' ? 'upserts' : 'inserts'}, 100-operation transactions, ${concurrency} at a time`;
  return env.measure(label, total, () => rawBatches(raw, 1, total, concurrency, operation));
}

/**
 * Runs both sides before measuring (a batch of each; 2 × 200 rows into another department), so
 * neither pays for the JIT; the measured department's version caches stay cold. Answers the
 * service's directory.
 */
async function warmUpImports(env: BenchEnv): Promise<Directory> {
  const warmRaw = env.clients.table(env.uniqueName('DirImportWarm', { table: true }));
  await warmRaw.createTable();
  await rawBatches(warmRaw, WARM_UP_FIRST, 100, 1, 'upsert');
  const { directory } = await freshDirectory(env, 'DirImport');
  await directory.departments.put(WARM_UP_DEPT, { description: 'Warm-up' });
  // Two calls with the same last names: the second takes the index entities' update path.
  for (const first of [WARM_UP_FIRST, WARM_UP_FIRST + 200]) {
    const warm = Array.from({ length: 200 }, (_, k) => benchEmployee(first + k));
    if ((await directory.employees.import(WARM_UP_DEPT, warm)).created !== warm.length)
      throw new Error('The warm-up import refused rows.');
  }
  return directory;
}

/** The service's side: `total` employees imported into {@link DEPT} in 1,000-row calls. */
function serviceImport(env: BenchEnv, directory: Directory, total: number): Promise<Measurement> {
  return env.measure('service import, 1,000-row calls', total, async () => {
    for (let i = 0; i < total; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - i) }, (_, k) =>
        benchEmployee(i + k + 1),
      );
      const result = await directory.employees.import(DEPT, rows);
      if (result.failed.length > 0) {
        throw new Error(
          `Import refused ${result.failed.length} rows: ${JSON.stringify(result.failed[0])}`,
        );
      }
    }
  });
}

/** The headline baseline: the raw upserts' run before the service and after it, as their mean. */
function meanOfBeforeAndAfter(before: Measurement, after: Measurement, total: number): Measurement {
  const wallMs = (before.wallMs + after.wallMs) / 2;
  return {
    ...before,
    label: `${before.label}, mean of one run before and one after the service`,
    wallMs: Math.round(wallMs * 10) / 10,
    opsPerSecond: Math.round((total / (wallMs / 1000)) * 10) / 10,
  };
}

const bulkImport: BenchCase = {
  name: 'directory: bulk import (service vs raw batched upserts)',
  async run(env) {
    const total = env.size(5000);
    const directory = await warmUpImports(env);
    // Azurite slows down as it holds more data (the raw inserts after the pattern have taken twice
    // as long as the raw upserts before it): the headline baseline runs once BEFORE the pattern and
    // once AFTER it, and the pattern is judged against their mean, so drift favours neither side.
    const before = await rawImport(env, total, RAW_IMPORTS[0]);
    const rawKinds = requestsPerOperationByKind(env.traffic(), total / 1000);
    env.resetTraffic();
    const pattern = await serviceImport(env, directory, total);
    const patternKinds = requestsPerOperationByKind(env.traffic(), total / 1000);
    const after = await rawImport(env, total, RAW_IMPORTS[0]);
    const baselines: Measurement[] = [meanOfBeforeAndAfter(before, after, total)];
    for (const variant of RAW_IMPORTS.slice(1))
      baselines.push(await rawImport(env, total, variant));
    const drift =
      `raw upserts before the service ${Math.round(before.wallMs)} ms, after it ` +
      `${Math.round(after.wallMs)} ms`;
    const perRow =
      `requests per 1,000 rows: service ${((1000 * pattern.requests) / total).toFixed(1)} ` +
      `(${patternKinds}), raw upserts ${((1000 * before.requests) / total).toFixed(1)} (${rawKinds})`;
    return baselines.map((baseline, i): Comparison => ({
      name: `import ${total} employees vs ${baseline.label}`,
      pattern,
      baseline,
      goal:
        i === 0
          ? judge(
              '≥ 0.9× raw throughput',
              [atLeast('throughput / raw', pattern.opsPerSecond / baseline.opsPerSecond, 0.9, '×')],
              drift,
            )
          : undefined,
      notes:
        `throughput pattern/raw = ${(pattern.opsPerSecond / baseline.opsPerSecond).toFixed(2)}` +
        `${i === 0 ? ` (${drift})` : ' (raw ran after the pattern)'}; ${perRow}. ` +
        'The service also writes a count shard, the last-name index entities and (when it keeps one) ' +
        'the outbox row in every chunk, and inserts (the raw side upserts), so its chunks outnumber the ' +
        'raw transactions; it runs up to 4 chains of chunks at once (CHUNKS_IN_FLIGHT), each chunk on ' +
        'its own count shard (chains share no index entity). Index entities of names this process ' +
        'has not written are taken as absent in a department of ≤ 5,000 (no reads), else read.',
    }));
  },
};

export default [bulkImport];
