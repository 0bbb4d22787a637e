/**
 * Organisation-wide last-name lookup paging: a client walks every match page by page with the
 * opaque continuation token, in both last-name index modes; tokens are bound to the lookup.
 */
import { findEmployeesAcrossOrganisation } from '../../../../src/indexing/employeeIndex/indexQueries';
import { ValidationError } from '../../../../src/domainErrors';
import { createIndexingFixture, type IndexingFixture } from '../fixture';

const row = (n: number, lastName: string) => ({
  employeeId: String(n).padStart(6, '0'),
  firstName: `F${n}`,
  lastName,
  email: `u${n}@contoso.com`,
});

describe.each(['entity', 'blob'] as const)('org-wide last-name paging, %s index', (mode) => {
  let fx: IndexingFixture;
  beforeAll(async () => {
    fx = createIndexingFixture({ mode });
    // 105 Joneses over two departments (written in mixed case; a few more than the default page
    // of 100), 30 Smiths in between.
    await fx.directory.departments.put('Sales', {});
    await fx.directory.departments.put('R and D', {});
    await fx.directory.employees.import(
      'Sales',
      Array.from({ length: 60 }, (_, i) => row(i + 1, i % 2 ? 'Jones' : 'JONES')),
    );
    await fx.directory.employees.import('R and D', [
      ...Array.from({ length: 45 }, (_, i) => row(i + 1, 'jones')),
      ...Array.from({ length: 30 }, (_, i) => row(i + 500, 'Smith')),
    ]);
    await fx.drain();
  });
  afterAll(() => fx.cleanup());

  const lookup = (
    lastName: string,
    options?: Parameters<typeof findEmployeesAcrossOrganisation>[3],
  ) => findEmployeesAcrossOrganisation(fx.stores.employees, fx.stores.lastNames, lastName, options);

  const key = (e: Record<string, unknown>) => `${String(e.department)}/${String(e.employeeId)}`;

  it('pages through all 105 matches, 40 at a time, in department and id order', async () => {
    const pages: Record<string, unknown>[][] = [];
    let token: string | undefined;
    do {
      const page = await lookup('jones', { pageSize: 40, continuationToken: token });
      pages.push(page.items);
      token = page.continuationToken ?? undefined;
    } while (token);

    expect(pages.map((p) => p.length)).toEqual([40, 40, 25]);
    const keys = pages.flat().map(key);
    expect(new Set(keys).size).toBe(105);
    expect(keys).toEqual([...keys].sort());
    expect(keys[0]).toBe('R and D/000001');
    expect(keys[104]).toBe('Sales/000060');
    expect(pages.flat().every((e) => String(e.lastName).toLowerCase() === 'jones')).toBe(true);
  });

  it('returns 100 by default and the whole list with pageSize 1000', async () => {
    const first = await lookup('Jones');
    expect(first.items).toHaveLength(100);
    expect(first.continuationToken).toEqual(expect.any(String));
    const all = await lookup('Jones', { pageSize: 1000 });
    expect(all.items).toHaveLength(105);
    expect(all.continuationToken).toBeNull();
  });

  it('projects the selected fields, keeping the keys', async () => {
    const page = await lookup('smith', { pageSize: 5, select: ['firstName'] });
    expect(page.items[0]).toEqual({
      department: 'R and D',
      employeeId: '000500',
      firstName: 'F500',
    });
    await expect(lookup('smith', { select: ['salary'] })).rejects.toThrow(ValidationError);
  });

  it('fills a page past members whose last name changed since they were indexed', async () => {
    // Renamed, but the index has not caught up yet: the stale members are skipped, not returned.
    for (const id of ['000001', '000002', '000003'])
      await fx.directory.employees.patch('R and D', id, { lastName: 'Brown' });
    const page = await lookup('jones', { pageSize: 10 });
    expect(page.items.map(key)).toEqual(
      Array.from({ length: 10 }, (_, i) => `R and D/${String(i + 4).padStart(6, '0')}`),
    );
    await fx.drain();
    expect((await lookup('jones', { pageSize: 1000 })).items).toHaveLength(102);
  });

  it('refuses a token of another lookup, a tampered token and a bad page size', async () => {
    const jones = await lookup('jones', { pageSize: 10 });
    await expect(lookup('smith', { continuationToken: jones.continuationToken! })).rejects.toThrow(
      ValidationError,
    );
    await expect(lookup('jones', { continuationToken: 'not-a-token' })).rejects.toThrow(
      ValidationError,
    );
    await expect(lookup('jones', { pageSize: 0 })).rejects.toThrow(ValidationError);
    await expect(lookup('jones', { pageSize: 1001 })).rejects.toThrow(ValidationError);
  });
});
