/**
 * The paged index audit across many pages, on real Azurite: a department of 25 employees audited
 * in pages of 3 (9 forward pages, then the reverse passes), with drift injected at the first,
 * second and last pages — missing entries, a deleted primary whose every index entry is now an
 * orphan, an orphan by-id entry past the last employee. Each drift is found once, repaired once,
 * and gone on the next audit, and each page's requests are bounded by the page size, not by the
 * department.
 *
 * The paging is the same at any size, so the page size is lowered (the audit's own `pageSize`
 * input, which `POST /maintenance/indexes/audit` takes too) rather than the department raised to
 * thousands: the audit of real-size departments (1,000 to 20,000 employees, pages of 1,000) is the
 * bench's scale case (`bench/cases/scale.ts`), which also checks that it finds a freshly imported
 * department clean.
 */
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { reconcileEmployeeIndexes } from '../../../src/indexing/employeeIndex/indexMaintenance';
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

const SIZE = 25;
const PAGE_SIZE = 3;
/** Forward pages: ⌈25 / 3⌉. */
const PAGES = 9;
let world: TestWorld;
/** Requests to the two tables (the entity last-name store lives in the index table). */
let requests = 0;

beforeAll(async () => {
  world = await createWorld();
  await seed(world.directory, 'Big', people(SIZE));
  await mapBounded(people(SIZE), 8, ({ employeeId }) =>
    reconcileEmployeeIndexes(world.services.indexStores, { department: 'Big', employeeId }),
  );
  const count: PipelinePolicy = {
    name: 'countRequests',
    sendRequest: (request, next) => {
      requests++;
      return next(request);
    },
  };
  world.employees.pipeline.addPolicy(count);
  world.index.pipeline.addPolicy(count);
});
afterAll(async () => {
  await world.cleanup();
});

function audit(repair: boolean): Promise<CountsByIndex> {
  return auditIndexesInProcess(world.services, { repair, pageSize: PAGE_SIZE, orgPageSize: 2 });
}

it(`pages through the department: ${PAGES} forward pages of at most ${PAGE_SIZE} employees, each a bounded number of requests`, async () => {
  const passes: string[] = [];
  const counts: CountsByIndex[] = [];
  const requestsOf: Record<string, number[]> = {};
  let step: DepartmentAuditStep | null = FIRST_AUDIT_STEP;
  while (step) {
    passes.push(step.pass);
    requests = 0;
    const page = await auditDepartmentPageActivity(world.services, {
      department: 'Big',
      repair: false,
      step,
      pageSize: PAGE_SIZE,
    });
    (requestsOf[step.pass] ??= []).push(requests);
    counts.push(page.counts);
    if (step.pass === 'employees')
      expect(page.counts.emailCopies!.checked).toBeLessThanOrEqual(PAGE_SIZE);
    step = page.next;
  }
  expect(passes.filter((p) => p === 'employees')).toHaveLength(PAGES);
  expect(passes.filter((p) => p === 'emailCopies')).toHaveLength(PAGES);
  expect(passes.at(-1)).toBe('listing');
  expect(totalOf(mergeByIndex(...counts))).toMatchObject({ missing: 0, stale: 0 });
  // A forward page: its listing, its tile's by-id and review ranges, the primaries again, and per
  // employee its email copy and by-email entry, per last name its index entity.
  expect(requestsOf.employees).toHaveLength(PAGES);
  for (const n of requestsOf.employees!) expect(n).toBeLessThanOrEqual(4 + 3 * PAGE_SIZE);
  // A reverse page: a page of stored entries, and one point read of the primary each names.
  for (const pass of ['emailCopies', 'byEmail', 'lastNames']) {
    for (const n of requestsOf[pass]!) expect(n).toBeLessThanOrEqual(1 + PAGE_SIZE);
  }
});

it('finds drift on every page once, repairs it once, and finds none after', async () => {
  const { employees, index } = world;
  // Email copies gone on the first, second and last pages.
  for (const id of ['000001', '000004', '000025']) {
    await employees.deleteEntity('Big', `email_p${id}@contoso.com`);
  }
  await index.deleteEntity('empid_Big', '000010');
  // A primary deleted behind the directory's back: its copy, entries and memberships are orphans.
  await employees.deleteEntity('Big', 'empid_000013');
  const last = await index.getEntity<Record<string, unknown>>('empid_Big', '000025');
  await index.createEntity({
    ...last,
    partitionKey: 'empid_Big',
    rowKey: '000030',
    etag: undefined,
  });

  const found = await audit(false);
  expect(found).toEqual({
    emailCopies: { checked: 25, missing: 3, stale: 1, repaired: 0 },
    lastNameEntities: { checked: 25, missing: 0, stale: 1, repaired: 0 },
    employeeIndexById: { checked: 26, missing: 1, stale: 2, repaired: 0 },
    employeeIndexByEmail: { checked: 25, missing: 0, stale: 1, repaired: 0 },
    orgLastNames: { checked: 25, missing: 0, stale: 1, repaired: 0 },
    departmentListing: { checked: 1, missing: 0, stale: 0, repaired: 0 },
    managerCopy: { checked: 0, missing: 0, stale: 0, repaired: 0 },
    orphanReviews: { checked: 0, missing: 0, stale: 0, repaired: 0 },
  });

  const repaired = await audit(true);
  // The by-id orphan's repair (the indexing reconcile of 000013) also drops its org-wide
  // membership, so the org-wide audit that follows finds nothing left: 9 repairs for 10 drifts.
  expect(repaired.orgLastNames).toEqual({ checked: 24, missing: 0, stale: 0, repaired: 0 });
  expect(totalOf(repaired)).toEqual({ checked: 126, missing: 4, stale: 5, repaired: 9 });
  const after = await audit(true);
  expect(totalOf(after)).toEqual({ checked: 24 * 5 + 1, missing: 0, stale: 0, repaired: 0 });
  expect(
    (await world.directory.employees.getByEmail('Big', 'p000025@contoso.com')).value,
  ).toMatchObject({ employeeId: '000025' });
});

it('audits a department of distinct last names a page of ids at a time, not an entity at a time', async () => {
  // 30 employees, 29 last names (two share one): the pass spans entities within each page.
  const wide = people(30, 101).map((p, i) => ({ ...p, lastName: `Name${Math.min(i, 28)}` }));
  await seed(world.directory, 'Wide', wide);
  await world.employees.deleteEntity('Wide', 'empid_000115'); // its membership is now stale
  const pageSize = 10;
  const pages: number[] = [];
  let stale = 0;
  let step: DepartmentAuditStep | null = { pass: 'lastNames', position: { token: null } };
  while (step?.pass === 'lastNames') {
    requests = 0;
    const page = await auditDepartmentPageActivity(world.services, {
      department: 'Wide',
      repair: false,
      step,
      pageSize,
    });
    pages.push(requests);
    stale += page.counts.lastNameEntities!.stale;
    step = page.next;
  }
  // ⌈30 / 10⌉ pages (one per entity would be 29), each a page of entities plus a read per id.
  expect(pages).toHaveLength(3);
  for (const n of pages) expect(n).toBeLessThanOrEqual(1 + pageSize);
  expect(stale).toBe(1);
});
