/**
 * Optimistic concurrency on the shared entities of a department partition: the department entity
 * (count) and the last-name index entity are updated under their ETags and retried on conflict,
 * so concurrent writers never lose each other's changes; `If-Match` lets exactly one of several
 * writers of the same version win.
 */
import { PreconditionFailedError } from '../../../src/errors';
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from './fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Ops', {});
});
afterAll(() => fx.cleanup());

it('20 concurrent creates with the same last name: the index entity lists all 20 and the count is 20', async () => {
  // Each writer is its own directory instance (like separate function instances), with its own caches.
  const writers = Array.from({ length: 20 }, () => fx.another());
  await Promise.all(
    writers.map((writer, i) =>
      writer.employees.create('Ops', employeeBody(100 + i, { lastName: 'Jones' })),
    ),
  );
  const found = await fx.directory.employees.findByLastName('Ops', 'jones', { pageSize: 100 });
  expect(found.items.map((e) => e.employeeId)).toEqual(
    Array.from({ length: 20 }, (_, i) => String(100 + i).padStart(6, '0')),
  );
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(20);
});

it('20 concurrent PATCHes with the same If-Match: exactly one succeeds, the rest get 412', async () => {
  const { etag } = await fx.directory.employees.get('Ops', '000100');
  const writers = Array.from({ length: 20 }, () => fx.another());
  const outcomes = await Promise.allSettled(
    writers.map((writer, i) =>
      writer.employees.patch('Ops', '000100', { firstName: `Writer${i}` }, { ifMatch: etag }),
    ),
  );
  const won = outcomes.filter((o) => o.status === 'fulfilled');
  const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  expect(won).toHaveLength(1);
  expect(lost).toHaveLength(19);
  for (const o of lost) expect(o.reason).toBeInstanceOf(PreconditionFailedError);
  const winner = (won[0] as PromiseFulfilledResult<{ value: { firstName: string } }>).value.value
    .firstName;
  expect((await fx.directory.employees.get('Ops', '000100')).value.firstName).toBe(winner);
});

it('concurrent creates and deletes in one department keep the count and the index exact', async () => {
  const writers = Array.from({ length: 10 }, () => fx.another());
  await Promise.all([
    ...writers.map((w, i) =>
      w.employees.create('Ops', employeeBody(200 + i, { lastName: 'Jones' })),
    ),
    ...writers.map((w, i) => w.employees.delete('Ops', String(101 + i).padStart(6, '0'))),
  ]);
  const ids = (
    await fx.directory.employees.findByLastName('Ops', 'Jones', { pageSize: 100 })
  ).items.map((e) => e.employeeId);
  expect(ids).toHaveLength(20);
  expect(ids).toContain('000100');
  expect(ids).not.toContain('000101');
  expect(ids).toContain('000209');
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(20);
});

it('a writer with a stale cached department version recovers (412 → read again → retry)', async () => {
  const cachedWriter = fx.another();
  await cachedWriter.employees.create('Ops', employeeBody(300));
  // Another instance changes the department behind the first one's cache.
  await fx.another().employees.create('Ops', employeeBody(301));
  await cachedWriter.employees.create('Ops', employeeBody(302));
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(23);
});
