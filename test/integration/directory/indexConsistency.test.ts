/**
 * After any mix of writes, the same-partition indexes that storage holds are exactly what the
 * pure projection computes from the primary employee entities (what the index audit relies on).
 */
import {
  compareIndexes,
  createDirectoryFixture,
  employeeBody,
  type DirectoryFixture,
} from './fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Mixed', {});
});
afterAll(() => fx.cleanup());

it('matches the projection after creates, an import, renames, email changes, photo URLs and deletes', async () => {
  const d = fx.directory;
  for (let i = 1; i <= 10; i++)
    await d.employees.create('Mixed', employeeBody(i, { lastName: i % 2 ? 'Odd' : 'Even' }));
  await d.employees.import(
    'Mixed',
    Array.from({ length: 120 }, (_, i) => employeeBody(100 + i)),
  );
  await d.employees.patch('Mixed', '000001', { lastName: 'Renamed', email: 'renamed@x.com' });
  await d.employees.patch('Mixed', '000002', { firstName: 'Only', age: null });
  const photo = { photoUrl: 'https://photos.example/Mixed/000003/v1', photoProperties: {} };
  await d.employees.publish([(await d.employees.writePhoto('Mixed', '000003', photo)).change]);
  await d.departments.setManager('Mixed', '000004');
  await d.employees.patch('Mixed', '000004', { lastName: 'Boss' });
  await d.employees.delete('Mixed', '000005');
  await d.employees.delete('Mixed', '000104');
  const { stored, expected } = await compareIndexes(fx.table, 'Mixed');
  expect(stored).toEqual(expected);
  expect((await d.employees.getByEmail('Mixed', 'user000003@contoso.com')).value.photoUrl).toBe(
    'https://photos.example/Mixed/000003/v1',
  );
  expect((await d.departments.get('Mixed')).value).toMatchObject({
    employeeCount: 128,
    manager: { lastName: 'Boss' },
  });
});

it('writePhoto refuses a non-http URL and clears with null', async () => {
  const { employees } = fx.directory;
  await expect(
    employees.writePhoto('Mixed', '000003', {
      photoUrl: 'javascript:alert(1)',
      photoProperties: {},
    }),
  ).rejects.toMatchObject({ code: 'InvalidPhotoUrl' });
  const cleared = await employees.writePhoto('Mixed', '000003', {
    photoUrl: null,
    photoProperties: {},
  });
  expect(cleared.updated.value.photoUrl).toBeUndefined();
});
