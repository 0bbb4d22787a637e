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
import { TableClient, type TransactionAction } from '@azure/data-tables';
import { mapBounded } from '../../src/storage/parallel';
import { startAzurite, type RunningAzurite } from '../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../tools/faultProxy/faultProxy';
import { percentile, trafficBetween } from '../harness';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { FLAT, flatAgainst } from '../caseGoals';
import { holds, judge } from '../goals';

/** One emulator as the case uses it. */
interface Emulator {
  name: 'patched' | 'published';
  proxy: FaultProxy;
  /** A table through the counting proxy (measured calls). */
  table(name: string): TableClient;
  /** A table without the proxy (seeding). */
  direct(name: string): TableClient;
}

function sizesFrom(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  const sizes = raw ? raw.split(',').map((s) => Number(s.trim())) : fallback;
  if (sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${name} must list whole numbers above 0, got "${raw}".`);
  return sizes;
}

const progress = (line: string): void => void process.stdout.write(`  ${line}\n`);
const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const rowKey = (i: number): string => `r${String(i).padStart(6, '0')}`;
const SHARED_ROW_KEY = '000';
const PAYLOAD = 'x'.repeat(200);

async function startEmulator(
  env: BenchEnv,
  name: Emulator['name'],
): Promise<Emulator & { azurite: RunningAzurite }> {
  const azurite = await startAzurite({
    packageName: name === 'patched' ? 'azurite' : 'azurite-unpatched',
  });
  env.defer(() => azurite.stop());
  const proxy = await startFaultProxy({ target: azurite.ports });
  env.defer(() => proxy.stop());
  return {
    name,
    azurite,
    proxy,
    table: (table) =>
      TableClient.fromConnectionString(proxy.connectionString, table, {
        allowInsecureConnection: true,
      }),
    direct: (table) =>
      TableClient.fromConnectionString(azurite.connectionString, table, {
        allowInsecureConnection: true,
      }),
  };
}

/** Inserts `count` entities `rowKey(first..)` into one partition in transactions of 100. */
async function fillPartition(
  client: TableClient,
  partitionKey: string,
  first: number,
  count: number,
): Promise<void> {
  const chunks: number[] = [];
  for (let i = 0; i < count; i += 100) chunks.push(i);
  await mapBounded(chunks, 4, (start) =>
    client.submitTransaction(
      Array.from({ length: Math.min(100, count - start) }, (_, i): TransactionAction => [
        'create',
        { partitionKey, rowKey: rowKey(first + start + i), Data: PAYLOAD },
      ]),
    ),
  );
}

/** How a comparison calls the emulators: `calls` calls, each worth `perCall` operations. */
interface Calls {
  label: string;
  calls: number;
  perCall?: number;
  concurrency: number;
}

/** Times the calls of `work` against one emulator; latencies are per call. */
async function timed(
  emulator: Emulator,
  { label, calls, perCall = 1, concurrency }: Calls,
  work: (i: number) => Promise<unknown>,
): Promise<{ measurement: Measurement; answers: unknown[] }> {
  const operations = calls * perCall;
  const before = emulator.proxy.counts();
  const latencies: number[] = [];
  const started = performance.now();
  const answers = await mapBounded(
    Array.from({ length: calls }, (_, i) => i),
    concurrency,
    async (i) => {
      const t0 = performance.now();
      const answer = await work(i);
      latencies.push(performance.now() - t0);
      return answer;
    },
  );
  const wallMs = performance.now() - started;
  const traffic = trafficBetween(before, emulator.proxy.counts());
  return {
    answers,
    measurement: {
      label: `${emulator.name}: ${label}`,
      wallMs: Math.round(wallMs * 10) / 10,
      operations,
      opsPerSecond: Math.round((operations / wallMs) * 10_000) / 10,
      requests: traffic.requests,
      bytes: traffic.bytesSent + traffic.bytesReceived,
      entities: traffic.entitiesRead,
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p95Ms: Math.round(percentile(latencies, 95) * 10) / 10,
    },
  };
}

/**
 * The same measured calls against both emulators, one after the other (each has the machine to
 * itself while measured); their answers must be equal.
 */
async function compare(
  emulators: readonly [Emulator, Emulator],
  name: string,
  calls: Calls,
  work: (emulator: Emulator, i: number) => Promise<unknown>,
  notes?: string,
): Promise<Comparison> {
  const [patched, published] = emulators;
  const a = await timed(patched, calls, (i) => work(patched, i));
  const b = await timed(published, calls, (i) => work(published, i));
  if (JSON.stringify(a.answers) !== JSON.stringify(b.answers))
    throw new Error(`${name}: the patched and the published emulator answered differently.`);
  return { name: `emulator: ${name}`, pattern: a.measurement, baseline: b.measurement, notes };
}

/**
 * The goal of each comparison: the same answers (a difference failed the case already) and the
 * patched side's time flat in `growing`: each comparison (`perSize` per size, in the sizes' order)
 * against the same call at the smallest size.
 */
function withFlatGoals(
  comparisons: Comparison[],
  sizes: readonly number[],
  perSize: number,
  growing: string,
): Comparison[] {
  const smallest = sizes.indexOf(Math.min(...sizes));
  return comparisons.map((c, i) => ({
    ...c,
    goal: judge(`same answers; time flat in ${growing} (p50 ≤ ${FLAT}× the smallest size's)`, [
      holds('same answers as the published emulator', true),
      flatAgainst(
        'patched p50',
        c.pattern,
        comparisons[smallest * perSize + (i % perSize)]?.pattern,
      ),
    ]),
  }));
}

/** Keys of a query's first `pages` pages of up to `pageSize` entities (with their continuation). */
async function firstPages(
  client: TableClient,
  filter: string,
  pageSize: number,
  pages: number,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const page of client
    .listEntities({ queryOptions: { filter, select: ['RowKey'] } })
    .byPage({ maxPageSize: pageSize })) {
    seen.push([page.length, page[0]?.rowKey, page.at(-1)?.rowKey, page.continuationToken]);
    if (seen.length >= pages) break;
  }
  return seen;
}

/** A pseudo-random sequence, the same for both emulators. */
function sequence(count: number, below: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state % below;
  });
}

async function departmentsComparisons(
  env: BenchEnv,
  emulators: readonly [Emulator, Emulator],
  sizes: number[],
  org: number,
): Promise<Comparison[]> {
  const table = env.uniqueName('EmuDepts', { table: true });
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
  const out: Comparison[] = [];
  const tableSize = org + sizes.reduce((a, b) => a + b, 0);
  const reads = env.size(1_000);
  // Whole transactions of 100.
  const inserts = Math.max(100, Math.round(env.size(1_000) / 100) * 100);
  const queries = env.size(50);
  for (const size of sizes) {
    const partitionKey = `Dept${size}`;
    const keys = sequence(reads, size, size);
    const context = `a partition of ${size.toLocaleString('en-US')} in a table of ${tableSize.toLocaleString('en-US')}`;
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

async function bothEmulators(env: BenchEnv): Promise<[Emulator, Emulator]> {
  return Promise.all([startEmulator(env, 'patched'), startEmulator(env, 'published')]);
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
