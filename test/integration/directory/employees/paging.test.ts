/**
 * Partition-scoped range queries: by id range, email range and email prefix, paged with opaque
 * tokens bound to their query, with server-side projection for `select`.
 */
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from '../fixture';

let fx: DirectoryFixture;
// Paging is the same at any size: 250 employees in pages of 100 cross pages as 2,500 in pages of
// the largest size (1,000; larger ones are refused) would.
const TOTAL = 250;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Big', {});
  const rows = Array.from({ length: TOTAL }, (_, i) => employeeBody(i + 1));
  const result = await fx.directory.employees.import('Big', rows);
  expect(result.failed).toEqual([]);
});
afterAll(() => fx.cleanup());

it('pages through 250 employees with pageSize=100, every employee exactly once, in id order', async () => {
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await fx.directory.employees.list(
      'Big',
      {},
      { pageSize: 100, continuationToken: token },
    );
    expect(page.items.length).toBeLessThanOrEqual(100);
    seen.push(...page.items.map((e) => String(e.employeeId)));
    token = page.continuationToken ?? undefined;
    pages++;
  } while (token);
  expect(pages).toBeGreaterThanOrEqual(3);
  expect(seen).toHaveLength(TOTAL);
  expect(new Set(seen).size).toBe(TOTAL);
  expect([...seen].sort()).toEqual(seen);
});

it('returns an inclusive id range in order, and only the selected fields plus the keys', async () => {
  const page = await fx.directory.employees.list(
    'Big',
    { fromId: '000100', toId: '000199' },
    { select: ['lastName'] },
  );
  expect(page.items).toHaveLength(100);
  expect(page.items[0]).toEqual({ department: 'Big', employeeId: '000100', lastName: 'Last2' });
  expect(page.items[99]).toMatchObject({ employeeId: '000199' });
  expect(page.continuationToken).toBeNull();
});

it('returns an email range [from, to) ordered by email, case-insensitively', async () => {
  const page = await fx.directory.employees.list(
    'Big',
    { emailFrom: 'USER000010@', emailTo: 'user000013@' },
    { pageSize: 10 },
  );
  expect(page.items.map((e) => e.email)).toEqual([
    'user000010@contoso.com',
    'user000011@contoso.com',
    'user000012@contoso.com',
  ]);
});

it('returns the employees whose email starts with a prefix', async () => {
  const page = await fx.directory.employees.list(
    'Big',
    { emailPrefix: 'user00024' },
    { pageSize: 100 },
  );
  expect(page.items.map((e) => e.employeeId)).toEqual(
    Array.from({ length: 10 }, (_, i) => String(240 + i).padStart(6, '0')),
  );
});

it('refuses tokens that are tampered, from another query, or pointing outside the range (400)', async () => {
  const first = await fx.directory.employees.list(
    'Big',
    { fromId: '000001', toId: '000500' },
    { pageSize: 10 },
  );
  const token = first.continuationToken!;
  const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
  await expect(
    fx.directory.employees.list(
      'Big',
      { fromId: '000001', toId: '000500' },
      { continuationToken: tampered },
    ),
  ).rejects.toMatchObject({ code: 'InvalidContinuationToken' });
  await expect(
    fx.directory.employees.list(
      'Big',
      { fromId: '000001', toId: '000900' },
      { continuationToken: token },
    ),
  ).rejects.toMatchObject({ code: 'InvalidContinuationToken' });
  await expect(
    fx.directory.employees.list(
      'Other',
      { fromId: '000001', toId: '000500' },
      { continuationToken: token },
    ),
  ).rejects.toMatchObject({
    code: 'InvalidContinuationToken',
  });
  const next = await fx.directory.employees.list(
    'Big',
    { fromId: '000001', toId: '000500' },
    { pageSize: 10, continuationToken: token },
  );
  expect(next.items[0]).toMatchObject({ employeeId: '000011' });
});

it('refuses bad ranges, page sizes and select fields', async () => {
  await expect(
    fx.directory.employees.list('Big', { fromId: '000200', toId: '000100' }),
  ).rejects.toMatchObject({ code: 'InvalidRange' });
  await expect(fx.directory.employees.list('Big', { fromId: '1' })).rejects.toMatchObject({
    code: 'InvalidEmployeeId',
  });
  await expect(
    fx.directory.employees.list('Big', { fromId: '000001', emailFrom: 'a' }),
  ).rejects.toMatchObject({ code: 'InvalidRange' });
  await expect(fx.directory.employees.list('Big', {}, { pageSize: 1001 })).rejects.toMatchObject({
    code: 'InvalidPageSize',
  });
  await expect(fx.directory.employees.list('Big', {}, { pageSize: 0 })).rejects.toMatchObject({
    code: 'InvalidPageSize',
  });
  await expect(
    fx.directory.employees.list('Big', {}, { select: ['salary'] }),
  ).rejects.toMatchObject({ code: 'InvalidSelect' });
});

it('lists primary entities page by page for workers (archive, audit)', async () => {
  const page = await fx.directory.employees.listEntities('Big', { pageSize: 5 });
  expect(page.entities.map((e) => e.rowKey)).toEqual([
    'empid_000001',
    'empid_000002',
    'empid_000003',
    'empid_000004',
    'empid_000005',
  ]);
  expect(page.continuationToken).toEqual(expect.any(String));
});
