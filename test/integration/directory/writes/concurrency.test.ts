/**
 * Optimistic concurrency on the shared entities of a department partition: the department entity
 * (count) and the last-name index entity are updated under their ETags and retried on conflict,
 * so concurrent writers never lose each other's changes; `If-Match` lets exactly one of several
 * writers of the same version win.
 */
import type { TableClient } from '@azure/data-tables';
import type { LastNameIndex } from '../../../../src/directory/entities/partitionLastNameIndex';
import { PreconditionFailedError } from '../../../../src/domainErrors';
import { lastNameRowKey } from '../../../../src/storage/keys/tables/employees';
import { testClients } from '../../../support/storage';
import {
  compareIndexes,
  createDirectoryFixture,
  employeeBody,
  type DirectoryFixture,
} from '../fixture';
import { readEntity } from '../../../../src/storage/tables/entities';
import { readLastNameIndex } from '../../../../src/directory/entities';

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
  // The stored index entity itself: findByLastName drops ids whose employee is gone, so it
  // would pass with the deleted ids still listed.
  const ids = (await storedIndex('jones'))?.ids ?? [];
  expect(ids).toHaveLength(20);
  expect(ids).toContain('000100');
  expect(ids).not.toContain('000101');
  expect(ids).toContain('000209');
  const { stored, expected } = await compareIndexes(fx.table, 'Ops');
  expect(stored).toEqual(expected);
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(20);
});

it('a writer with a stale cached count shard recovers (412 → read again → retry)', async () => {
  const batches = countBatches();
  const cachedWriter = fx.another({ employees: batches.client });
  // Its first create reads the department with every count shard and caches all their versions.
  await cachedWriter.employees.create('Ops', employeeBody(300));
  // Another instance takes the shards in turn, one per create: after 16 creates every version the
  // first writer cached is stale, whichever shard it picks next.
  const other = fx.another();
  for (let n = 301; n <= 316; n++) await other.employees.create('Ops', employeeBody(n));
  batches.count = 0;
  await cachedWriter.employees.create('Ops', employeeBody(317));
  // Its transaction from the cached version was refused, and a later one committed.
  expect(batches.count).toBeGreaterThan(1);
  expect((await fx.directory.departments.get('Ops')).value.employeeCount).toBe(20 + 18);
  expect((await storedIndex('last2'))?.ids).toContain('000317');
});

/** The stored same-partition index entity of a last name in Ops. */
async function storedIndex(name: string): Promise<LastNameIndex | undefined> {
  const entity = await readEntity(fx.table, 'Ops', lastNameRowKey(name));
  return entity && readLastNameIndex(entity);
}

/** A client of the fixture's table that counts the entity group transactions it sends. */
function countBatches(): { client: TableClient; count: number } {
  const counter = { client: testClients().table(fx.table.tableName), count: 0 };
  counter.client.pipeline.addPolicy({
    name: 'countBatches',
    sendRequest(request, next) {
      if (/\/\$batch(\?|$)/.test(request.url)) counter.count++;
      return next(request);
    },
  });
  return counter;
}
