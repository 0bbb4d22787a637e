/**
 * The paged index audit at size on real Azurite: a department of 2,500 employees audited in pages
 * of 300 (9 forward pages, then the reverse passes), with drift injected at the first, middle and
 * last pages — missing entries, a deleted primary whose every index entry is now an orphan, an
 * orphan by-id entry past the last employee. Each drift is found once, repaired once, and gone on
 * the next audit.
 */
import { reconcileEmployeeIndexes } from '../../../src/indexing/indexMaintenance';
import {
  auditDepartmentPageActivity,
  FIRST_AUDIT_STEP,
  type DepartmentAuditStep,
} from '../../../src/orchestrations/audit/auditActivities';
import {
  mergeByIndex,
  totalOf,
  type CountsByIndex,
} from '../../../src/orchestrations/audit/auditCounts';
import { mapBounded } from '../../../src/storage/parallel';
import { auditIndexesInProcess } from '../../support/indexAudit';
import { createWorld, people, seed, type TestWorld } from './support';

const SIZE = 2_500;
const PAGE_SIZE = 300;
let world: TestWorld;

beforeAll(async () => {
  world = await createWorld();
  await seed(world.directory, 'Big', people(SIZE));
  await mapBounded(people(SIZE), 16, ({ employeeId }) =>
    reconcileEmployeeIndexes(world.services.indexStores, { department: 'Big', employeeId }),
  );
}, 240_000);
afterAll(async () => {
  await world.cleanup();
});

function audit(repair: boolean): Promise<CountsByIndex> {
  return auditIndexesInProcess(world.services, { repair, pageSize: PAGE_SIZE });
}

it('pages through the department: 9 forward pages, each of at most 300 employees', async () => {
  const passes: string[] = [];
  const counts: CountsByIndex[] = [];
  let step: DepartmentAuditStep | null = FIRST_AUDIT_STEP;
  while (step) {
    passes.push(step.pass);
    const page = await auditDepartmentPageActivity(world.services, {
      department: 'Big',
      repair: false,
      step,
      pageSize: PAGE_SIZE,
    });
    counts.push(page.counts);
    if (step.pass === 'employees')
      expect(page.counts.emailCopies!.checked).toBeLessThanOrEqual(300);
    step = page.next;
  }
  expect(passes.filter((p) => p === 'employees')).toHaveLength(9);
  expect(passes.filter((p) => p === 'emailCopies')).toHaveLength(9);
  expect(passes.at(-1)).toBe('listing');
  expect(totalOf(mergeByIndex(...counts))).toMatchObject({ missing: 0, stale: 0 });
}, 120_000);

it('finds drift on every page once, repairs it once, and finds none after', async () => {
  const { employees, index } = world;
  for (const id of ['000001', '000301', '002500']) {
    await employees.deleteEntity('Big', `email_p${id}@contoso.com`);
  }
  await index.deleteEntity('empid_Big', '001000');
  // A primary deleted behind the directory's back: its copy, entries and memberships are orphans.
  await employees.deleteEntity('Big', 'empid_001234');
  const last = await index.getEntity<Record<string, unknown>>('empid_Big', '002500');
  await index.createEntity({
    ...last,
    partitionKey: 'empid_Big',
    rowKey: '002600',
    etag: undefined,
  });

  const found = await audit(false);
  expect(found).toEqual({
    emailCopies: { checked: 2_500, missing: 3, stale: 1, repaired: 0 },
    lastNameEntities: { checked: 2_500, missing: 0, stale: 1, repaired: 0 },
    employeeIndexById: { checked: 2_501, missing: 1, stale: 2, repaired: 0 },
    employeeIndexByEmail: { checked: 2_500, missing: 0, stale: 1, repaired: 0 },
    orgLastNames: { checked: 2_500, missing: 0, stale: 1, repaired: 0 },
    departmentListing: { checked: 1, missing: 0, stale: 0, repaired: 0 },
    managerCopy: { checked: 0, missing: 0, stale: 0, repaired: 0 },
    orphanReviews: { checked: 0, missing: 0, stale: 0, repaired: 0 },
  });

  const repaired = await audit(true);
  // The by-id orphan's repair (the indexing reconcile of 001234) also drops its org-wide
  // membership, so the org-wide audit that follows finds nothing left: 9 repairs for 10 drifts.
  expect(repaired.orgLastNames).toEqual({ checked: 2_499, missing: 0, stale: 0, repaired: 0 });
  expect(totalOf(repaired)).toEqual({ checked: 12_501, missing: 4, stale: 5, repaired: 9 });
  const after = await audit(true);
  expect(totalOf(after)).toEqual({ checked: 2_499 * 5 + 1, missing: 0, stale: 0, repaired: 0 });
  expect(
    (await world.directory.employees.getByEmail('Big', 'p002500@contoso.com')).value,
  ).toMatchObject({ employeeId: '002500' });
}, 240_000);
