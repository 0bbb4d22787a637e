/**
 * Archiving a page of a department's employees (the department archive's chunk) on real Azurite:
 * 100 employees, in pages of 25, end archived exactly once with their reviews, gone from the directory and —
 * once the index worker drained the outbox — from every index; a page run again after a crash
 * between the copy and the delete, or between two delete transactions, loses and duplicates
 * nothing; an employee patched, or given a review, between the copy and the delete is archived as
 * it now is; one deleted meanwhile counts as archived; a manager's archive clears the department's
 * manager copy.
 */
import type { TableClient } from '@azure/data-tables';
import { parseArchiveRowKey } from '../../../src/storage/keys/tables/archive';
import { archiveEmployeePage, type PageArchived } from '../../../src/archive/archiveEmployees';
import { chunk } from '../../../src/orchestrations/retryPolicy';
import { createIndexingFixture, type IndexingFixture } from '../indexing/fixture';
import { queueChangeSink } from '../../../src/indexing/queue/queueChangeSink';
import { readEmployeeData, readEmployeeMeta } from '../../../src/directory/entities';

let fx: IndexingFixture;
let archive: TableClient;
afterEach(() => fx.cleanup());

const id = (n: number): string => String(n).padStart(6, '0');
const lastNames = ['Jones', 'Smith', 'Ng', 'Müller', 'Okafor', 'García', 'Lee'];

/** Creates `Sales` with employees 1..count (names cycling), reviews for every 50th. */
async function seedSales(count: number): Promise<void> {
  fx = createIndexingFixture();
  archive = fx.clients.table(fx.names.archive);
  await fx.directory.departments.put('Sales', {});
  for (let first = 1; first <= count; first += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - first + 1) }, (_, i) => ({
      employeeId: id(first + i),
      firstName: 'Pat',
      lastName: lastNames[(first + i) % lastNames.length]!,
      email: `p${id(first + i)}@contoso.com`,
    }));
    expect((await fx.directory.employees.import('Sales', rows)).failed).toEqual([]);
  }
  for (let n = 50; n <= count; n += 50) {
    for (const year of [2023, 2024]) {
      await fx.directory.reviews.put('Sales', id(n), year, { managerRating: 3, peerRating: 4 });
    }
  }
  await fx.drain();
}

const deps = () => ({
  employees: fx.stores.employees,
  archive,
  directory: fx.directory.employees,
  changes: queueChangeSink(fx.clients.queue(fx.names.queue)),
});

/** Row keys in the archive's `Sales` partition, and each archived employee's entity by id. */
async function archived(): Promise<{
  rowKeys: string[];
  byId: Map<string, Record<string, unknown>>;
}> {
  const rowKeys: string[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  for await (const e of archive.listEntities<Record<string, unknown>>()) {
    expect(e.partitionKey).toBe('Sales');
    // Archive records are per incarnation (docs/queues.md "Incarnations"): the directory's key.
    const { rowKey, incarnation } = parseArchiveRowKey(String(e.rowKey));
    rowKeys.push(rowKey);
    if (rowKey.startsWith('empid_')) {
      expect(e.Incarnation).toBe(incarnation);
      byId.set(String(e.EmployeeId), e);
    }
  }
  return { rowKeys: rowKeys.sort(), byId };
}

/** Row keys left in the directory's `Sales` partition, but the department's own entities. */
async function leftInDirectory(): Promise<string[]> {
  const left: string[] = [];
  for await (const e of fx.stores.employees.listEntities()) {
    if (e.partitionKey !== 'Sales') continue; // the department listing's partition
    const rowKey = String(e.rowKey);
    if (rowKey === 'department' || rowKey.startsWith('department_count_')) continue;
    if (rowKey.startsWith('outbox_')) continue; // the index worker's (drained below)
    if (rowKey.startsWith('archived_')) continue; // receipts of the one-employee sequence's removals
    left.push(rowKey);
  }
  return left;
}

function expectedArchive(count: number): string[] {
  const keys: string[] = [];
  for (let n = 1; n <= count; n++) {
    keys.push(`empid_${id(n)}`);
    if (n % 50 === 0) keys.push(`review_${id(n)}_2023`, `review_${id(n)}_2024`);
  }
  return keys.sort();
}

/** Archives employees 1..count page by page, as the orchestration's chunks (of 100) do. */
async function archiveAll(count: number, pageSize: number): Promise<PageArchived> {
  const sum: PageArchived = { archived: 0, alreadyArchived: 0, notFound: 0, superseded: 0 };
  const ids = Array.from({ length: count }, (_, i) => id(i + 1));
  for (const page of chunk(ids, pageSize)) {
    const result = await archiveEmployeePage(deps(), 'Sales', page);
    sum.archived += result.archived;
    sum.alreadyArchived += result.alreadyArchived;
    sum.notFound += result.notFound;
    sum.superseded += result.superseded;
  }
  return sum;
}

// A page works the same at any size, and every employee costs requests (the archive's, the
// drain's, the audit's): real sizes, through the orchestration, are the bench's scale case
// (bench/cases/scale.ts, `archive`).
it('archives 100 employees page by page exactly once with their reviews; directory and indexes end empty', async () => {
  await seedSales(100);
  expect(await fx.drift()).toEqual([]);

  expect(await archiveAll(100, 25)).toEqual({
    archived: 100,
    alreadyArchived: 0,
    notFound: 0,
    superseded: 0,
  });

  expect((await archived()).rowKeys).toEqual(expectedArchive(100));
  expect(await leftInDirectory()).toEqual([]);
  expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(0);
  await fx.drain();
  expect(await fx.drift()).toEqual([]);
  for (const name of ['jones', 'müller', 'lee']) {
    expect(await fx.stores.lastNames.members(name)).toEqual([]);
  }
  // Run again (a replayed chunk): all counted as archived, nothing written twice.
  expect(await archiveAll(100, 25)).toEqual({
    archived: 0,
    alreadyArchived: 100,
    notFound: 0,
    superseded: 0,
  });
  expect((await archived()).rowKeys).toEqual(expectedArchive(100));
});

describe('a page run again after a crash', () => {
  const page = Array.from({ length: 100 }, (_, i) => id(i + 1));

  it('between the copy and the delete: archived once, nothing lost', async () => {
    await seedSales(100);
    await expect(
      archiveEmployeePage(deps(), 'Sales', page, {
        afterStep: (step) => {
          if (step === 'archived') throw new Error('host died');
        },
      }),
    ).rejects.toThrow('host died');
    // The copies are there, the directory is intact.
    expect((await archived()).rowKeys).toEqual(expectedArchive(100));
    expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(100);

    expect(await archiveEmployeePage(deps(), 'Sales', page)).toEqual({
      archived: 100,
      alreadyArchived: 0,
      notFound: 0,
      superseded: 0,
    });
    expect((await archived()).rowKeys).toEqual(expectedArchive(100));
    expect(await leftInDirectory()).toEqual([]);
    await fx.drain();
    expect(await fx.drift()).toEqual([]);
  });

  it('between two delete transactions: the rest is archived, the first group counts as archived', async () => {
    await seedSales(100);
    let groups = 0;
    await expect(
      archiveEmployeePage(deps(), 'Sales', page, {
        beforeDeleteGroup: () => {
          if (++groups === 2) throw new Error('host died');
        },
      }),
    ).rejects.toThrow('host died');
    const count = (await fx.directory.departments.get('Sales')).value.employeeCount;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(100);

    expect(await archiveEmployeePage(deps(), 'Sales', page)).toEqual({
      archived: count,
      alreadyArchived: 100 - count,
      notFound: 0,
      superseded: 0,
    });
    expect((await archived()).rowKeys).toEqual(expectedArchive(100));
    expect(await leftInDirectory()).toEqual([]);
    expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(0);
    await fx.drain();
    expect(await fx.drift()).toEqual([]);
  });
});

describe('changes made while the page is archived', () => {
  it('an employee patched or given a review after the copy is archived as it now is', async () => {
    await seedSales(100);
    const edited = { patched: id(7), reviewed: id(8), deleted: id(9) };
    let first = true;
    const result = await archiveEmployeePage(
      deps(),
      'Sales',
      [...Array(100).keys()].map((i) => id(i + 1)),
      {
        beforeDeleteGroup: async () => {
          if (!first) return;
          first = false;
          // After the copies, before the first grouped delete.
          await fx.directory.employees.patch('Sales', edited.patched, {
            firstName: 'Renamed',
            email: 'renamed@contoso.com',
          });
          await fx.directory.reviews.put('Sales', edited.reviewed, 2025, {
            managerRating: 5,
            peerRating: 5,
            comments: 'late review',
          });
          await fx.directory.employees.delete('Sales', edited.deleted);
        },
      },
    );
    // The one deleted after its copy counts as already archived.
    expect(result).toEqual({ archived: 99, alreadyArchived: 1, notFound: 0, superseded: 0 });

    const { rowKeys, byId } = await archived();
    expect(readEmployeeData(byId.get(edited.patched)!)).toMatchObject({
      firstName: 'Renamed',
      email: 'renamed@contoso.com',
    });
    expect(readEmployeeMeta(byId.get(edited.reviewed)!).reviewYears).toEqual([2025]);
    expect(rowKeys).toEqual([...expectedArchive(100), `review_${edited.reviewed}_2025`].sort());
    expect(await leftInDirectory()).toEqual([]);
    expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(0);
    await fx.drain();
    expect(await fx.drift()).toEqual([]);
  });

  it("a manager's archive clears the department's manager copy", async () => {
    await seedSales(10);
    await fx.directory.departments.setManager('Sales', id(3));
    expect(
      await archiveEmployeePage(
        deps(),
        'Sales',
        [...Array(10).keys()].map((i) => id(i + 1)),
      ),
    ).toEqual({ archived: 10, alreadyArchived: 0, notFound: 0, superseded: 0 });
    const sales = (await fx.directory.departments.get('Sales')).value;
    expect(sales.manager ?? null).toBeNull();
    expect(sales.employeeCount).toBe(0);
  });

  it('counts ids in neither table as not found', async () => {
    await seedSales(3);
    expect(await archiveEmployeePage(deps(), 'Sales', [id(2), id(500)])).toEqual({
      archived: 1,
      alreadyArchived: 0,
      notFound: 1,
      superseded: 0,
    });
  });
});
