/**
 * The index audit against real Azurite: after every employee's indexes are built, the audit
 * finds nothing; drift injected on purpose into each index (a deleted entity, a stale one, a
 * changed one, an orphan) is counted per index without `repair` and with nothing written, then
 * fixed with `repair`, after which a new audit finds nothing — and running the repair twice is
 * harmless.
 */
import { departmentListingEntity } from '../../../src/directory/entities/departmentEntity';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../../src/storage/keys/tables/employees';
import { lastNameIndexEntity } from '../../../src/directory/entities/partitionLastNameIndex';
import { reconcileEmployeeIndexes } from '../../../src/indexing/employeeIndex/indexMaintenance';
import { totalOf, type CountsByIndex } from '../../../src/orchestrations/audit/auditCounts';
import { auditIndexesInProcess } from '../../support/indexAudit';
import { createWorld, people, seed, type TestWorld } from './support';

let world: TestWorld;

beforeAll(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', people(12));
  await seed(world.directory, 'Marketing', people(5, 100));
  for (const [department, list] of [
    ['Sales', people(12)],
    ['Marketing', people(5, 100)],
  ] as const) {
    for (const { employeeId } of list) {
      await reconcileEmployeeIndexes(world.services.indexStores, { department, employeeId });
    }
  }
});
afterAll(async () => {
  await world.cleanup();
});

/** Runs the audit's activities as the orchestrator does. */
function audit(repair: boolean): Promise<CountsByIndex> {
  return auditIndexesInProcess(world.services, { repair });
}

async function indexSnapshot(): Promise<Map<string, unknown>> {
  const all = new Map<string, unknown>();
  for await (const e of world.index.listEntities<Record<string, unknown>>()) {
    all.set(`${e.partitionKey}/${e.rowKey}`, e.etag);
  }
  return all;
}

it('finds nothing when every index matches the primaries', async () => {
  const report = await audit(false);
  expect(totalOf(report)).toEqual({
    checked: expect.any(Number),
    missing: 0,
    stale: 0,
    repaired: 0,
  });
  // 17 email copies, 17 same-partition last-name memberships, 17 + 17 EmployeeIndex entries, 17
  // org-wide memberships, 2 department listings.
  expect(totalOf(report).checked).toBe(17 + 17 + 17 + 17 + 17 + 2);
});

it('counts injected drift per index, writes nothing without repair, and repairs it', async () => {
  const { employees, index } = world;
  const lastNames = world.services.indexStores.lastNames;
  // Same partition: an email copy deleted, a stale index entity added, one index entity changed.
  await employees.deleteEntity('Sales', 'email_p000003@contoso.com');
  await employees.createEntity(
    lastNameIndexEntity('Sales', { lastName: 'ghost', ids: ['000777'] }),
  );
  await employees.updateEntity(
    lastNameIndexEntity('Marketing', { lastName: 'jones', ids: ['000100', '000555'] }),
    'Replace',
  );
  // EmployeeIndex: a by-email entry deleted, a by-id entry's data changed, an orphan by-id entry.
  await index.deleteEntity('email_Sales', 'p000004@contoso.com');
  await index.updateEntity(
    { partitionKey: 'empid_Sales', rowKey: '000005', FirstName: 'Mallory' },
    'Merge',
  );
  const orphan = await index.getEntity<Record<string, unknown>>('empid_Marketing', '000100');
  await index.createEntity({
    ...orphan,
    partitionKey: 'empid_Marketing',
    rowKey: '000199',
    etag: undefined,
  });
  // Reviews: one listed by its employee, and an orphan (of no employee) left by older code.
  await world.directory.reviews.put('Sales', '000001', 2024, { managerRating: 5, peerRating: 5 });
  await employees.createEntity({
    partitionKey: 'Sales',
    rowKey: 'review_000777_2020',
    EntityType: 'Review.v1',
    EmployeeId: '000777',
    Year: 2020,
  });
  // The department list: Marketing's listing copies an older description.
  await employees.upsertEntity(
    departmentListingEntity({ name: 'Marketing', description: 'an older description' }, 0),
    'Replace',
  );
  // Org-wide last names: a member removed, an orphan member added.
  await lastNames.remove('smith', { department: 'Sales', employeeId: '000002' });
  await lastNames.add('ghost', { department: 'Sales', employeeId: '000777' });

  const employeesBefore = await world.snapshot();
  const indexBefore = await indexSnapshot();
  const found = await audit(false);
  expect(found).toEqual({
    emailCopies: { checked: 17, missing: 1, stale: 0, repaired: 0 },
    // Memberships: 17 employees (000104 missing from the replaced Jones entity), then the ids
    // no employee backs (000777 under "ghost", 000555 under Jones).
    lastNameEntities: { checked: 19, missing: 1, stale: 2, repaired: 0 },
    employeeIndexById: { checked: 18, missing: 0, stale: 2, repaired: 0 },
    employeeIndexByEmail: { checked: 17, missing: 1, stale: 0, repaired: 0 },
    orgLastNames: { checked: 18, missing: 1, stale: 1, repaired: 0 },
    departmentListing: { checked: 2, missing: 0, stale: 1, repaired: 0 },
    managerCopy: { checked: 0, missing: 0, stale: 0, repaired: 0 },
    orphanReviews: { checked: 2, missing: 0, stale: 1, repaired: 0 },
  });
  expect(await world.snapshot()).toEqual(employeesBefore);
  expect(await indexSnapshot()).toEqual(indexBefore);

  const repaired = await audit(true);
  expect(totalOf(repaired)).toEqual({ checked: 93, missing: 4, stale: 7, repaired: 11 });

  const after = await audit(false);
  expect(totalOf(after)).toEqual({ checked: 88, missing: 0, stale: 0, repaired: 0 });
  expect((await world.directory.reviews.list('Sales', '000001')).items).toHaveLength(1);
  const marketing = await world.directory.departments.get('Marketing');
  expect(
    (await world.directory.departments.list()).items.find((d) => d.name === 'Marketing'),
  ).toEqual({
    name: 'Marketing',
    description: marketing.value.description,
    employeeCount: expect.any(Number),
    countAsOf: expect.any(String),
  });
  expect(
    (await world.directory.employees.getByEmail('Sales', 'p000003@contoso.com')).value,
  ).toMatchObject({ employeeId: '000003' });
  expect(await lastNames.members('smith')).toContainEqual({
    department: 'Sales',
    employeeId: '000002',
  });
  expect(await lastNames.members('ghost')).toEqual([]);
  expect((await index.getEntity('empid_Sales', '000005')).FirstName).toBe('Pat');

  // Repairing a clean state again changes nothing.
  const beforeAgain = await world.snapshot();
  expect(totalOf(await audit(true))).toMatchObject({ missing: 0, stale: 0, repaired: 0 });
  expect(await world.snapshot()).toEqual(beforeAgain);
});

it('audits a department missing from the listing, and lists it again', async () => {
  // Marketing's creating PUT failed between the department entity and its listing.
  await world.employees.deleteEntity(
    DEPARTMENT_LIST_PARTITION_KEY,
    departmentListRowKey('Marketing'),
  );
  expect((await world.directory.departments.list()).items.map((d) => d.name)).toEqual(['Sales']);

  const found = await audit(false);
  expect(found.departmentListing).toEqual({ checked: 2, missing: 1, stale: 0, repaired: 0 });
  // Its employees were audited too: 5 email copies of Marketing among the 17.
  expect(found.emailCopies).toMatchObject({ checked: 17 });

  expect((await audit(true)).departmentListing).toMatchObject({ missing: 1, repaired: 1 });
  expect((await world.directory.departments.list()).items.map((d) => d.name)).toEqual([
    'Marketing',
    'Sales',
  ]);
  expect(totalOf(await audit(false))).toMatchObject({ missing: 0, stale: 0 });
});
