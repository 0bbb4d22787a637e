/**
 * The embedded emulator's table-store patch (patches/azurite+*.patch, docs/emulator-patch.md)
 * changes how Azurite finds entities, never what it answers. Differential test: the same
 * entities (keys shared across many partitions, one across a hundred, numeric-looking and odd
 * characters), the same writes, point reads and OData filters, against the patched Azurite and
 * the published one (`azurite-unpatched`), each in its own process: every answer, continuation
 * tokens included, is the same.
 *
 * The cases the comparison must cover are built on purpose from the rows written, whatever the
 * seed: point reads present, in another partition only and missing; RowKey disjunctions pinned
 * with a partition that return rows; small pages over big partitions that continue, with their
 * continuation tokens; refused writes and rolled-back transactions; writes between pages that
 * continue. Random draws (PartitionKey eq conjuncts at the top or nested, and/or/not, ranges,
 * $top, writes of every kind) only add breadth on top, and nothing counts what they covered.
 * `AZURITE_PATCH_SEED` replays a run (the seed is in the test's name).
 */
import fs from 'node:fs';
import {
  TableClient,
  type TableEntity,
  type TableEntityResult,
  type TransactionAction,
} from '@azure/data-tables';
import { startAzurite, type RunningAzurite } from '../../../tools/azurite';
import { uniqueTableName } from '../../support/storage';

const SEED = Number(process.env.AZURITE_PATCH_SEED ?? Date.now() % 1_000_000);

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = random(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const chance = (p: number): boolean => rnd() < p;
const int = (below: number): number => Math.floor(rnd() * below);

// Keys LokiJS's index compares as numbers ("1", "01", "1.0", "1e0" are equal to it), keys that
// differ only by case or accent, quotes, spaces, surrogate pairs, the empty string and "~".
const PARTITIONS = [
  'Sales',
  'sales',
  'Été',
  'Ete\u0301',
  '1',
  '01',
  '1.0',
  '1e0',
  "O'Brien",
  'a b',
  '~fence',
  '😀 team',
  '-',
  'zz',
];
const SHARED_ROW_KEYS = [
  '000',
  '00',
  '0',
  '1',
  '10',
  '9',
  '1e3',
  '',
  'smith_000',
  'Smith',
  'é',
  'e\u0301',
  '~',
  "a'b",
  'x y',
  '😀',
  '\uFF21',
  'email_jones@contoso.com',
  'empid_000001',
  'empid_000002',
  'lastname_jones_000',
];

/** Partitions holding RowKey `000` besides {@link PARTITIONS}. */
const INDEX_PARTITIONS = 90;

/** The partition holding every shared RowKey, and enough rows to page through in small pages. */
const FULL = 'Sales';
/** The partition holding none of the shared RowKeys: each of them is in another partition only. */
const BARE = 'zz';
/** Rows at least in {@link FULL}, and in every other partition of {@link PARTITIONS}. */
const FULL_MIN_ROWS = 40;
const PARTITION_MIN_ROWS = 4;

type Row = {
  partitionKey: string;
  rowKey: string;
  N: number;
  S: string;
  B: boolean;
};

function randomRow(partitionKey: string, rowKey: string): Row {
  return {
    partitionKey,
    rowKey,
    N: int(100) - 20,
    S: pick(['alpha', 'beta', 'Beta', '', "it's", 'ü']),
    B: chance(0.5),
  };
}

const ownRowKey = (): string => `r_${String(int(100_000)).padStart(5, '0')}`;

function seedRows(): Row[] {
  const rows: Row[] = [];
  for (const partitionKey of PARTITIONS) {
    // FULL and BARE are fixed so that the deliberate cases exist whatever the draw.
    const shared =
      partitionKey === FULL
        ? SHARED_ROW_KEYS
        : partitionKey === BARE
          ? []
          : SHARED_ROW_KEYS.filter(() => chance(0.55));
    const keys = new Set(shared);
    for (let i = int(70); i > 0; i--) keys.add(ownRowKey());
    const least = partitionKey === FULL ? FULL_MIN_ROWS : PARTITION_MIN_ROWS;
    while (keys.size < least) keys.add(ownRowKey());
    for (const rowKey of keys) rows.push(randomRow(partitionKey, rowKey));
  }
  // Index partitions sharing shard 000 (more than the store walks before it compares ranges).
  for (let i = 0; i < INDEX_PARTITIONS; i++) {
    rows.push(randomRow(`idx_${i}`, '000'));
    if (chance(0.3)) rows.push(randomRow(`idx_${i}`, '001'));
  }
  return rows;
}

/** An OData string literal. */
const lit = (value: string): string => `'${value.replaceAll("'", "''")}'`;

const KEY_VALUES = [...PARTITIONS, ...SHARED_ROW_KEYS, 'r_5', 'r_50000', 'S', 'a', 'zzz', '2'];
const COMPARISONS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

function atom(): string {
  switch (int(5)) {
    case 0:
    case 1:
      return `${pick(['PartitionKey', 'RowKey'])} ${pick(COMPARISONS)} ${lit(pick(KEY_VALUES))}`;
    case 2:
      return `N ${pick(COMPARISONS)} ${int(100) - 20}`;
    case 3:
      return `S ${pick(['eq', 'ne', 'lt', 'ge'])} ${lit(pick(['alpha', 'beta', '', "it's"]))}`;
    default:
      return `B eq ${pick(['true', 'false'])}`;
  }
}

function expression(depth: number): string {
  if (depth <= 0 || chance(0.35)) return atom();
  switch (int(3)) {
    case 0:
      return `(${expression(depth - 1)}) and (${expression(depth - 1)})`;
    case 1:
      return `(${expression(depth - 1)}) or (${expression(depth - 1)})`;
    default:
      return `not (${expression(depth - 1)})`;
  }
}

/** `RowKey eq … or …` of 1–6 keys (repeats allowed), on either side of `eq`. */
function rowKeyDisjunction(): string {
  return Array.from({ length: 1 + int(6) }, () => {
    const key = lit(pick(chance(0.8) ? SHARED_ROW_KEYS : KEY_VALUES));
    return chance(0.8) ? `RowKey eq ${key}` : `${key} eq RowKey`;
  }).join(' or ');
}

/** A filter; most pin one partition with a top-level conjunct, in the shapes a client writes. */
function randomFilter(): string | undefined {
  const partition = chance(0.9) ? pick(PARTITIONS) : pick(['nobody', 'Sales ', '']);
  const pin = `PartitionKey eq ${lit(partition)}`;
  switch (int(10)) {
    case 0:
      return pin;
    case 8:
      // RowKeys pinned too, as a read of many keys writes it: the patched store looks them up.
      return chance(0.7)
        ? `${pin} and (${rowKeyDisjunction()})`
        : `(${rowKeyDisjunction()}) and (${expression(1)}) and ${pin}`;
    case 1:
      return `${pin} and (${expression(1)})`;
    case 2:
      return `(${expression(1)}) and ${pin}`;
    case 3:
      return `(${expression(1)}) and (${pin} and (${expression(1)}))`;
    case 4:
      return `${lit(partition)} eq PartitionKey and RowKey ge ${lit(pick(KEY_VALUES))}`;
    case 5:
      // Pinned only inside an or / not: the whole table is evaluated.
      return `(${pin}) or (${expression(1)})`;
    case 6:
      return `not (${pin}) and (${expression(1)})`;
    case 7:
      return undefined;
    default:
      return expression(3);
  }
}

/**
 * Filters whose shape decides whether a partition is pinned, and what the pin may not change:
 * non-string constants, a pin that contradicts another, the same pin twice, a pin under `not`,
 * a property named like the key in another case.
 */
const SHAPED_FILTERS = [
  'PartitionKey eq 1',
  "PartitionKey eq 1 and RowKey ge '0'",
  'PartitionKey eq true',
  "PartitionKey eq '1' and PartitionKey eq '01'",
  "PartitionKey eq 'Sales' and PartitionKey eq 'sales'",
  "PartitionKey eq 'Sales' and PartitionKey eq 'Sales' and RowKey lt 'r_5'",
  "PartitionKey eq 'Sales' and not (PartitionKey eq 'Sales')",
  "not (PartitionKey eq 'Sales' and RowKey eq '000')",
  "not (PartitionKey ne 'Sales') and RowKey ge ''",
  "PartitionKey ne 'Sales' and PartitionKey eq 'Sales'",
  "partitionKey eq 'Sales'",
  "(PartitionKey eq '1e0') and ((RowKey eq '1') or (RowKey eq '10') or (RowKey eq '9'))",
  "RowKey eq '000' and PartitionKey eq 'idx_7'",
  "PartitionKey eq ''",
  "PartitionKey ge 'idx_1' and PartitionKey lt 'idx_2' and RowKey eq '000'",
  // Pinned RowKeys (looked up) or not: a disjunction of `RowKey eq` only, string constants only,
  // at the top level only.
  "PartitionKey eq 'Sales' and (RowKey eq '000' or RowKey eq '000' or '00' eq RowKey)",
  "PartitionKey eq 'Sales' and RowKey eq '000' and RowKey eq '00'",
  "(RowKey eq '000' or RowKey eq '001') and PartitionKey eq 'idx_3' and N gt 10",
  "PartitionKey eq '1' and (RowKey eq '1' or RowKey eq '01' or RowKey eq '1e3')",
  "PartitionKey eq 'Sales' and (RowKey eq '000' or N gt 5)",
  "PartitionKey eq 'Sales' and not (RowKey eq '000' or RowKey eq '00')",
  "PartitionKey eq 'Sales' and (RowKey eq '000' or (RowKey eq '00' and N gt 5))",
  "PartitionKey eq 'Sales' and RowKey eq 1",
  "PartitionKey eq 'Sales' and (RowKey eq '000' or RowKey eq 0)",
  "PartitionKey eq 'Sales' and (RowKey eq '000' or PartitionKey eq 'sales')",
  "(PartitionKey eq 'Sales' or PartitionKey eq 'sales') and (RowKey eq '000' or RowKey eq '0')",
  "PartitionKey eq 'nobody' and (RowKey eq '000' or RowKey eq '00')",
  "PartitionKey eq 'Sales' and (rowKey eq '000' or RowKey eq '00')",
];

/** What a client can observe of an entity, less what differs between two servers by nature. */
function visible(entity: TableEntityResult<Record<string, unknown>>): Record<string, unknown> {
  // ETag, Timestamp and the metadata URL (it names the server's port) differ between servers.
  const { etag: _etag, timestamp: _timestamp, 'odata.metadata': _metadata, ...rest } = entity;
  void [_etag, _timestamp, _metadata];
  return rest;
}

/** The outcome of a call: its answer, or the storage error's status and code. */
async function outcome<T>(call: () => Promise<T>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (error) {
    const { statusCode, code } = error as { statusCode?: number; code?: string };
    if (statusCode === undefined) throw error;
    return { statusCode, code };
  }
}

const MAX_PAGES = 8;

/** Up to {@link MAX_PAGES} pages of a query, each its entities' keys and its continuation. */
async function pages(
  client: TableClient,
  filter: string | undefined,
  top: number | undefined,
): Promise<unknown> {
  return outcome(async () => {
    const seen: unknown[] = [];
    const query = client
      .listEntities({ queryOptions: filter === undefined ? {} : { filter } })
      .byPage(top === undefined ? {} : { maxPageSize: top });
    for await (const page of query) {
      seen.push({
        keys: page.map((e) => [e.partitionKey, e.rowKey]),
        next: page.continuationToken,
      });
      if (seen.length >= MAX_PAGES) break;
    }
    return seen;
  });
}

type Write =
  | { kind: 'create' | 'upsertReplace' | 'upsertMerge' | 'replace' | 'merge'; row: Row }
  | { kind: 'delete'; partitionKey: string; rowKey: string }
  | { kind: 'batch'; actions: TransactionAction[] };

function randomKeys(rows: readonly Row[]): { partitionKey: string; rowKey: string } {
  // Mostly keys that exist somewhere, often in another partition than the one asked.
  if (chance(0.5)) {
    const row = pick(rows);
    return { partitionKey: row.partitionKey, rowKey: row.rowKey };
  }
  return {
    partitionKey: pick(PARTITIONS),
    rowKey: chance(0.7) ? pick(rows).rowKey : pick(KEY_VALUES),
  };
}

function randomWrite(rows: readonly Row[]): Write {
  const keys = randomKeys(rows);
  const row = randomRow(keys.partitionKey, keys.rowKey);
  switch (int(7)) {
    case 0:
      return { kind: 'create', row };
    case 1:
      return { kind: 'upsertReplace', row };
    case 2:
      return { kind: 'upsertMerge', row };
    case 3:
      return { kind: 'replace', row };
    case 4:
      return { kind: 'merge', row };
    case 5:
      return { kind: 'delete', ...keys };
    default: {
      // A transaction in one partition; a failing action (conflict, missing) rolls it all back.
      const partitionKey = keys.partitionKey;
      const rowKeys = new Set<string>();
      for (let i = 2 + int(4); i > 0; i--)
        rowKeys.add(chance(0.6) ? pick(rows).rowKey : `b_${int(50)}`);
      const actions = [...rowKeys].map((rowKey): TransactionAction => {
        const entity: TableEntity = randomRow(partitionKey, rowKey);
        return pick<TransactionAction>([
          ['create', entity],
          ['upsert', entity, 'Merge'],
          ['update', entity, 'Replace'],
          ['delete', { partitionKey, rowKey }],
        ]);
      });
      return { kind: 'batch', actions };
    }
  }
}

async function apply(client: TableClient, write: Write): Promise<unknown> {
  switch (write.kind) {
    case 'create':
      return outcome(() => client.createEntity(write.row).then(() => 'created'));
    case 'upsertReplace':
      return outcome(() => client.upsertEntity(write.row, 'Replace').then(() => 'upserted'));
    case 'upsertMerge':
      return outcome(() => client.upsertEntity(write.row, 'Merge').then(() => 'upserted'));
    case 'replace':
      return outcome(() => client.updateEntity(write.row, 'Replace').then(() => 'updated'));
    case 'merge':
      return outcome(() => client.updateEntity(write.row, 'Merge').then(() => 'updated'));
    case 'delete':
      return outcome(() =>
        client.deleteEntity(write.partitionKey, write.rowKey).then(() => 'deleted'),
      );
    case 'batch':
      return outcome(() =>
        client.submitTransaction(write.actions).then((r) => r.subResponses.map((s) => s.status)),
      );
  }
}

type PageResult = IteratorResult<
  (TableEntityResult<Record<string, unknown>>[] & { continuationToken?: string }) | undefined
>;

/** A page's keys and continuation, or `done`. */
function pageAnswer(result: PageResult): unknown {
  if (result.done || !result.value) return 'done';
  return {
    keys: result.value.map((e) => [e.partitionKey, e.rowKey]),
    next: result.value.continuationToken,
  };
}

/** The next page of the same query from both emulators, which must answer it alike. */
async function nextPagesAlike(
  iterators: AsyncIterator<unknown>[],
  filter: string,
  page: number,
): Promise<[PageResult, PageResult]> {
  const [a, b] = (await Promise.all(iterators.map((pagesOf) => pagesOf.next()))) as [
    PageResult,
    PageResult,
  ];
  expect({ filter, page, answer: pageAnswer(a) }).toEqual({ filter, page, answer: pageAnswer(b) });
  return [a, b];
}

async function everything(client: TableClient): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const entity of client.listEntities()) all.push(visible(entity));
  return all;
}

// The deliberate cases: built from the rows written (FULL holds every shared RowKey and BARE
// none, whatever the seed), so that what the comparison must cover is covered on every run.

/** A row's identity, as the answers' `keys` give it. */
const rowId = (partitionKey: string, rowKey: string): string =>
  JSON.stringify([partitionKey, rowKey]);

/** The RowKeys of each partition written, sorted. */
function rowKeysByPartition(rows: readonly Row[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const row of rows)
    keys.set(row.partitionKey, [...(keys.get(row.partitionKey) ?? []), row.rowKey]);
  for (const list of keys.values()) list.sort();
  return keys;
}

/** The first, middle and last of a list (fewer if it is shorter). */
function spread<T>(items: readonly T[]): T[] {
  if (items.length === 0) return [];
  return [...new Set([items[0]!, items[Math.floor(items.length / 2)]!, items[items.length - 1]!])];
}

type PointRead = {
  partitionKey: string;
  rowKey: string;
  kind: 'present' | 'elsewhere only' | 'missing';
};

/**
 * Point reads of each kind: present (first, middle and last RowKey of each partition), in another
 * partition only (every shared RowKey in BARE, and others' RowKeys in each partition), missing
 * everywhere (in FULL, the keys LokiJS compares as equal to its `1` and `000` among them).
 */
function pointReadCases(rows: readonly Row[]): PointRead[] {
  const byPartition = rowKeysByPartition(rows);
  const everyRowKey = [...new Set(rows.map((r) => r.rowKey))].sort();
  const nowhere = [...KEY_VALUES, 'nowhere', '0.0'].filter((k) => !everyRowKey.includes(k));
  const cases: PointRead[] = [];
  for (const partitionKey of [...PARTITIONS, 'idx_0', `idx_${INDEX_PARTITIONS - 1}`]) {
    const own = byPartition.get(partitionKey) ?? [];
    for (const rowKey of spread(own)) cases.push({ partitionKey, rowKey, kind: 'present' });
    const elsewhere =
      partitionKey === BARE
        ? SHARED_ROW_KEYS
        : everyRowKey.filter((k) => !own.includes(k)).slice(0, 2);
    for (const rowKey of elsewhere) cases.push({ partitionKey, rowKey, kind: 'elsewhere only' });
    for (const rowKey of partitionKey === FULL ? nowhere : nowhere.slice(0, 2))
      cases.push({ partitionKey, rowKey, kind: 'missing' });
  }
  return cases;
}

type FilterCase = { filter: string | undefined; top: number | undefined; expected: string[] };

/**
 * RowKey disjunctions pinned with a partition, in each shape the patched store looks up: each
 * asks for RowKeys of its partition (one twice), one of another partition only and one of none,
 * so each must return rows, exactly those of its partition; whole, and a row a page.
 */
function rowKeysPinnedCases(rows: readonly Row[]): FilterCase[] {
  const byPartition = rowKeysByPartition(rows);
  const everyRowKey = [...new Set(rows.map((r) => r.rowKey))].sort();
  const cases: FilterCase[] = [];
  PARTITIONS.forEach((partitionKey, i) => {
    const own = byPartition.get(partitionKey) ?? [];
    const wanted = spread(own);
    const elsewhere = everyRowKey.filter((k) => !own.includes(k)).slice(0, 1);
    const asked = [...wanted, ...elsewhere, 'nowhere', ...wanted.slice(0, 1)];
    const disjunction = asked
      .map((k, j) => (j % 2 === 0 ? `RowKey eq ${lit(k)}` : `${lit(k)} eq RowKey`))
      .join(' or ');
    const pin = `PartitionKey eq ${lit(partitionKey)}`;
    const filter = [
      `${pin} and (${disjunction})`,
      `(${disjunction}) and ${pin}`,
      `(${disjunction}) and (N ge -20) and ${pin}`,
    ][i % 3]!;
    const expected = wanted.map((k) => rowId(partitionKey, k));
    cases.push({ filter, top: undefined, expected }, { filter, top: 1, expected });
  });
  // Keys LokiJS compares as equal numbers: only the ones asked come back.
  cases.push({
    filter: `PartitionKey eq ${lit(FULL)} and (RowKey eq '1.0' or RowKey eq '000' or RowKey eq '01' or RowKey eq '1e3')`,
    top: 2,
    expected: [rowId(FULL, '000'), rowId(FULL, '1e3')],
  });
  return cases;
}

/**
 * Small pages over more rows than they hold: a big partition (every page size), a RowKey range
 * in it, one RowKey across a hundred partitions, a PartitionKey range, the whole table.
 */
function pagingCases(rows: readonly Row[]): FilterCase[] {
  const ids = (keep: (row: Row) => boolean): string[] =>
    rows.filter(keep).map((r) => rowId(r.partitionKey, r.rowKey));
  const full = ids((r) => r.partitionKey === FULL);
  return [
    ...[1, 2, 3, 7].map((top) => ({ filter: `PartitionKey eq ${lit(FULL)}`, top, expected: full })),
    {
      filter: `PartitionKey eq ${lit(FULL)} and RowKey ge 'r_'`,
      top: 3,
      expected: ids((r) => r.partitionKey === FULL && r.rowKey >= 'r_'),
    },
    { filter: "RowKey eq '000'", top: 7, expected: ids((r) => r.rowKey === '000') },
    {
      filter: "PartitionKey ge 'idx_1' and PartitionKey lt 'idx_2' and RowKey eq '000'",
      top: 3,
      expected: ids(
        (r) => r.partitionKey >= 'idx_1' && r.partitionKey < 'idx_2' && r.rowKey === '000',
      ),
    },
    { filter: undefined, top: 50, expected: ids(() => true) },
  ];
}

/** The pages {@link pages} answered, or the storage error it answered instead. */
function pagesOf(answer: unknown): { keys: [string, string][]; next?: string }[] {
  const { ok } = answer as { ok?: { keys: [string, string][]; next?: string }[] };
  if (!ok) throw new Error(`the query failed: ${JSON.stringify(answer)}`);
  return ok;
}

/**
 * Writes whose outcome the rows written decide, each kind both refused and accepted: creates
 * of a row that exists, or exists in another partition only; updates, merges and deletes of rows
 * in another partition only, missing or present; transactions that fail on a later action (so
 * the earlier ones roll back) or succeed.
 */
function decidedWrites(): { write: Write; refused: boolean }[] {
  const row = randomRow;
  const batch = (partitionKey: string, actions: [TransactionAction[0], string][]): Write => ({
    kind: 'batch',
    actions: actions.map(([kind, rowKey]): TransactionAction => {
      const entity: TableEntity = row(partitionKey, rowKey);
      switch (kind) {
        case 'create':
          return ['create', entity];
        case 'upsert':
          return ['upsert', entity, 'Merge'];
        case 'update':
          return ['update', entity, 'Replace'];
        default:
          return ['delete', { partitionKey, rowKey }];
      }
    }),
  });
  return [
    { write: { kind: 'create', row: row(FULL, '000') }, refused: true },
    { write: { kind: 'create', row: row(BARE, '000') }, refused: false },
    { write: { kind: 'replace', row: row(BARE, '00') }, refused: true },
    { write: { kind: 'merge', row: row(BARE, 'Smith') }, refused: true },
    { write: { kind: 'delete', partitionKey: BARE, rowKey: '1' }, refused: true },
    { write: { kind: 'delete', partitionKey: FULL, rowKey: 'nowhere' }, refused: true },
    { write: { kind: 'replace', row: row(FULL, '00') }, refused: false },
    { write: { kind: 'merge', row: row(FULL, 'Smith') }, refused: false },
    { write: { kind: 'upsertReplace', row: row(FULL, 'e\u0301') }, refused: false },
    { write: { kind: 'upsertMerge', row: row(BARE, 'é') }, refused: false },
    { write: { kind: 'delete', partitionKey: FULL, rowKey: '1' }, refused: false },
    {
      write: batch(BARE, [
        ['create', 'b_new'],
        ['upsert', 'b_other'],
        ['update', '0'],
      ]),
      refused: true,
    },
    {
      write: batch(FULL, [
        ['upsert', 'b_new'],
        ['delete', 'x y'],
        ['create', '0'],
      ]),
      refused: true,
    },
    {
      write: batch(FULL, [
        ['create', 'b_made'],
        ['delete', 'x y'],
        ['update', "a'b"],
      ]),
      refused: false,
    },
  ];
}

describe(`the emulator's table-store patch (seed ${SEED})`, () => {
  let patched: RunningAzurite;
  let published: RunningAzurite;
  /** The same table in both emulators: [patched, published]. */
  let tables: [TableClient, TableClient];
  let rows: Row[];

  /** The same call against both emulators, at the same time; their answers must be equal. */
  async function both<T>(call: (client: TableClient) => Promise<T>): Promise<[T, T]> {
    return Promise.all([call(tables[0]), call(tables[1])]);
  }

  beforeAll(async () => {
    [patched, published] = await Promise.all([
      startAzurite(),
      startAzurite({ packageName: 'azurite-unpatched' }),
    ]);
    const name = uniqueTableName('Patch');
    tables = [patched, published].map((azurite) =>
      TableClient.fromConnectionString(azurite.connectionString, name, {
        allowInsecureConnection: true,
      }),
    ) as [TableClient, TableClient];
    await both((client) => client.createTable());
    rows = seedRows();
    const byPartition = new Map<string, Row[]>();
    for (const row of rows)
      byPartition.set(row.partitionKey, [...(byPartition.get(row.partitionKey) ?? []), row]);
    for (const partition of byPartition.values()) {
      for (let i = 0; i < partition.length; i += 100) {
        const actions = partition.slice(i, i + 100).map((r): TransactionAction => ['create', r]);
        await both((client) => client.submitTransaction(actions));
      }
    }
  });

  afterAll(async () => {
    await Promise.all([patched?.stop(), published?.stop()]);
  });

  it('runs the patched store against the published one', () => {
    const store = (name: string): string =>
      fs.readFileSync(
        require.resolve(`${name}/dist/src/table/persistence/LokiTableMetadataStore.js`),
        'utf8',
      );
    expect(store('azurite')).toContain('findEntity(');
    expect(store('azurite-unpatched')).not.toContain('findEntity(');
  });

  it('answers point reads alike: present, in another partition only, missing', async () => {
    const written = new Map(rows.map((r) => [rowId(r.partitionKey, r.rowKey), r]));
    const cases = pointReadCases(rows);
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(['present', 'elsewhere only', 'missing']),
    );
    for (const { partitionKey, rowKey, kind } of cases) {
      const [a, b] = await both((client) =>
        outcome(() => client.getEntity(partitionKey, rowKey).then(visible)),
      );
      expect({ partitionKey, rowKey, answer: a }).toEqual({ partitionKey, rowKey, answer: b });
      // Not only alike: the row written, or not found.
      const row = written.get(rowId(partitionKey, rowKey));
      expect({ partitionKey, rowKey, kind, answer: a }).toEqual({
        partitionKey,
        rowKey,
        kind,
        answer: kind === 'present' ? { ok: row } : { statusCode: 404 },
      });
    }
    // Breadth: random keys, most of them present somewhere.
    for (let i = 0; i < 150; i++) {
      const { partitionKey, rowKey } = randomKeys(rows);
      const [a, b] = await both((client) =>
        outcome(() => client.getEntity(partitionKey, rowKey).then(visible)),
      );
      expect({ partitionKey, rowKey, answer: a }).toEqual({ partitionKey, rowKey, answer: b });
    }
  });

  it('answers RowKeys pinned with a partition alike, with the rows that exist', async () => {
    for (const { filter, top, expected } of rowKeysPinnedCases(rows)) {
      const [a, b] = await both((client) => pages(client, filter, top));
      expect({ filter, top, answer: a }).toEqual({ filter, top, answer: b });
      const found = pagesOf(a).flatMap((page) => page.keys.map(([p, r]) => rowId(p, r)));
      expect(expected.length).toBeGreaterThan(0);
      expect({ filter, top, found: found.sort() }).toEqual({ filter, top, found: expected.sort() });
    }
  });

  it('answers small pages alike as they continue, continuation tokens included', async () => {
    for (const { filter, top, expected } of pagingCases(rows)) {
      const [a, b] = await both((client) => pages(client, filter, top));
      expect({ filter, top, answer: a }).toEqual({ filter, top, answer: b });
      const answer = pagesOf(a);
      const found = answer.flatMap((page) => page.keys.map(([p, r]) => rowId(p, r)));
      // More rows than a page holds: the query went on with a continuation token, page by page,
      // each row once, all of them when the pages ended before MAX_PAGES.
      expect(expected.length).toBeGreaterThan(top!);
      expect(answer.length).toBeGreaterThan(1);
      for (const page of answer.slice(0, -1)) expect(page.next).toEqual(expect.any(String));
      expect(new Set(found).size).toBe(found.length);
      expect(found.filter((id) => !expected.includes(id))).toEqual([]);
      expect({ filter, top, found: found.length }).toEqual({
        filter,
        top,
        found: Math.min(expected.length, top! * MAX_PAGES),
      });
    }
  });

  it('answers random filters alike, page by page, continuation tokens included', async () => {
    for (let i = 0; i < 120; i++) {
      const filter = randomFilter();
      const top = pick([undefined, 1, 2, 3, 7, 50]);
      const [a, b] = await both((client) => pages(client, filter, top));
      expect({ filter, top, answer: a }).toEqual({ filter, top, answer: b });
    }
  });

  it('answers filters of every shape alike, whatever decides the pin', async () => {
    for (const filter of SHAPED_FILTERS) {
      for (const top of [undefined, 1, 3]) {
        const [a, b] = await both((client) => pages(client, filter, top));
        expect({ filter, top, answer: a }).toEqual({ filter, top, answer: b });
      }
    }
  });

  it('applies writes and transactions alike, refused or not, and ends with the same table', async () => {
    for (const { write, refused } of decidedWrites()) {
      const [a, b] = await both((client) => apply(client, write));
      expect({ write, answer: a }).toEqual({ write, answer: b });
      expect({ write, refused: 'statusCode' in (a as object) }).toEqual({ write, refused });
    }
    // The refused transactions wrote nothing.
    const [a, b] = await both((client) =>
      outcome(() => client.getEntity(BARE, 'b_new').then(visible)),
    );
    expect([a, b]).toEqual([{ statusCode: 404 }, { statusCode: 404 }]);
    // Breadth: random writes and transactions, most of them of keys that exist somewhere.
    for (let i = 0; i < 160; i++) {
      const write = randomWrite(rows);
      const [x, y] = await both((client) => apply(client, write));
      expect({ write, answer: x }).toEqual({ write, answer: y });
    }
    const [all, allToo] = await both(everything);
    expect(all).toEqual(allToo);
  });

  // The tests above read a table written once; these read it after the writes, whose replaces
  // (remove and insert), merges (update), deletes and rolled-back transactions maintain the
  // indexes the patched reads walk.
  it('answers point reads and filters alike after the writes', async () => {
    for (let i = 0; i < 100; i++) {
      const { partitionKey, rowKey } = randomKeys(rows);
      const [a, b] = await both((client) =>
        outcome(() => client.getEntity(partitionKey, rowKey).then(visible)),
      );
      expect({ partitionKey, rowKey, answer: a }).toEqual({ partitionKey, rowKey, answer: b });
    }
    for (let i = 0; i < 40; i++) {
      const filter = randomFilter();
      const top = pick([undefined, 1, 3, 50]);
      const [a, b] = await both((client) => pages(client, filter, top));
      expect({ filter, top, answer: a }).toEqual({ filter, top, answer: b });
    }
  });

  it('pages alike while the partition is written between pages', async () => {
    // On purpose: a partition of its own, 3 rows a page, each page followed by writes before,
    // at and after the continuation point: the row just returned deleted, a row created between
    // it and the next, the next (where the token points) deleted, the one after merged, one
    // created at the end. Every page still has rows, and all but the last a token.
    const partitionKey = 'between';
    const own = Array.from({ length: 24 }, (_, i) =>
      randomRow(partitionKey, `p_${String(i).padStart(2, '0')}`),
    );
    await both((client) =>
      client.submitTransaction(own.map((r): TransactionAction => ['create', r])),
    );
    const filter = `PartitionKey eq ${lit(partitionKey)}`;
    const iterators = tables.map((client) =>
      client.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 3 }),
    );
    for (let page = 0; page < 5; page++) {
      const [a] = await nextPagesAlike(iterators, filter, page);
      const returned = a.done ? [] : (a.value ?? []).map((e) => e.rowKey!);
      expect({ page, returned: returned.length }).toEqual({ page, returned: 3 });
      if (page < 4) expect(a.value?.continuationToken).toEqual(expect.any(String));
      const last = returned[returned.length - 1]!;
      const next = `p_${String(Number(last.slice(2, 4)) + 1).padStart(2, '0')}`;
      const after = `p_${String(Number(last.slice(2, 4)) + 2).padStart(2, '0')}`;
      const writes: Write[] = [
        { kind: 'delete', partitionKey, rowKey: returned[0]! },
        { kind: 'create', row: randomRow(partitionKey, `${last}a`) },
        { kind: 'delete', partitionKey, rowKey: next },
        { kind: 'merge', row: randomRow(partitionKey, after) },
        { kind: 'create', row: randomRow(partitionKey, `q_${page}`) },
      ];
      for (const write of writes) {
        const [x, y] = await both((client) => apply(client, write));
        expect({ write, answer: x }).toEqual({ write, answer: y });
        expect({ write, refused: 'statusCode' in (x as object) }).toEqual({
          write,
          refused: false,
        });
      }
    }
    // Breadth: random partitions and filters, random writes between the pages.
    for (let i = 0; i < 25; i++) {
      const partitionKey = pick(PARTITIONS);
      const filter = chance(0.5)
        ? `PartitionKey eq ${lit(partitionKey)}`
        : `PartitionKey eq ${lit(partitionKey)} and (${expression(1)})`;
      const iterators = tables.map((client) =>
        client.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 3 }),
      );
      for (let page = 0; page < 4; page++) {
        const [a] = await nextPagesAlike(iterators, filter, page);
        if (a.done) break;
        // Writes, most of them in the partition being paged (keys before, at and after the
        // continuation point), some elsewhere.
        const own = rows.filter((r) => r.partitionKey === partitionKey);
        for (let w = 0; w < 3; w++) {
          const write = randomWrite(own.length > 0 ? own : rows);
          const [x, y] = await both((client) => apply(client, write));
          expect({ write, answer: x }).toEqual({ write, answer: y });
        }
      }
    }
  });
});
