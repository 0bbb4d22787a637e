/**
 * An upgrade from the per-name layout of the org-wide last-name index (`lastname_<name>`, rows
 * `part_000`… and `~fence`, written here by hand as raw entities): the search finds what it lists
 * before the migration, once each and never a stale one; the sweep's migration step moves it into
 * the grouped layout and deletes the old partitions, after which a search costs no extra request;
 * a rename between the migration's reads and its change is not undone; a crash is repaired by the
 * next run.
 */
import type { TableClient } from '@azure/data-tables';
import { findEmployeesAcrossOrganisation } from '../../../../src/indexing/employeeIndex/indexQueries';
import { entityLastNameStore } from '../../../../src/indexing/lastNames/lastNameEntityStore';
import {
  LEGACY_CHECK_TTL_MS,
  legacyLayoutMayRemain,
} from '../../../../src/indexing/lastNames/legacyLastNames';
import { migrateLegacyLastNames } from '../../../../src/indexing/lastNames/legacyLastNameMigration';
import type { LastNameStore } from '../../../../src/indexing/lastNames/lastNameStore';
import { ValidationError } from '../../../../src/domainErrors';
import { createIndexingFixture, employeeBody, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
let index: TableClient;
let store: LastNameStore;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  fx = createIndexingFixture({ mode: 'entity' });
  // The test's own client of the index table, with the search's clock: the process's memory of
  // old partitions is per table, so each test (its own tables) starts with none.
  index = fx.clients.table(fx.names.index);
  clock = Date.now();
  store = entityLastNameStore(index, { legacyCheck: { now } });
  await fx.directory.departments.put('Sales', {});
  // 1 to 4 are Joneses, 5 a Smith; every one is in the grouped layout after the drain.
  await fx.directory.employees.import('Sales', [
    ...[1, 2, 3, 4].map((n) => employeeBody(n, { lastName: 'Jones' })),
    employeeBody(5, { lastName: 'Smith' }),
  ]);
  await fx.drain();
  // 2 and 3 were indexed before the upgrade: only the old layout lists them.
  for (const id of ['000002', '000003']) {
    await store.remove('Jones', { department: 'Sales', employeeId: id });
  }
  // 4 was renamed since the upgrade: the grouped layout moved it, the old one still says Jones.
  await fx.directory.employees.patch('Sales', '000004', { lastName: 'Brown' });
  await fx.drain();
});
afterEach(() => fx.cleanup());

/** Writes the old layout by hand: `jones` over two shards (with 1, also grouped, and 9, gone). */
async function writeOldLayout(): Promise<void> {
  const shard = (partitionKey: string, rowKey: string, members: string[]) =>
    index.createEntity({
      partitionKey,
      rowKey,
      EntityType: 'OrgLastNameIndex.v1',
      LastName: partitionKey.slice('lastname_'.length),
      Members: JSON.stringify(members),
    });
  const fence = (partitionKey: string) =>
    index.createEntity({ partitionKey, rowKey: '~fence', EntityType: 'EmployeeIndexFence.v1' });
  await shard('lastname_jones', 'part_000', ['Sales/000001', 'Sales/000002', 'Sales/000009']);
  await shard('lastname_jones', 'part_001', ['Sales/000003', 'Sales/000004']);
  await fence('lastname_jones');
  await shard('lastname_smith', 'part_000', ['Sales/000005']);
  await fence('lastname_smith');
}

/** Counts the requests on the index table: all, and those that read the old layout. */
function countRequests(table: TableClient): { all: number; old: number } {
  const counter = { all: 0, old: 0 };
  table.pipeline.addPolicy({
    name: `count-${Math.random()}`,
    sendRequest: (request, next) => {
      counter.all++;
      if (/lastname_/.test(decodeURIComponent(request.url))) counter.old++;
      return next(request);
    },
  });
  return counter;
}

const search = async (lastName: string, pageSize = 1000, continuationToken?: string) =>
  findEmployeesAcrossOrganisation(fx.stores.employees, store, lastName, {
    pageSize,
    continuationToken,
  });

const ids = (items: Record<string, unknown>[]) => items.map((e) => String(e.employeeId));

/** Every match, page by page. */
async function searchAll(lastName: string, pageSize: number): Promise<string[]> {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await search(lastName, pageSize, token);
    found.push(...ids(page.items));
    token = page.continuationToken ?? undefined;
  } while (token);
  return found;
}

/** Every row left in the old layout. */
async function oldRows(): Promise<string[]> {
  const rows: string[] = [];
  const filter = "PartitionKey ge 'lastname_' and PartitionKey lt 'lastname`'";
  for await (const e of index.listEntities({ queryOptions: { filter } })) {
    rows.push(`${e.partitionKey}/${e.rowKey}`);
  }
  return rows;
}

it('finds the old layout before the migration, once each, never a stale one', async () => {
  await writeOldLayout();
  // 1 is in both layouts (once), 2 and 3 only in the old one, 4 renamed and 9 gone (neither).
  expect((await search('jones')).items.map((e) => e.employeeId).sort()).toEqual([
    '000001',
    '000002',
    '000003',
  ]);
  for (const pageSize of [1, 2]) {
    expect((await searchAll('JONES', pageSize)).sort()).toEqual(['000001', '000002', '000003']);
  }
  expect((await store.members('jones')).map((m) => m.employeeId)).toEqual([
    '000001',
    '000002',
    '000003',
    '000004',
    '000009',
  ]);
  // A position past the old partition's shards is no token of this store.
  await expect(store.membersPage('jones', '2000:', 10)).rejects.toThrow(ValidationError);
});

it('moves the old layout into the grouped one, after which a search costs no extra request', async () => {
  // What a search costs with no old layout, once the process knows there is none.
  await search('jones');
  const counter = countRequests(index);
  await search('jones');
  const baseline = counter.all;
  expect(counter.old).toBe(0);

  await writeOldLayout();
  clock += LEGACY_CHECK_TTL_MS;
  counter.all = 0;
  expect(ids((await search('jones')).items).sort()).toEqual(['000001', '000002', '000003']);
  expect(counter.old).toBeGreaterThan(0);

  const report = await migrateLegacyLastNames(index, fx.stores.employees, { now });
  expect(report).toEqual({ names: 2, moved: 2, dropped: 2, remaining: false });
  expect(await oldRows()).toEqual([]);
  expect((await store.members('jones')).map((m) => m.employeeId)).toEqual([
    '000001',
    '000002',
    '000003',
  ]);
  expect((await store.members('smith')).map((m) => m.employeeId)).toEqual(['000005']);
  expect(await fx.drift()).toEqual([]);

  counter.all = 0;
  counter.old = 0;
  expect(ids((await search('jones')).items).sort()).toEqual(['000001', '000002', '000003']);
  expect(counter).toEqual({ all: baseline, old: 0 });
  // Another process (or this one, a TTL later) asks once, then not again.
  clock += LEGACY_CHECK_TTL_MS;
  counter.all = 0;
  await search('jones');
  await search('jones');
  expect(counter).toEqual({ all: 2 * baseline + 1, old: 1 });
  // A second run finds nothing and asks nothing; with `recheck` (the hourly walk) one query.
  counter.all = 0;
  expect(await migrateLegacyLastNames(index, fx.stores.employees, { now })).toMatchObject({
    names: 0,
  });
  expect(counter.all).toBe(0);
  await migrateLegacyLastNames(index, fx.stores.employees, { now, recheck: true });
  expect(counter.all).toBe(1);
});

it('does not move a member renamed between its read and the change', async () => {
  await writeOldLayout();
  const report = await migrateLegacyLastNames(index, fx.stores.employees, {
    now,
    // 2 is renamed, and the change drained, after the migration read it as a Jones.
    beforeChange: async () => {
      await fx.directory.employees.patch('Sales', '000002', { lastName: 'Green' });
      await fx.drain();
    },
  });
  // The drain changed the grouped `jones` list after the migration read it: that name waits.
  expect(report.remaining).toBe(true);
  expect(await legacyLayoutMayRemain(index, { now })).toBe(true);
  // The grouped list (a snapshot reads only it) did not get 2 back, nor 3 (the change lost).
  expect((await store.snapshot('jones')).members).toEqual(['Sales/000001']);

  expect(await migrateLegacyLastNames(index, fx.stores.employees, { now })).toMatchObject({
    names: 1,
    remaining: false,
  });
  expect(await oldRows()).toEqual([]);
  expect(ids((await search('jones')).items).sort()).toEqual(['000001', '000003']);
  expect(ids((await search('green')).items)).toEqual(['000002']);
  expect(await fx.drift()).toEqual([]);
});

it('finishes after a crash between the change and the deletes, adding nothing twice', async () => {
  await writeOldLayout();
  const crash = new Error('process died');
  await expect(
    migrateLegacyLastNames(index, fx.stores.employees, {
      now,
      beforeDelete: () => Promise.reject(crash),
    }),
  ).rejects.toBe(crash);
  expect(await oldRows()).toHaveLength(5);

  const report = await migrateLegacyLastNames(index, fx.stores.employees, { now });
  expect(report).toMatchObject({ names: 2, moved: 0, remaining: false });
  expect(await oldRows()).toEqual([]);
  const members = (await store.members('jones')).map((m) => m.employeeId);
  expect(members).toEqual(['000001', '000002', '000003']);
  expect(await fx.drift()).toEqual([]);
});
