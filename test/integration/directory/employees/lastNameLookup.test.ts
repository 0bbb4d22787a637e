/**
 * `GET /employees?lastName=X&department=D` through the same-partition last-name index entity:
 * one read of the index entity, then one range read or a batch of point reads.
 */
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from '../fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Finance', {});
  // Dense ids (range read) and sparse ids (point reads) with one last name, in different cases.
  const rows = [
    ...Array.from({ length: 30 }, (_, i) =>
      employeeBody(100 + i, { lastName: i % 2 ? 'Smith' : 'SMITH' }),
    ),
    employeeBody(5000, { lastName: 'smith' }),
    employeeBody(900000, { lastName: 'Smith' }),
    employeeBody(7, { lastName: 'Smithson' }),
  ];
  expect((await fx.directory.employees.import('Finance', rows)).failed).toEqual([]);
});
afterAll(() => fx.cleanup());

it('finds every employee with that last name, case-insensitively, in id order', async () => {
  const page = await fx.directory.employees.findByLastName('Finance', 'smith', { pageSize: 1000 });
  expect(page.items.map((e) => e.employeeId)).toEqual([
    ...Array.from({ length: 30 }, (_, i) => String(100 + i).padStart(6, '0')),
    '005000',
    '900000',
  ]);
  expect(page.items[0]).toMatchObject({
    department: 'Finance',
    lastName: 'SMITH',
    email: 'user000100@contoso.com',
  });
  expect(page.continuationToken).toBeNull();
});

it('pages over the id list with a token bound to this last name', async () => {
  const first = await fx.directory.employees.findByLastName('Finance', 'Smith', {
    pageSize: 31,
    select: ['email'],
  });
  expect(first.items).toHaveLength(31);
  expect(first.items[0]).toEqual({
    department: 'Finance',
    employeeId: '000100',
    email: 'user000100@contoso.com',
  });
  const second = await fx.directory.employees.findByLastName('Finance', 'Smith', {
    pageSize: 31,
    continuationToken: first.continuationToken!,
  });
  expect(second.items.map((e) => e.employeeId)).toEqual(['900000']);
  await expect(
    fx.directory.employees.findByLastName('Finance', 'Smithson', {
      continuationToken: first.continuationToken!,
    }),
  ).rejects.toMatchObject({ code: 'InvalidContinuationToken' });
});

it('returns an empty list for an unknown last name, and 400 for a blank one', async () => {
  expect(await fx.directory.employees.findByLastName('Finance', 'Nobody')).toEqual({
    items: [],
    continuationToken: null,
  });
  await expect(fx.directory.employees.findByLastName('Finance', '   ')).rejects.toMatchObject({
    code: 'InvalidLastName',
  });
});
