/**
 * Employees in a department partition: every write changes the employee, its email copy, the
 * department's count and the last-name index in one transaction; reads are point queries.
 */
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
} from '../../../../src/domainErrors';
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Sales', { description: 'Sells things' });
});
afterAll(() => fx.cleanup());

describe('creating an employee', () => {
  it('stores the employee, its email copy, the count and the last-name index together, and returns the ETag', async () => {
    const created = await fx.directory.employees.create('Sales', {
      employeeId: '000223',
      firstName: 'Jane',
      lastName: 'Jones',
      email: 'Jane.Jones@Contoso.com',
      age: 34,
    });
    expect(created.value).toEqual({
      department: 'Sales',
      employeeId: '000223',
      firstName: 'Jane',
      lastName: 'Jones',
      email: 'Jane.Jones@Contoso.com',
      age: 34,
    });
    const read = await fx.directory.employees.get('Sales', '000223');
    expect(read.etag).toBe(created.etag);

    const rows = await partitionEntities(fx.table, 'Sales');
    const byKey = new Map(rows.map((r) => [r.rowKey, r]));
    expect(byKey.get('empid_000223')).toMatchObject({
      EntityType: 'Employee.v1',
      Email: 'Jane.Jones@Contoso.com',
    });
    expect(byKey.get('email_jane.jones@contoso.com')).toMatchObject({
      EntityType: 'EmployeeEmail.v1',
      EmployeeId: '000223',
    });
    expect(byKey.get('lastname_jones')).toMatchObject({
      EntityType: 'LastNameIndex.v1',
      Ids00: '000223',
      Count: 1,
    });
    // The count lives in one randomly chosen shard; the department's own count stays the base.
    expect(byKey.get('department')).toMatchObject({
      EntityType: 'Department.v1',
      EmployeeCount: 0,
    });
    const shards = rows.filter((r) => String(r.rowKey).startsWith('department_count_'));
    expect(shards).toHaveLength(1);
    expect(shards[0]).toMatchObject({ EntityType: 'DepartmentCountShard.v1', Count: 1 });
    expect(fx.changes).toContainEqual({
      department: 'Sales',
      employeeId: '000223',
      reason: 'created',
    });
  });

  it('finds the employee by email in one point query, whatever the case of the address', async () => {
    const found = await fx.directory.employees.getByEmail('Sales', 'JANE.JONES@contoso.COM');
    expect(found.value.employeeId).toBe('000223');
  });

  it('refuses an id that exists (409 EmployeeExists) and changes nothing', async () => {
    const before = await fx.directory.departments.get('Sales');
    await expect(
      fx.directory.employees.create('Sales', employeeBody(223, { email: 'other@contoso.com' })),
    ).rejects.toMatchObject({ code: 'EmployeeExists' });
    await expect(
      fx.directory.employees.getByEmail('Sales', 'other@contoso.com'),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(
      before.value.employeeCount,
    );
  });

  it('refuses an email taken in the department, compared case-insensitively (409 EmailTaken)', async () => {
    const attempt = fx.directory.employees.create(
      'Sales',
      employeeBody(224, { email: 'jane.JONES@contoso.com' }),
    );
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    await expect(attempt).rejects.toMatchObject({ code: 'EmailTaken' });
    await expect(fx.directory.employees.get('Sales', '000224')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
  });

  it('answers 404 DepartmentNotFound for an unknown department and stores nothing', async () => {
    await expect(fx.directory.employees.create('Nowhere', employeeBody(1))).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
    expect(await partitionEntities(fx.table, 'Nowhere')).toEqual([]);
  });

  it('refuses invalid bodies before storage with a message naming the field', async () => {
    await expect(
      fx.directory.employees.create('Sales', employeeBody(5, { employeeId: '12' })),
    ).rejects.toThrow(/body\.employeeId/);
    await expect(
      fx.directory.employees.create('Sales', employeeBody(5, { email: 'no-at-sign' })),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      fx.directory.employees.create('Sales', employeeBody(5, { extra: 1 })),
    ).rejects.toThrow(/body\.extra: is not an accepted field/);
    await expect(fx.directory.employees.get('Sales', '000005')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('changing an employee', () => {
  beforeAll(async () => {
    await fx.directory.employees.create('Sales', {
      employeeId: '000300',
      firstName: 'Max',
      lastName: 'Miller',
      email: 'max@contoso.com',
    });
  });

  it('moves the email copy atomically: the old address is gone, the new one answers', async () => {
    const { etag } = await fx.directory.employees.get('Sales', '000300');
    const updated = await fx.directory.employees.patch(
      'Sales',
      '000300',
      { email: 'maximilian@contoso.com' },
      { ifMatch: etag },
    );
    expect(updated.value.email).toBe('maximilian@contoso.com');
    expect(updated.etag).not.toBe(etag);
    await expect(
      fx.directory.employees.getByEmail('Sales', 'max@contoso.com'),
    ).rejects.toMatchObject({ code: 'EmployeeNotFound' });
    expect(
      (await fx.directory.employees.getByEmail('Sales', 'maximilian@contoso.com')).value.employeeId,
    ).toBe('000300');
    expect(fx.changes).toContainEqual({
      department: 'Sales',
      employeeId: '000300',
      reason: 'updated',
      previous: { email: 'max@contoso.com' },
    });
  });

  it('moves the id between last-name index entities on a rename', async () => {
    await fx.directory.employees.patch('Sales', '000300', { lastName: 'Mueller' });
    expect((await fx.directory.employees.findByLastName('Sales', 'Miller')).items).toEqual([]);
    expect((await fx.directory.employees.findByLastName('Sales', 'mueller')).items).toMatchObject([
      { employeeId: '000300' },
    ]);
    const rows = await partitionEntities(fx.table, 'Sales');
    expect(rows.find((r) => r.rowKey === 'lastname_miller')).toBeUndefined();
  });

  it('answers 412 for a stale If-Match and leaves the employee as it was', async () => {
    const stale = (await fx.directory.employees.get('Sales', '000300')).etag;
    await fx.directory.employees.patch('Sales', '000300', { age: 41 });
    await expect(
      fx.directory.employees.patch('Sales', '000300', { firstName: 'Stale' }, { ifMatch: stale }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    expect((await fx.directory.employees.get('Sales', '000300')).value).toMatchObject({
      firstName: 'Max',
      age: 41,
    });
  });

  it('accepts the ETag of the email lookup as If-Match too', async () => {
    const viaEmail = await fx.directory.employees.getByEmail('Sales', 'maximilian@contoso.com');
    const updated = await fx.directory.employees.patch(
      'Sales',
      '000300',
      { age: null },
      { ifMatch: viaEmail.etag },
    );
    expect(updated.value.age).toBeNull();
    await expect(
      fx.directory.employees.patch('Sales', '000300', { age: 50 }, { ifMatch: viaEmail.etag }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
  });

  it("refuses to take another employee's email (409) and keeps both as they were", async () => {
    await expect(
      fx.directory.employees.patch('Sales', '000300', { email: 'Jane.Jones@contoso.com' }),
    ).rejects.toMatchObject({
      code: 'EmailTaken',
    });
    expect((await fx.directory.employees.get('Sales', '000300')).value.email).toBe(
      'maximilian@contoso.com',
    );
  });

  it('answers 404 for an employee that does not exist and 400 for an empty patch', async () => {
    await expect(fx.directory.employees.patch('Sales', '999999', { age: 3 })).rejects.toMatchObject(
      { code: 'EmployeeNotFound' },
    );
    await expect(fx.directory.employees.patch('Sales', '000300', {})).rejects.toThrow(
      /at least one/,
    );
  });
});

describe('deleting an employee', () => {
  it('removes the employee, its email copy and index entry and decrements the count in one go', async () => {
    await fx.directory.employees.create(
      'Sales',
      employeeBody(400, { lastName: 'Gone', email: 'gone@contoso.com' }),
    );
    const before = (await fx.directory.departments.get('Sales')).value.employeeCount;
    const outcome = await fx.directory.employees.delete('Sales', '000400');
    expect(outcome.deleted).toBe(true);
    expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(before - 1);
    await expect(fx.directory.employees.get('Sales', '000400')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      fx.directory.employees.getByEmail('Sales', 'gone@contoso.com'),
    ).rejects.toBeInstanceOf(NotFoundError);
    const rows = await partitionEntities(fx.table, 'Sales');
    expect(rows.find((r) => r.rowKey === 'lastname_gone')).toBeUndefined();
    expect(fx.changes).toContainEqual({
      department: 'Sales',
      employeeId: '000400',
      reason: 'deleted',
      previous: { email: 'gone@contoso.com', lastName: 'Gone' },
    });
  });

  it('answers 404 for an absent employee, or nothing at all with mustExist: false (idempotent)', async () => {
    await expect(fx.directory.employees.delete('Sales', '000400')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
    await expect(
      fx.directory.employees.delete('Sales', '000400', { mustExist: false }),
    ).resolves.toEqual({ deleted: false });
  });

  it('keeps the other ids of a shared last name in its index entity', async () => {
    await fx.directory.employees.create(
      'Sales',
      employeeBody(401, { lastName: 'Twin', email: 'a@twins.com' }),
    );
    await fx.directory.employees.create(
      'Sales',
      employeeBody(402, { lastName: 'twin', email: 'b@twins.com' }),
    );
    await fx.directory.employees.delete('Sales', '000401');
    expect((await fx.directory.employees.findByLastName('Sales', 'TWIN')).items).toMatchObject([
      { employeeId: '000402' },
    ]);
  });

  it('refuses a stale If-Match (412) and deletes nothing', async () => {
    const { etag } = await fx.directory.employees.get('Sales', '000402');
    await fx.directory.employees.patch('Sales', '000402', { firstName: 'Changed' });
    await expect(
      fx.directory.employees.delete('Sales', '000402', { ifMatch: etag }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(fx.directory.employees.get('Sales', '000402')).resolves.toBeDefined();
  });
});
