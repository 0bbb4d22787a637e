/**
 * Bulk import: chunks of ≤ 100 operations, each one transaction with its email copies, index
 * entities and the department's count; bad rows reported, never half-written.
 */
import { DEPARTMENT_COUNT_SHARDS } from '../../../../src/directory/entities/departmentCount';
import { readOutboxRow } from '../../../../src/directory/entities/outbox';
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Imports', {});
});
afterAll(() => fx.cleanup());

it('imports 1,000 rows with every copy, index entry and the count', async () => {
  const rows = Array.from({ length: 1000 }, (_, i) => employeeBody(i + 1));
  const result = await fx.directory.employees.import('Imports', rows);
  expect(result).toEqual({ created: 1000, failed: [] });
  expect((await fx.directory.departments.get('Imports')).value.employeeCount).toBe(1000);
  const entities = await partitionEntities(fx.table, 'Imports');
  expect(entities.filter((e) => e.EntityType === 'Employee.v1')).toHaveLength(1000);
  expect(entities.filter((e) => e.EntityType === 'EmployeeEmail.v1')).toHaveLength(1000);
  const last3 = await fx.directory.employees.findByLastName('Imports', 'Last3', { pageSize: 1000 });
  expect(last3.items).toHaveLength(rows.filter((r) => r.lastName === 'Last3').length);
  expect(fx.changes.filter((c) => c.reason === 'imported')).toHaveLength(1000);
});

it('reports invalid, duplicate and existing rows in request order and writes only the good ones', async () => {
  const result = await fx.directory.employees.import('Imports', [
    employeeBody(2001),
    employeeBody(2002, { email: 'not-an-email' }),
    employeeBody(2003),
    employeeBody(2003, { email: 'again@contoso.com' }),
    employeeBody(2004, { email: employeeBody(2001).email }),
    employeeBody(5), // exists already
    employeeBody(2005, { email: 'USER000006@contoso.com' }), // email of an existing employee
    { employeeId: 42 },
    employeeBody(2006),
  ]);
  expect(result.created).toBe(3);
  expect(result.failed.map((f) => [f.employeeId, f.error.code])).toEqual([
    ['002002', 'InvalidInput'],
    ['002003', 'DuplicateEmployeeId'],
    ['002004', 'DuplicateEmail'],
    ['000005', 'EmployeeExists'],
    ['002005', 'EmailTaken'],
    [null, 'InvalidInput'],
  ]);
  expect(result.failed[0]!.error.message).toMatch(/employees\[1\]\.email/);
  for (const id of ['002001', '002003', '002006'])
    await expect(fx.directory.employees.get('Imports', id)).resolves.toBeDefined();
  await expect(fx.directory.employees.get('Imports', '002005')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await fx.directory.departments.get('Imports')).value.employeeCount).toBe(1003);
});

it('answers 404 for an unknown department and 400 for more than 1,000 rows, writing nothing', async () => {
  await expect(fx.directory.employees.import('Nowhere', [employeeBody(1)])).rejects.toMatchObject({
    code: 'DepartmentNotFound',
  });
  const tooMany = Array.from({ length: 1001 }, (_, i) => employeeBody(5000 + i));
  await expect(fx.directory.employees.import('Imports', tooMany)).rejects.toMatchObject({
    code: 'TooManyRows',
  });
  await expect(fx.directory.employees.get('Imports', '005000')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
});

it('keeps the count exact when single creates run during an import', async () => {
  const other = fx.another();
  const rows = Array.from({ length: 300 }, (_, i) => employeeBody(3000 + i, { lastName: 'Same' }));
  const singles = Array.from({ length: 10 }, (_, i) =>
    other.employees.create('Imports', employeeBody(4000 + i, { lastName: 'Same' })),
  );
  const [imported] = await Promise.all([
    fx.directory.employees.import('Imports', rows),
    ...singles,
  ]);
  expect(imported).toEqual({ created: 300, failed: [] });
  expect((await fx.directory.departments.get('Imports')).value.employeeCount).toBe(1003 + 310);
  expect(
    (await fx.directory.employees.findByLastName('Imports', 'same', { pageSize: 1000 })).items,
  ).toHaveLength(310);
});

it('records every imported employee in the index outbox, one row per chunk, within 100 operations', async () => {
  const outboxed = createDirectoryFixture({ outbox: true });
  try {
    await outboxed.directory.departments.put('Imports', {});
    const sizes: number[] = [];
    outboxed.table.pipeline.addPolicy({
      name: 'batchSizes',
      async sendRequest(request, next) {
        if (/\/\$batch(\?|$)/.test(request.url) && typeof request.body === 'string') {
          sizes.push(request.body.split('\r\n').filter((line) => / HTTP\/1\.1$/.test(line)).length);
        }
        return next(request);
      },
    });
    // Long names and addresses: the chunk's change list must still fit its row.
    const rows = Array.from({ length: 1000 }, (_, i) =>
      employeeBody(i + 1, {
        lastName: `${'L'.repeat(190)}${i % 3}`,
        email: `${'e'.repeat(200)}${i + 1}@contoso.com`,
      }),
    );
    expect(await outboxed.directory.employees.import('Imports', rows)).toEqual({
      created: 1000,
      failed: [],
    });
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    const outbox = (await partitionEntities(outboxed.table, 'Imports'))
      .map((entity) => readOutboxRow(entity))
      .filter((row) => row !== undefined);
    expect(outbox.length).toBeGreaterThanOrEqual(sizes.length);
    const ids = outbox.flatMap((row) => row.changes.map((c) => c.employeeId)).sort();
    expect(ids).toEqual(rows.map((r) => r.employeeId));
  } finally {
    await outboxed.cleanup();
  }
});

it('reads no more per call as the department grows: only the last names the call brings', async () => {
  const growing = createDirectoryFixture({ outbox: true });
  try {
    await growing.directory.departments.put('Grows', {});
    const perCall: { requests: number; entities: number }[] = [];
    let current = { requests: 0, entities: 0 };
    growing.table.pipeline.addPolicy({
      name: 'entitiesRead',
      // Counted before the answer: a 404 comes back as an error thrown through this policy.
      async sendRequest(request, next) {
        current.requests++;
        const response = await next(request);
        if (request.method === 'GET' && response.status === 200 && response.bodyAsText) {
          const body = JSON.parse(response.bodyAsText) as { value?: unknown[] };
          current.entities += Array.isArray(body.value) ? body.value.length : 1;
        }
        return response;
      },
    });
    // Every fourth employee shares one name; the others have names of their own that interleave
    // with those of earlier calls (a permutation of the id), as real names do.
    const body = (n: number) =>
      employeeBody(n, {
        lastName: n % 4 === 0 ? 'Shared' : `Name${String((n * 48_271) % 999_983).padStart(6, '0')}`,
      });
    for (let call = 0; call < 5; call++) {
      current = { requests: 0, entities: 0 };
      const rows = Array.from({ length: 200 }, (_, i) => body(call * 200 + i + 1));
      expect(await growing.directory.employees.import('Grows', rows)).toEqual({
        created: 200,
        failed: [],
      });
      perCall.push(current);
    }
    // Each call reads the department with its count shards, and the index entity of each of its
    // names that exists already (only `Shared`): never the names of earlier calls.
    for (const { entities } of perCall) {
      expect(entities).toBeLessThanOrEqual(1 + DEPARTMENT_COUNT_SHARDS + 1);
    }
    expect(perCall[4]!.requests).toBeLessThanOrEqual(perCall[0]!.requests + 2);
  } finally {
    await growing.cleanup();
  }
});
