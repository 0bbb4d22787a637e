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
 *
 * The bulk import's comparison is in `directoryImport.ts` (the runner loads it right after this).
 */
import { odata, type TableClient } from '@azure/data-tables';
import { createDirectory, type Directory, type DirectoryOptions } from '../../src/directory';
import { queueChangeSink } from '../../src/indexing/queue/queueChangeSink';
import { employeeRowKeyRange } from '../../src/storage/keys/tables/employees';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { benchEmployee, rawCreateOfSameEntities } from '../employees';
import { atLeast, exactly, judge } from '../goals';

/** The department every side measures in. */
export const DEPT = 'Sales';

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
export async function freshDirectory(
  env: BenchEnv,
  prefix: string,
  options: Pick<DirectoryOptions, 'cacheVersions' | 'changes'> = {},
): Promise<{ directory: Directory; table: TableClient }> {
  const table = env.clients.table(env.uniqueName(prefix, { table: true }));
  const directory = createDirectory({ employees: table, ...options });
  await directory.departments.put(DEPT, { description: 'Benchmark' });
  return { directory, table };
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

export default [emailLookup, createOneByOne];
