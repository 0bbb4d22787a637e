/**
 * The embedded emulator's table-store patch (docs/emulator-patch.md): the project's patched Azurite
 * against the same release as published (`azurite-unpatched`), each in its own process behind its
 * own counting proxy, same data, same calls, same run. Pattern = patched, baseline = published.
 *
 * - A table of departments: one partition of each size in `BENCH_EMULATOR_SIZES` (default 1,000
 *   and 50,000 entities) beside `BENCH_EMULATOR_ORG` entities of other departments (default
 *   9,000, in partitions of 1,000; their RowKeys repeat the big partitions'). Per size: point
 *   reads, inserts in transactions of 100 (as the import writes), a partition-pinned RowKey range
 *   query (100 entities), and the partition's first pages of 1,000.
 * - Per size in `BENCH_EMULATOR_SHARED` (default 1,000 and 50,000), that many entities sharing one
 *   RowKey, each in its own partition (the org-wide last-name index's shard `000`): point reads and
 *   inserts of that RowKey.
 *
 * Two cases, each with its own pair of emulators, run only when named. Both emulators must give
 * the same answers; a difference fails the case. The goal judges the patched side's time at each
 * size against the smallest size's (flat). `BENCH_QUICK` scales every size to a tenth.
 */
import { mapBounded } from '../../src/storage/parallel';
import type { BenchCase, BenchEnv, Comparison } from '../types';
import { compare, firstPages, sequence, withFlatGoals } from '../emulator/compare';
import {
  bothEmulators,
  fillPartition,
  PAYLOAD,
  rowKey,
  SHARED_ROW_KEY,
  type Emulator,
} from '../emulator/pair';

function sizesFrom(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  const sizes = raw ? raw.split(',').map((s) => Number(s.trim())) : fallback;
  if (sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${name} must list whole numbers above 0, got "${raw}".`);
  return sizes;
}

const progress = (line: string): void => void process.stdout.write(`  ${line}\n`);
const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Seeds the departments table on both emulators: the other departments, then each size's. */
async function seedDepartments(
  emulators: readonly [Emulator, Emulator],
  table: string,
  sizes: number[],
  org: number,
): Promise<void> {
  const orgPartitions = Math.ceil(org / 1000);
  const seeding = Date.now();
  await Promise.all(
    emulators.map(async (emulator) => {
      const client = emulator.direct(table);
      await client.createTable();
      for (let p = 0; p < orgPartitions; p++) {
        const count = Math.min(1000, org - p * 1000);
        await fillPartition(client, `Org${String(p).padStart(3, '0')}`, 0, count);
      }
      for (const size of sizes) await fillPartition(client, `Dept${size}`, 0, size);
    }),
  );
  progress(`departments seeded in ${seconds(seeding)}`);
}

/** One department size of the departments table, as its comparisons call it. */
interface DepartmentAt {
  env: BenchEnv;
  emulators: readonly [Emulator, Emulator];
  table: string;
  size: number;
  partitionKey: string;
  /** Where the calls run, in words. */
  context: string;
}

/** Point reads of random keys, then inserts in transactions of 100, into the partition. */
async function keyedComparisons(at: DepartmentAt): Promise<Comparison[]> {
  const { env, emulators, table, size, partitionKey, context } = at;
  const reads = env.size(1_000);
  // Whole transactions of 100.
  const inserts = Math.max(100, Math.round(env.size(1_000) / 100) * 100);
  const keys = sequence(reads, size, size);
  const out: Comparison[] = [];
  out.push(
    await compare(
      emulators,
      `point reads, ${context}`,
      { label: 'getEntity', calls: reads, concurrency: 8 },
      (e, i) =>
        e
          .table(table)
          .getEntity(partitionKey, rowKey(keys[i]!))
          .then((entity) => entity.rowKey),
    ),
  );
  out.push(
    await compare(
      emulators,
      `inserts, ${context}`,
      {
        label: 'transactions of 100 creates',
        calls: inserts / 100,
        perCall: 100,
        concurrency: 1,
      },
      async (e, i) => {
        await fillPartition(e.table(table), partitionKey, size + i * 100, 100);
        return i;
      },
      'Operations are entities, latencies per transaction of 100.',
    ),
  );
  return out;
}

/** A partition-pinned RowKey range query, then the partition's first pages of 1,000. */
async function queryComparisons(at: DepartmentAt): Promise<Comparison[]> {
  const { env, emulators, table, size, partitionKey, context } = at;
  const queries = env.size(50);
  const out: Comparison[] = [];
  const starts = sequence(queries, Math.max(1, size - 100), size + 1);
  out.push(
    await compare(
      emulators,
      `partition-pinned RowKey range query (100 entities), ${context}`,
      {
        label: `PartitionKey eq '${partitionKey}' and RowKey ge … and RowKey lt …`,
        calls: queries,
        concurrency: 1,
      },
      (e, i) =>
        firstPages(
          e.table(table),
          `PartitionKey eq '${partitionKey}' and RowKey ge '${rowKey(starts[i]!)}' and ` +
            `RowKey lt '${rowKey(starts[i]! + 100)}'`,
          1000,
          1,
        ),
    ),
  );
  const pages = Math.min(5, Math.ceil(size / 1000));
  out.push(
    await compare(
      emulators,
      `first ${pages} page(s) of 1,000 of ${context}`,
      {
        label: `PartitionKey eq '${partitionKey}', pages of 1,000`,
        calls: 1,
        perCall: pages,
        concurrency: 1,
      },
      (e) => firstPages(e.table(table), `PartitionKey eq '${partitionKey}'`, 1000, pages),
      'Operations are pages, read one after the other (continuation tokens).',
    ),
  );
  return out;
}

async function departmentsComparisons(
  env: BenchEnv,
  emulators: readonly [Emulator, Emulator],
  sizes: number[],
  org: number,
): Promise<Comparison[]> {
  const table = env.uniqueName('EmuDepts', { table: true });
  await seedDepartments(emulators, table, sizes, org);
  const tableSize = org + sizes.reduce((a, b) => a + b, 0);
  const out: Comparison[] = [];
  for (const size of sizes) {
    const context = `a partition of ${size.toLocaleString('en-US')} in a table of ${tableSize.toLocaleString('en-US')}`;
    const at = { env, emulators, table, size, partitionKey: `Dept${size}`, context };
    out.push(...(await keyedComparisons(at)), ...(await queryComparisons(at)));
  }
  return withFlatGoals(out, sizes, 4, 'the partition size');
}

async function sharedRowKeyComparisons(
  env: BenchEnv,
  emulators: readonly [Emulator, Emulator],
  sizes: number[],
): Promise<Comparison[]> {
  const out: Comparison[] = [];
  for (const shared of sizes) out.push(...(await sharedRowKeyAt(env, emulators, shared)));
  return withFlatGoals(out, sizes, 2, 'the entities sharing a RowKey');
}

async function sharedRowKeyAt(
  env: BenchEnv,
  emulators: readonly [Emulator, Emulator],
  shared: number,
): Promise<Comparison[]> {
  const table = env.uniqueName('EmuShared', { table: true });
  const seeding = Date.now();
  // One entity per partition: no transaction can group them, so they are inserted one by one.
  await Promise.all(
    emulators.map(async (emulator) => {
      const client = emulator.direct(table);
      await client.createTable();
      await mapBounded(
        Array.from({ length: shared }, (_, i) => i),
        64,
        (i) =>
          client.createEntity({ partitionKey: `Name${i}`, rowKey: SHARED_ROW_KEY, Data: PAYLOAD }),
      );
    }),
  );
  progress(
    `${shared.toLocaleString('en-US')} entities sharing a RowKey seeded in ${seconds(seeding)}`,
  );
  const operations = env.size(1_000);
  const keys = sequence(operations, shared, shared);
  const context = `${shared.toLocaleString('en-US')} entities sharing one RowKey`;
  return [
    await compare(
      emulators,
      `point reads, ${context}`,
      { label: 'getEntity', calls: operations, concurrency: 8 },
      (e, i) =>
        e
          .table(table)
          .getEntity(`Name${keys[i]}`, SHARED_ROW_KEY)
          .then((entity) => entity.partitionKey),
    ),
    await compare(
      emulators,
      `inserts, ${context}`,
      { label: 'createEntity', calls: operations, concurrency: 8 },
      (e, i) =>
        e
          .table(table)
          .createEntity({ partitionKey: `New${i}`, rowKey: SHARED_ROW_KEY, Data: PAYLOAD })
          .then(() => i),
    ),
  ];
}

/**
 * Run by name only (`npm run bench -- emulator`): they compare emulators, not patterns, and the
 * published store's seeding of the shared RowKey grows with the square of its size.
 */
const departments: BenchCase = {
  name: 'emulator: patched vs published Azurite, a partition among others',
  onlyWhenNamed: true,
  async run(env) {
    const sizes = sizesFrom('BENCH_EMULATOR_SIZES', [1_000, 50_000]).map(env.size);
    const [org] = sizesFrom('BENCH_EMULATOR_ORG', [9_000]).map(env.size);
    return departmentsComparisons(env, await bothEmulators(env), sizes, org!);
  },
};

const sharedRowKey: BenchCase = {
  name: 'emulator: patched vs published Azurite, entities sharing one RowKey',
  onlyWhenNamed: true,
  async run(env) {
    const sizes = sizesFrom('BENCH_EMULATOR_SHARED', [1_000, 50_000]).map(env.size);
    return sharedRowKeyComparisons(env, await bothEmulators(env), sizes);
  },
};

export default [departments, sharedRowKey];
