/**
 * Departments: created or updated by PUT, read by one point read, listed from a listing partition
 * through a short-lived in-process cache, and carrying a copy of the manager's details that
 * follows the manager's changes.
 */
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
let clock = 0;
beforeAll(() => {
  fx = createDirectoryFixture({ departmentCacheTtlMs: 1_000, now: () => clock });
});
afterAll(() => fx.cleanup());

describe('PUT /departments/{dept}', () => {
  it('creates (created: true) and then updates (created: false) with a new ETag each time', async () => {
    const first = await fx.directory.departments.put('Research', { description: 'R&D' });
    expect(first).toMatchObject({
      created: true,
      value: { name: 'Research', description: 'R&D', employeeCount: 0, manager: null },
    });
    const second = await fx.directory.departments.put('Research', {
      description: 'Research & development',
    });
    expect(second.created).toBe(false);
    expect(second.etag).not.toBe(first.etag);
    expect((await fx.directory.departments.get('Research')).value.description).toBe(
      'Research & development',
    );
  });

  it('honours If-Match (412 when stale) and refuses bad names and bodies', async () => {
    const { etag } = await fx.directory.departments.get('Research');
    await fx.directory.departments.put('Research', { description: 'changed' });
    await expect(
      fx.directory.departments.put('Research', { description: 'x' }, { ifMatch: etag }),
    ).rejects.toMatchObject({
      kind: 'preconditionFailed',
    });
    await expect(fx.directory.departments.put('Bad/Name', {})).rejects.toMatchObject({
      code: 'InvalidDepartment',
    });
    await expect(fx.directory.departments.put('Research', { description: 7 })).rejects.toThrow(
      /body\.description/,
    );
  });

  it('answers 404 for a department that does not exist', async () => {
    await expect(fx.directory.departments.get('Nope')).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
  });
});

describe('GET /departments', () => {
  it('lists departments in name order from one partition, paged', async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma'])
      await fx.directory.departments.put(name, { description: name.toLowerCase() });
    const first = await fx.directory.departments.list({ pageSize: 2 });
    const asOf = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(first.items).toEqual([
      { name: 'Alpha', description: 'alpha', employeeCount: 0, countAsOf: asOf },
      { name: 'Beta', description: 'beta', employeeCount: 0, countAsOf: asOf },
    ]);
    expect(first.continuationToken).toEqual(expect.any(String));
    const rest = await fx.directory.departments.list({
      pageSize: 2,
      continuationToken: first.continuationToken!,
    });
    expect(rest.items.map((d) => d.name)).toEqual(['Gamma', 'Research']);
  });

  it('serves the cached list until the TTL passes, and drops it at once on a change in this process', async () => {
    const reader = fx.another({ departmentCacheTtlMs: 1_000, now: () => clock });
    const before = await reader.departments.list();
    await fx.directory.departments.put('Delta', {}); // another instance: the reader's cache does not know
    expect(await reader.departments.list()).toEqual(before);
    clock += 1_001;
    expect((await reader.departments.list()).items.map((d) => d.name)).toContain('Delta');
    await reader.departments.put('Epsilon', {});
    expect((await reader.departments.list()).items.map((d) => d.name)).toContain('Epsilon');
  });

  it('gives each department the count its listing carries: eventually consistent, while GET of the department is exact', async () => {
    await fx.directory.departments.put('Kappa', {});
    const before = await fx.directory.departments.list({ pageSize: 1000 });
    expect(before.items.find((d) => d.name === 'Kappa')).toEqual({
      name: 'Kappa',
      description: '',
      employeeCount: 0,
      countAsOf: expect.any(String),
    });
    // Another instance adds employees; no index drain runs here, so nothing refreshes the
    // listing's count (listedCounts.test.ts has the drains): the list keeps 0, GET is exact.
    const writer = fx.another({ departmentCacheTtlMs: 0 });
    for (const n of [1, 2, 3]) await writer.employees.create('Kappa', employeeBody(n));
    await writer.employees.delete('Kappa', '000002');
    const after = await fx
      .another({ departmentCacheTtlMs: 0 })
      .departments.list({ pageSize: 1000 });
    expect(after.items.find((d) => d.name === 'Kappa')?.employeeCount).toBe(0);
    expect((await fx.directory.departments.get('Kappa')).value.employeeCount).toBe(2);
  });

  it('refuses a continuation token of another query or a tampered one', async () => {
    await expect(
      fx.directory.departments.list({ continuationToken: 'garbage!' }),
    ).rejects.toMatchObject({
      code: 'InvalidContinuationToken',
    });
  });
});

describe('the manager copy (denormalization)', () => {
  beforeAll(async () => {
    await fx.directory.departments.put('Legal', {});
    await fx.directory.employees.create(
      'Legal',
      employeeBody(1, { firstName: 'Ann', lastName: 'Able', email: 'ann@legal.com' }),
    );
    await fx.directory.employees.create(
      'Legal',
      employeeBody(2, { firstName: 'Bob', lastName: 'Baker', email: 'bob@legal.com' }),
    );
  });

  it('copies the manager onto the department (one point read shows it)', async () => {
    const result = await fx.directory.departments.setManager('Legal', '000001');
    expect(result.value.manager).toEqual({
      employeeId: '000001',
      firstName: 'Ann',
      lastName: 'Able',
      email: 'ann@legal.com',
    });
    expect((await fx.directory.departments.get('Legal')).value).toMatchObject({
      employeeCount: 2,
      manager: { employeeId: '000001' },
    });
  });

  it('updates the copy in the same transaction when the manager is renamed or changes email', async () => {
    await fx.directory.employees.patch('Legal', '000001', {
      lastName: 'Ableton',
      email: 'ann.ableton@legal.com',
    });
    expect((await fx.directory.departments.get('Legal')).value.manager).toEqual({
      employeeId: '000001',
      firstName: 'Ann',
      lastName: 'Ableton',
      email: 'ann.ableton@legal.com',
    });
  });

  it('moves the manager flag to a new manager; the old one no longer updates the copy', async () => {
    await fx.directory.departments.setManager('Legal', '000002');
    await fx.directory.employees.patch('Legal', '000001', { firstName: 'Annie' });
    expect((await fx.directory.departments.get('Legal')).value.manager).toMatchObject({
      employeeId: '000002',
      firstName: 'Bob',
    });
    const rows = await partitionEntities(fx.table, 'Legal');
    expect(rows.find((r) => r.rowKey === 'empid_000001')).toMatchObject({ IsManager: false });
  });

  it("keeps both employees' data versions: an If-Match read before the flag moved still holds", async () => {
    // The flag is bookkeeping (as a review write is): the data a client saw did not change.
    // (Each ETag from a write of the data: the version a later bookkeeping write keeps.)
    const before = await Promise.all([
      fx.directory.employees.patch('Legal', '000001', { age: 30 }),
      fx.directory.employees.patch('Legal', '000002', { age: 31 }),
    ]);
    await fx.directory.departments.setManager('Legal', '000001');
    await fx.directory.departments.setManager('Legal', '000002');
    const rows = await partitionEntities(fx.table, 'Legal');
    expect(rows.find((r) => r.rowKey === 'empid_000001')).toMatchObject({ IsManager: false });
    expect(rows.find((r) => r.rowKey === 'empid_000002')).toMatchObject({ IsManager: true });
    await fx.directory.employees.patch(
      'Legal',
      '000001',
      { firstName: 'Ann' },
      { ifMatch: before[0].etag },
    );
    const patched = await fx.directory.employees.patch(
      'Legal',
      '000002',
      { firstName: 'Bobby' },
      { ifMatch: before[1].etag },
    );
    expect(patched.value.firstName).toBe('Bobby');
    expect((await fx.directory.departments.get('Legal')).value.manager).toMatchObject({
      employeeId: '000002',
      firstName: 'Bobby',
    });
  });

  it('clears the copy when the manager is deleted', async () => {
    await fx.directory.employees.delete('Legal', '000002');
    expect((await fx.directory.departments.get('Legal')).value).toMatchObject({
      employeeCount: 1,
      manager: null,
    });
  });

  it('answers 404 when the employee is not in the department', async () => {
    await expect(fx.directory.departments.setManager('Legal', '000999')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
    await expect(fx.directory.departments.setManager('Nope', '000001')).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
  });
});
