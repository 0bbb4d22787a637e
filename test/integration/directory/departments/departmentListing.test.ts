/**
 * One true department list: the listing copy (`.departments` partition) is written after the
 * department, outside its transaction, so concurrent PUTs can land their copies in any order.
 * The listing carries the department version it copies and is replaced only by a newer copy, so
 * the last department write always wins in the listing.
 */
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { departmentListingEntity } from '../../../../src/directory/entities/departmentEntity';
import { syncDepartmentListing } from '../../../../src/directory/departments/departmentListing';
import { holdFirstRequest } from '../../../support/requestGate';
import { createDirectoryFixture, type DirectoryFixture } from '../fixture';

let fx: DirectoryFixture;
beforeEach(async () => {
  fx = createDirectoryFixture({ departmentCacheTtlMs: 0 });
  await fx.directory.departments.put('Ops', { description: 'v0' });
});
afterEach(() => fx.cleanup());

/** A write of the department's listing entity that copies `description`. */
function writesListing(description: string): (request: PipelineRequest) => boolean {
  return (request) => {
    const body = typeof request.body === 'string' ? request.body : '';
    return (
      request.method !== 'GET' &&
      (decodeURIComponent(request.url).includes(".departments'") ||
        body.includes('"PartitionKey":".departments"')) &&
      body.includes(`"Description":${JSON.stringify(description)}`)
    );
  };
}

async function listed(): Promise<string | undefined> {
  const page = await fx.another({ departmentCacheTtlMs: 0 }).departments.list();
  return page.items.find((d) => d.name === 'Ops')?.description;
}

it("two concurrent PUTs: the older one's listing write landing last does not win", async () => {
  // PUT "first" commits the department, then its listing write is held; PUT "second" commits the
  // department and its listing; then the held listing write goes on. The list must say "second".
  const gate = holdFirstRequest(fx.table, writesListing('first'));
  const first = fx.directory.departments.put('Ops', { description: 'first' });
  await gate.reached;
  const second = await fx.another().departments.put('Ops', { description: 'second' });
  gate.release();
  await first;

  expect(second.value.description).toBe('second');
  expect((await fx.directory.departments.get('Ops')).value.description).toBe('second');
  expect(await listed()).toBe('second');
});

it('a newer listing is never replaced by an older copy; an older or legacy one is', async () => {
  await fx.directory.departments.put('Ops', { description: 'v1' }); // ListingVersion 2
  expect(await syncDepartmentListing(fx.table, { name: 'Ops', description: 'v0' }, 1)).toBe(
    'newer',
  );
  expect(await syncDepartmentListing(fx.table, { name: 'Ops', description: 'v1' }, 2)).toBe(
    'current',
  );
  expect(await listed()).toBe('v1');
  // A listing written before listings carried versions: replaced by the department's copy.
  await fx.table.upsertEntity(
    departmentListingEntity({ name: 'Ops', description: 'legacy' }, 0),
    'Replace',
  );
  await fx.directory.departments.put('Ops', {}); // no change to the department: still re-lists
  expect(await listed()).toBe('v1');
});

it('10 concurrent PUTs leave the list agreeing with the department', async () => {
  await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      fx.another().departments.put('Ops', { description: `d${i}` }),
    ),
  );
  const department = await fx.directory.departments.get('Ops');
  expect(await listed()).toBe(department.value.description);
});
