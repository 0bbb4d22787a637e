/**
 * Import into a department past `ASSUME_ABSENT_UP_TO`: the names the process does not know are
 * planned at the department's bound instead of read one by one when that costs fewer requests,
 * and a name another process created meanwhile still ends with every id (its chunk is refused,
 * reads it and is sent again).
 */
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { readLastNameIndex } from '../../../../src/directory/entities';
import { ASSUME_ABSENT_UP_TO } from '../../../../src/directory/bulkImport/indexVersions';
import { lastNameRowKey } from '../../../../src/storage/keys/tables/employees';
import { readEntity } from '../../../../src/storage/tables/entities';
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from '../fixture';

const DEPT = 'Large';
/** A name of its own per employee, interleaving with earlier calls' names as real names do. */
const ownName = (n: number): string => `Name${String((n * 48_271) % 999_983).padStart(6, '0')}`;

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put(DEPT, {});
  for (let first = 1; first <= ASSUME_ABSENT_UP_TO + 1_000; first += 1_000) {
    const rows = Array.from({ length: 1_000 }, (_, i) =>
      employeeBody(first + i, { lastName: ownName(first + i) }),
    );
    expect((await fx.directory.employees.import(DEPT, rows)).created).toBe(1_000);
  }
}, 120_000);
afterAll(() => fx.cleanup());

/** Point reads of last-name index entities the table's client sends while `work` runs. */
async function indexPointReads(work: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const policy: PipelinePolicy = {
    name: 'indexPointReads',
    // Counted before the answer: a 404 comes back as an error thrown through this policy.
    async sendRequest(request, next) {
      if (request.method === 'GET' && decodeURIComponent(request.url).includes("RowKey='lastname_"))
        reads++;
      return next(request);
    },
  };
  fx.table.pipeline.addPolicy(policy);
  try {
    await work();
  } finally {
    fx.table.pipeline.removePolicy({ name: policy.name });
  }
  return reads;
}

async function idsOf(name: string): Promise<string[]> {
  const entity = await readEntity(fx.table, DEPT, lastNameRowKey(name));
  return (entity && readLastNameIndex(entity)?.ids) ?? [];
}

it('plans names it does not know at the bound instead of reading each, and loses none another process created', async () => {
  // Another instance creates five names this one has never seen.
  const other = fx.another();
  const theirs = ['Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka'];
  for (const [i, lastName] of theirs.entries()) {
    await other.employees.create(DEPT, employeeBody(900_000 + i, { lastName }));
  }
  const rows = Array.from({ length: 200 }, (_, i) =>
    employeeBody(800_000 + i, { lastName: i < theirs.length ? theirs[i] : ownName(800_000 + i) }),
  );

  let result: unknown;
  const reads = await indexPointReads(async () => {
    result = await fx.directory.employees.import(DEPT, rows);
  });

  expect(result).toEqual({ created: 200, failed: [] });
  // Before: one point read per name of the call (200). Now only the names of the chunks refused
  // because one of their names existed after all.
  expect(reads).toBeLessThan(100);
  for (const [i, lastName] of theirs.entries()) {
    expect((await idsOf(lastName)).sort()).toEqual(
      [String(800_000 + i).padStart(6, '0'), String(900_000 + i).padStart(6, '0')].sort(),
    );
  }
  expect((await fx.directory.departments.get(DEPT)).value.employeeCount).toBe(
    ASSUME_ABSENT_UP_TO + 1_000 + theirs.length + 200,
  );
}, 60_000);

it('reads the names first in a process that has not kept the department since it was small', async () => {
  // A fresh instance knows none of the department's names: most would exist, so it reads them.
  const fresh = fx.another();
  const rows = Array.from({ length: 100 }, (_, i) =>
    employeeBody(700_000 + i, { lastName: ownName(1 + i) }),
  );
  let result: unknown;
  const reads = await indexPointReads(async () => {
    result = await fresh.employees.import(DEPT, rows);
  });
  expect(result).toEqual({ created: 100, failed: [] });
  expect(reads).toBe(100);
  expect(await idsOf(ownName(1))).toEqual(
    expect.arrayContaining([String(1).padStart(6, '0'), String(700_000).padStart(6, '0')]),
  );
}, 60_000);
