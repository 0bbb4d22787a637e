/**
 * Reviews under a compound key `review_<id>_<year>`: every review of one employee is one range
 * query, ordered by year.
 */
import { departmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from '../fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('HR', {});
  await fx.directory.employees.create('HR', employeeBody(10));
  await fx.directory.employees.create('HR', employeeBody(11));
});
afterAll(() => fx.cleanup());

it("stores reviews by year and lists one employee's reviews in year order", async () => {
  for (const year of [2024, 2019, 2022]) {
    const put = await fx.directory.reviews.put('HR', '000010', year, {
      managerRating: 4,
      peerRating: 3.5,
      comments: `Year ${year}`,
    });
    expect(put.etag).toEqual(expect.any(String));
  }
  await fx.directory.reviews.put('HR', '000011', 2020, { managerRating: 1, peerRating: 1 });
  const { items } = await fx.directory.reviews.list('HR', '000010');
  expect(items).toEqual([
    { year: 2019, managerRating: 4, peerRating: 3.5, comments: 'Year 2019' },
    { year: 2022, managerRating: 4, peerRating: 3.5, comments: 'Year 2022' },
    { year: 2024, managerRating: 4, peerRating: 3.5, comments: 'Year 2024' },
  ]);
});

it('replaces a year on PUT, honours If-Match, and projects with select', async () => {
  const first = await fx.directory.reviews.put('HR', '000011', 2021, {
    managerRating: 2,
    peerRating: 2,
  });
  await fx.directory.reviews.put('HR', '000011', 2021, {
    managerRating: 5,
    peerRating: 5,
    comments: 'better',
  });
  await expect(
    fx.directory.reviews.put(
      'HR',
      '000011',
      2021,
      { managerRating: 0, peerRating: 0 },
      { ifMatch: first.etag },
    ),
  ).rejects.toMatchObject({ kind: 'preconditionFailed' });
  expect((await fx.directory.reviews.list('HR', '000011', ['comments'])).items).toEqual([
    { year: 2020, comments: '' },
    { year: 2021, comments: 'better' },
  ]);
});

it('answers 404 for an employee that does not exist and 400 for bad input', async () => {
  await expect(
    fx.directory.reviews.put('HR', '000099', 2020, { managerRating: 1, peerRating: 1 }),
  ).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  await expect(fx.directory.reviews.list('HR', '000099')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  await expect(
    fx.directory.reviews.put('HR', '000010', 2020, { managerRating: 11, peerRating: 1 }),
  ).rejects.toThrow(/body\.managerRating/);
  await expect(
    fx.directory.reviews.put('HR', '000010', 1800, { managerRating: 1, peerRating: 1 }),
  ).rejects.toMatchObject({
    code: 'InvalidYear',
  });
  await expect(fx.directory.reviews.list('HR', '000010', ['salary'])).rejects.toMatchObject({
    code: 'InvalidSelect',
  });
});

it('an employee with no reviews gets an empty list; deleting the employee removes its reviews', async () => {
  await fx.directory.employees.create('HR', employeeBody(12));
  expect((await fx.directory.reviews.list('HR', '000012')).items).toEqual([]);
  await fx.directory.employees.delete('HR', '000010');
  await fx.directory.employees.create('HR', employeeBody(10));
  expect((await fx.directory.reviews.list('HR', '000010')).items).toEqual([]);
});

it('a replayed delete-if-exists purges the reviews an interrupted delete left; a reused id starts clean', async () => {
  let failPublish = true;
  await fx.directory.employees.create('HR', employeeBody(13));
  await fx.directory.reviews.put('HR', '000013', 2023, { managerRating: 3, peerRating: 3 });
  await fx.directory.reviews.put('HR', '000013', 2024, { managerRating: 4, peerRating: 4 });
  const crashing = fx.another({
    changes: {
      publish: async () => {
        if (failPublish) throw new Error('crash after the commit, before the change message');
      },
    },
  });
  await expect(crashing.employees.delete('HR', '000013', { mustExist: false })).rejects.toThrow(
    'crash',
  );
  failPublish = false;

  // The queue worker's redelivery: the employee is gone, only its reviews are left.
  expect(await crashing.employees.delete('HR', '000013', { mustExist: false })).toEqual({
    deleted: false,
  });
  const left = (await partitionEntities(fx.table, departmentPartitionKey('HR')))
    .map((e) => String(e.rowKey))
    .filter((rowKey) => rowKey.includes('000013'));
  expect(left).toEqual([]);
  await fx.directory.employees.create('HR', employeeBody(13));
  expect((await fx.directory.reviews.list('HR', '000013')).items).toEqual([]);
});

it('pages through many reviews by year with the continuation token', async () => {
  await fx.directory.employees.create('HR', employeeBody(42));
  for (let year = 1990; year < 2015; year++) {
    await fx.directory.reviews.put('HR', '000042', year, { managerRating: 3, peerRating: 3 });
  }
  const years: unknown[] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  do {
    const page = await fx.directory.reviews.list('HR', '000042', ['managerRating'], {
      pageSize: 10,
      continuationToken: token,
    });
    years.push(...page.items.map((r) => r.year));
    sizes.push(page.items.length);
    token = page.continuationToken ?? undefined;
  } while (token);
  expect(sizes).toEqual([10, 10, 5]);
  expect(years).toEqual(Array.from({ length: 25 }, (_, i) => 1990 + i));
  const first = await fx.directory.reviews.list('HR', '000042', undefined, { pageSize: 10 });
  await expect(
    fx.directory.reviews.list('HR', '000010', undefined, {
      continuationToken: first.continuationToken!,
    }),
  ).rejects.toMatchObject({ code: 'InvalidContinuationToken' });
});
