/**
 * The directory's same-partition patterns against their naive alternatives, in the same run:
 *
 * - Email lookup: point query on the intra-partition secondary index (`email_<address>`) vs a
 *   scan of the department's employee range filtering on `Email`, 5,000 employees in one
 *   department.
 * - Create one by one through the service vs the raw transaction of the same entities (employee,
 *   email copy, count shard, last-name index entity, and the index outbox row when the service
 *   keeps one): as deployed (outbox row + nudge), without the outbox, and without the version
 *   cache (a read of the department and of the index entity first).
 * - Bulk import of 5,000 employees through the service in 1,000-row calls vs raw batched upserts
 *   of the same primary and email entities (transactions of 100 operations, one at a time: the
 *   mean of a run before and one after the service), four at a time, and raw batched inserts.
 */
import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { createDirectory, type Directory, type DirectoryOptions } from '../../src/directory';
import { emailCopyEntity, employeeEntity } from '../../src/directory/entities';
import { queueChangeSink } from '../../src/indexing/queue/queueChangeSink';
import { employeeRowKeyRange } from '../../src/storage/keys/tables/employees';
import { requestsPerOperationByKind } from '../harness';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { benchEmployee, rawCreateOfSameEntities } from '../employees';
import { atLeast, exactly, judge } from '../goals';

const DEPT = 'Sales';
/** The import warm-up's department and first employee number (far above the measured ones). */
const WARM_UP_DEPT = 'WarmUp';
const WARM_UP_FIRST = 900_001;

/** A realistic employee: last names from a pool of 200, so several employees share each. */

function percentiles(samples: number[]): { p50Ms: number; p95Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => {
    const value =
      sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
      0;
    return Math.round(value * 1000) / 1000;
  };
  return { p50Ms: at(50), p95Ms: at(95) };
}

async function timed(op: () => Promise<unknown>, samples: number[]): Promise<void> {
  const start = process.hrtime.bigint();
  await op();
  samples.push(Number(process.hrtime.bigint() - start) / 1e6);
}

/** A fresh table with a department, through the counting proxy. */
async function freshDirectory(
  env: BenchEnv,
  prefix: string,
  options: Pick<DirectoryOptions, 'cacheVersions' | 'changes'> = {},
): Promise<{ directory: Directory; table: TableClient }> {
  const table = env.clients.table(env.uniqueName(prefix, { table: true }));
  const directory = createDirectory({ employees: table, ...options });
  await directory.departments.put(DEPT, { description: 'Benchmark' });
  return { directory, table };
}

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

const emailLookup: BenchCase = {
  name: 'directory: email lookup (index point query vs partition scan)',
  async run(env) {
    const employees = env.size(5000);
    const lookups = Math.min(200, employees);
    const { directory, table } = await freshDirectory(env, 'DirLookup');
    for (let i = 0; i < employees; i += 1000) {
      await directory.employees.import(
        DEPT,
        Array.from({ length: Math.min(1000, employees - i) }, (_, k) => benchEmployee(i + k + 1)),
      );
    }
    const targets = Array.from(
      { length: lookups },
      (_, i) => benchEmployee(1 + ((i * 7919) % employees)).email,
    );

    const patternSamples: number[] = [];
    const pattern: Measurement = await env.measure(
      'point query on email_<address>',
      lookups,
      async () => {
        env.resetTraffic();
        for (const email of targets)
          await timed(() => directory.employees.getByEmail(DEPT, email), patternSamples);
        // What storage returned, as the proxy counted it.
        return { entities: env.traffic().entitiesRead };
      },
    );
    Object.assign(pattern, percentiles(patternSamples));

    const range = employeeRowKeyRange();
    const baselineSamples: number[] = [];
    let found = 0;
    const baseline: Measurement = await env.measure(
      'partition scan filtering on Email',
      lookups,
      async () => {
        for (const email of targets) {
          await timed(async () => {
            const filter = odata`PartitionKey eq ${DEPT} and RowKey ge ${range.ge} and RowKey lt ${range.lt} and Email eq ${email}`;
            for await (const _ of table.listEntities({ queryOptions: { filter } })) found++;
          }, baselineSamples);
        }
        // The service reads every employee entity of the partition to answer each scan.
        return { entities: lookups * employees };
      },
    );
    Object.assign(baseline, percentiles(baselineSamples));
    if (found !== lookups) throw new Error(`The scan found ${found} of ${lookups} employees.`);

    return {
      name: `email lookup, ${employees} employees in one department`,
      pattern,
      baseline,
      goal: judge(
        `1 request and 1 entity per lookup, against ~${employees.toLocaleString('en-US')} entities scanned`,
        [
          exactly('requests per lookup', pattern.requests / lookups, 1),
          exactly('entities per lookup', (pattern.entities ?? NaN) / lookups, 1),
        ],
      ),
      notes:
        `per lookup: pattern ${(pattern.requests / lookups).toFixed(2)} requests, 1 entity; ` +
        `baseline ${(baseline.requests / lookups).toFixed(2)} requests, ${employees} entities scanned. ` +
        'Azurite keeps tables in memory, so the scan costs far less time here than on Azure.',
    };
  },
};

/** How a service create runs in {@link createOneByOne}. */
interface CreateMode {
  label: string;
  /** The index outbox row in the transaction and a nudge to a queue after it, as deployed. */
  outbox: boolean;
  cacheVersions: boolean;
}

const CREATE_MODES: CreateMode[] = [
  { label: 'as deployed: outbox row + nudge', outbox: true, cacheVersions: true },
  { label: 'no index outbox', outbox: false, cacheVersions: true },
  { label: 'no index outbox, version cache off', outbox: false, cacheVersions: false },
];

const createOneByOne: BenchCase = {
  name: 'directory: create employees one by one',
  async run(env) {
    const count = env.size(1000);
    const queue = env.clients.queue(env.uniqueName('dircreate'));
    await queue.create();
    // Both paths once before measuring, so neither pays for the JIT or first connections.
    const warmUp = Math.min(100, count);
    {
      const { directory } = await freshDirectory(env, 'DirWarm', {
        changes: queueChangeSink(queue),
      });
      const raw = env.clients.table(env.uniqueName('DirWarmRaw', { table: true }));
      await raw.createTable();
      const ids = new Map<string, string[]>();
      for (let i = 1; i <= warmUp; i++) {
        await directory.employees.create(DEPT, benchEmployee(i));
        await raw.submitTransaction(rawCreateOfSameEntities(DEPT, ids, i, true));
      }
    }
    const results: Comparison[] = [];
    for (const mode of CREATE_MODES) {
      const changes = mode.outbox ? queueChangeSink(queue) : undefined;
      const { directory } = await freshDirectory(env, 'DirCreate', {
        cacheVersions: mode.cacheVersions,
        changes,
      });
      const raw = env.clients.table(env.uniqueName('DirCreateRaw', { table: true }));
      await raw.createTable();
      const patternSamples: number[] = [];
      const pattern = await env.measure(`service create (${mode.label})`, count, async () => {
        for (let i = 1; i <= count; i++)
          await timed(() => directory.employees.create(DEPT, benchEmployee(i)), patternSamples);
        // The nudges went out behind the creates; their requests belong to this side.
        await changes?.settled();
      });
      Object.assign(pattern, percentiles(patternSamples));
      const baselineSamples: number[] = [];
      const ids = new Map<string, string[]>();
      const baseline = await env.measure(
        `raw transaction of the same entities${mode.outbox ? ' (outbox row included)' : ''}`,
        count,
        async () => {
          for (let i = 1; i <= count; i++) {
            await timed(
              () => raw.submitTransaction(rawCreateOfSameEntities(DEPT, ids, i, mode.outbox)),
              baselineSamples,
            );
          }
        },
      );
      Object.assign(baseline, percentiles(baselineSamples));
      const ratio = pattern.opsPerSecond / baseline.opsPerSecond;
      results.push({
        name: `create ${count} employees one by one (${mode.label})`,
        pattern,
        baseline,
        goal: mode.cacheVersions
          ? judge('service ≥ 0.8× the raw transaction of the same entities', [
              atLeast('throughput service / raw', ratio, 0.8, '×'),
            ])
          : undefined,
        notes:
          `throughput service/raw = ${ratio.toFixed(2)}; storage requests per create: service ` +
          `${(pattern.requests / count).toFixed(2)}, raw ${(baseline.requests / count).toFixed(2)}. ` +
          (mode.outbox
            ? 'The create returns after its transaction; the nudge to the queue follows it (the outbox row is the record), and its send is counted here. No drain runs in this case (see the indexing case).'
            : mode.cacheVersions
              ? 'With one writer the cached count-shard and index ETags are right, so no read precedes the transaction except for a last name not seen before.'
              : 'Without the version cache every create first reads the department with its count shards and the index entity.'),
      });
    }
    return results;
  },
};

const bulkImport: BenchCase = {
  name: 'directory: bulk import (service vs raw batched upserts)',
  async run(env) {
    const total = env.size(5000);
    const variants = [
      { operation: 'upsert', concurrency: 1 },
      { operation: 'create', concurrency: 1 },
      { operation: 'upsert', concurrency: 4 },
    ] as const;
    const rawRun = async ({
      operation,
      concurrency,
    }: (typeof variants)[number]): Promise<Measurement> => {
      const raw = env.clients.table(
        env.uniqueName(`DirImportRaw${operation}${concurrency}`, { table: true }),
      );
      await raw.createTable();
      env.resetTraffic();
      const label = `raw ${operation === 'upsert' ? 'upserts' : 'inserts'}, 100-operation transactions, ${concurrency} at a time`;
      return env.measure(label, total, () => rawBatches(raw, 1, total, concurrency, operation));
    };
    // Both sides run before measuring (a batch of each; 2 × 200 rows into another department),
    // so neither pays for the JIT; the measured department's version caches stay cold.
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
    // Azurite slows down as it holds more data (the raw inserts after the pattern have taken twice
    // as long as the raw upserts before it): the headline baseline runs once BEFORE the pattern and
    // once AFTER it, and the pattern is judged against their mean, so drift favours neither side.
    const before = await rawRun(variants[0]);
    const rawKinds = requestsPerOperationByKind(env.traffic(), total / 1000);
    env.resetTraffic();
    const pattern = await env.measure('service import, 1,000-row calls', total, async () => {
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
    const patternKinds = requestsPerOperationByKind(env.traffic(), total / 1000);
    const after = await rawRun(variants[0]);
    const wallMs = (before.wallMs + after.wallMs) / 2;
    const headline: Measurement = {
      ...before,
      label: `${before.label}, mean of one run before and one after the service`,
      wallMs: Math.round(wallMs * 10) / 10,
      opsPerSecond: Math.round((total / (wallMs / 1000)) * 10) / 10,
    };
    const baselines: Measurement[] = [headline];
    for (const variant of variants.slice(1)) baselines.push(await rawRun(variant));
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

export default [emailLookup, createOneByOne, bulkImport];
