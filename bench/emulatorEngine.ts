/**
 * The table store alone, without HTTP (docs/emulator-patch.md): builds Azurite's
 * `LokiTableMetadataStore` of one package (`azurite`, the project's patched one, or
 * `azurite-unpatched`) in this process, fills it as the emulator benchmark does (partitions of
 * 1,000 and 50,000 among 9,000 entities of other partitions; 50,000 entities sharing one RowKey),
 * and prints per-call times in µs (the best of three rounds) as JSON. Run each package in its own
 * process, one after the other, and compare:
 *
 * ```sh
 * npm run build
 * node dist/bench/emulatorEngine.js azurite > /tmp/patched.json
 * node dist/bench/emulatorEngine.js azurite-unpatched > /tmp/published.json
 * ```
 *
 * It reaches into Azurite's internals (the store's constructor and methods), so it is a tool for
 * the write-up, not a bench case.
 */
import path from 'node:path';

interface Store {
  init(): Promise<void>;
  createTable(context: unknown, table: { account: string; table: string }): Promise<void>;
  getEntityCollection(
    account: string,
    table: string,
    context: unknown,
  ): { insert(doc: unknown): void };
  queryTableEntitiesWithPartitionAndRowKey(...args: unknown[]): Promise<unknown>;
  insertTableEntity(...args: unknown[]): Promise<unknown>;
  queryTableEntities(...args: unknown[]): Promise<unknown>;
}

const context = { contextID: 'engine' };
const now = new Date().toISOString();
const entity = (PartitionKey: string, RowKey: string) => ({
  PartitionKey,
  RowKey,
  properties: { PartitionKey, RowKey, Data: 'x'.repeat(200) },
  lastModifiedTime: now,
  eTag: 'etag',
});
const rowKey = (i: number): string => `r${String(i).padStart(6, '0')}`;

async function bestOfThree(calls: number, call: (i: number) => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await call(i);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e3 / calls);
  }
  return Math.round(best * 10) / 10;
}

async function main(): Promise<void> {
  const pkg = process.argv[2] ?? 'azurite';
  if (pkg !== 'azurite' && pkg !== 'azurite-unpatched')
    throw new Error(`The package must be azurite or azurite-unpatched, got "${pkg}".`);
  const modulePath = path.join(pkg, 'dist/src/table/persistence/LokiTableMetadataStore.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: LokiStore } = require(modulePath) as {
    default: new (dbPath: string, inMemory: boolean) => Store;
  };
  const store = new LokiStore(path.join(process.cwd(), `.engine-${pkg}.db`), true);
  await store.init();
  await store.createTable(context, { account: 'a', table: 'depts' });
  await store.createTable(context, { account: 'a', table: 'shared' });
  const depts = store.getEntityCollection('a', 'depts', context);
  for (let p = 0; p < 9; p++)
    for (let i = 0; i < 1000; i++) depts.insert(entity(`Org${p}`, rowKey(i)));
  const sizes = [1_000, 50_000];
  for (const size of sizes)
    for (let i = 0; i < size; i++) depts.insert(entity(`Dept${size}`, rowKey(i)));
  const shared = 50_000;
  const sharedTable = store.getEntityCollection('a', 'shared', context);
  for (let i = 0; i < shared; i++) sharedTable.insert(entity(`Name${i}`, '000'));
  const out: Record<string, number> = {};
  let next = 0;
  for (const size of sizes) {
    const dept = `Dept${size}`;
    out[`point read, partition of ${size}`] = await bestOfThree(1000, (i) =>
      store.queryTableEntitiesWithPartitionAndRowKey(
        context,
        'depts',
        'a',
        dept,
        rowKey((i * 7919) % size),
      ),
    );
    out[`insert, partition of ${size}`] = await bestOfThree(1000, () =>
      store.insertTableEntity(context, 'depts', 'a', entity(dept, `n${next++}`)),
    );
    out[`pinned RowKey range query (100), partition of ${size}`] = await bestOfThree(50, (i) => {
      const from = (i * 997) % (size - 100);
      return store.queryTableEntities(context, 'a', 'depts', {
        filter: `PartitionKey eq '${dept}' and RowKey ge '${rowKey(from)}' and RowKey lt '${rowKey(from + 100)}'`,
      });
    });
    // A read of many keys at once, as the index drain writes it (14 keys and the PartitionKey).
    out[`14 RowKeys (eq … or …), partition of ${size}`] = await bestOfThree(50, (i) => {
      const keys = Array.from(
        { length: 14 },
        (_, k) => `RowKey eq '${rowKey((i * 997 + k * 61) % size)}'`,
      );
      return store.queryTableEntities(context, 'a', 'depts', {
        filter: `PartitionKey eq '${dept}' and (${keys.join(' or ')})`,
      });
    });
    out[`first page of 1,000, partition of ${size}`] = await bestOfThree(5, () =>
      store.queryTableEntities(context, 'a', 'depts', { filter: `PartitionKey eq '${dept}'` }),
    );
  }
  out[`point read, ${shared} sharing a RowKey`] = await bestOfThree(1000, (i) =>
    store.queryTableEntitiesWithPartitionAndRowKey(
      context,
      'shared',
      'a',
      `Name${(i * 7919) % shared}`,
      '000',
    ),
  );
  out[`insert, ${shared} sharing a RowKey`] = await bestOfThree(200, () =>
    store.insertTableEntity(context, 'shared', 'a', entity(`New${next++}`, '000')),
  );
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
