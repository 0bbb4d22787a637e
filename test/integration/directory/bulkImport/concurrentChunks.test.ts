/**
 * An import's chunks in flight at once (importEmployees.ts): chunks that share a last name run one
 * after another (a chain), the others concurrently, and the count and the indexes come out exact
 * after concurrent imports and creates from several processes (each with cold caches).
 */
import type { EmployeeChange } from '../../../../src/directory/changes';
import { createContext } from '../../../../src/directory/context';
import { importEmployees } from '../../../../src/directory/bulkImport/importEmployees';
import type { Row } from '../../../../src/directory/bulkImport/importRows';
import {
  compareIndexes,
  createDirectoryFixture,
  employeeBody,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeAll(() => {
  fx = createDirectoryFixture();
});
afterAll(() => fx.cleanup());

/** Resolves once `done()` holds, checking after every macrotask (all pending microtasks ran). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

it('runs the chunks of one name one after another while the other chunks go ahead', async () => {
  await fx.directory.departments.put('Chains', {});
  const published: EmployeeChange[] = [];
  // Chunks of the name between their hook and their commit (their changes are published).
  const sharedInFlight = new Set<string>();
  const context = createContext({
    employees: fx.table,
    changes: {
      publish: async (batch) => {
        published.push(...batch);
        for (const change of batch) sharedInFlight.delete(change.employeeId);
      },
    },
  });
  // 120 rows of one name (more than a chunk holds: three chunks) and 150 of names of their own.
  const shared = Array.from({ length: 120 }, (_, i) =>
    employeeBody(10_000 + i, { lastName: 'Shared' }),
  );
  const others = Array.from({ length: 150 }, (_, i) =>
    employeeBody(20_000 + i, { lastName: `Other${String(i).padStart(3, '0')}` }),
  );
  const otherIds = new Set(others.map((r) => r.employeeId as string));
  const firstShared = shared[0]!.employeeId as string;
  let firstSharedAttempts = 0;
  const overlaps: string[] = [];
  const beforeChunkWrite = async (rows: readonly Row[]): Promise<void> => {
    const ids = rows.filter((r) => r.lastName === 'shared').map((r) => r.employeeId);
    if (ids.length === 0) return;
    if (sharedInFlight.size > 0) overlaps.push(`${ids[0]} while ${[...sharedInFlight][0]}`);
    sharedInFlight.add(ids[0]!);
    if (ids.includes(firstShared) && ++firstSharedAttempts === 1) {
      // Hold the first chunk of the name until every other chunk that may run has committed and
      // whatever the freed workers started next has reached this hook.
      // (The chunk may hold other names' rows too: those wait with it.)
      const waiting = rows.filter((r) => otherIds.has(r.employeeId)).length;
      await until(
        () => published.filter((c) => otherIds.has(c.employeeId)).length === 150 - waiting,
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const result = await importEmployees(context, 'Chains', [...shared, ...others], {
    beforeChunkWrite,
  });
  expect(result).toEqual({ created: 270, failed: [] });
  // No chunk of the name was sent while another was on its way, so none was sent twice.
  expect(overlaps).toEqual([]);
  expect(firstSharedAttempts).toBe(1);
  expect((await fx.directory.departments.get('Chains')).value.employeeCount).toBe(270);
  const { stored, expected } = await compareIndexes(fx.table, 'Chains');
  expect(stored).toEqual(expected);
});

it('keeps the count and indexes exact with imports and creates from three processes at once', async () => {
  await fx.directory.departments.put('Together', {});
  // Seven names (Last0..Last6): each name's rows span chunks (chains), seven chains at once.
  const first = Array.from({ length: 1000 }, (_, i) => employeeBody(30_000 + i));
  // Names of their own and the same seven, from a process that knows none of them.
  const second = Array.from({ length: 400 }, (_, i) =>
    employeeBody(40_000 + i, i % 2 === 0 ? { lastName: `Own${i}` } : {}),
  );
  const creator = fx.another();
  const creates = Array.from({ length: 20 }, (_, i) =>
    creator.employees.create('Together', employeeBody(50_000 + i)),
  );
  const [a, b] = await Promise.all([
    fx.directory.employees.import('Together', first),
    fx.another().employees.import('Together', second),
    ...creates,
  ]);
  expect(a).toEqual({ created: 1000, failed: [] });
  expect(b).toEqual({ created: 400, failed: [] });
  expect((await fx.another().departments.get('Together')).value.employeeCount).toBe(1420);
  const { stored, expected } = await compareIndexes(fx.table, 'Together');
  expect(stored).toEqual(expected);
  const last3 = await fx.directory.employees.findByLastName('Together', 'Last3', {
    pageSize: 1000,
  });
  const all = [
    ...first,
    ...second,
    ...Array.from({ length: 20 }, (_, i) => employeeBody(50_000 + i)),
  ];
  expect(last3.items).toHaveLength(all.filter((r) => r.lastName === 'Last3').length);
});

it('reads an index entity a process did not know (taken as absent) and imports into it', async () => {
  await fx.directory.departments.put('Known', {});
  const earlier = Array.from({ length: 60 }, (_, i) =>
    employeeBody(60_000 + i, { lastName: `Name${i % 30}` }),
  );
  expect(await fx.directory.employees.import('Known', earlier)).toEqual({
    created: 60,
    failed: [],
  });
  // Another process: its cache knows none of the 30 names, which all exist.
  const later = Array.from({ length: 90 }, (_, i) =>
    employeeBody(70_000 + i, { lastName: `Name${i % 45}` }),
  );
  expect(await fx.another().employees.import('Known', later)).toEqual({
    created: 90,
    failed: [],
  });
  expect((await fx.directory.departments.get('Known')).value.employeeCount).toBe(150);
  const { stored, expected } = await compareIndexes(fx.table, 'Known');
  expect(stored).toEqual(expected);
});
