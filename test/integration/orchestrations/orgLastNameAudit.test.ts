/**
 * The organisation-wide last-name audit one bounded page per activity, in both stores, against
 * real Azurite: an index of more names than one page, with a member missing in an early page, a
 * stale member in a late one, a name only a department holds (absent from the store) in a middle
 * page, and a tail of names the store lost entirely (more than one department read holds, so the
 * range closes early and the store page is listed again). Everything is found once, repaired once,
 * and gone on the next audit; every page's reads are bounded by the page, not the directory.
 */
import type { LastNameIndexMode } from '../../../src/config';
import { reconcileEmployeeIndexes } from '../../../src/indexing/employeeIndex/indexMaintenance';
import type { LastNameStore } from '../../../src/indexing/lastNames/lastNameStore';
import {
  auditOrgLastNamesActivity,
  type AuditServices,
  type OrgLastNameStep,
} from '../../../src/orchestrations/audit/auditActivities';
import { addCounts, type AuditCounts } from '../../../src/orchestrations/audit/auditCounts';
import { mapBounded } from '../../../src/storage/parallel';
import { auditOrgLastNamesInProcess } from '../../support/indexAudit';
import { createWorld, seed, type TestWorld } from './support';

const PAGE = 10;
const pad = (n: number, width = 6): string => String(n).padStart(width, '0');

/** What one page of the audit read. */
interface PageReads {
  listPages: number;
  snapshots: number;
  /** Requests to the `Employees` table, and entities they returned. */
  requests: number;
  entities: number;
  next: OrgLastNameStep | null;
}

describe.each<LastNameIndexMode>(['entity', 'blob'])('%s store', (mode) => {
  let world: TestWorld;
  let services: AuditServices;
  const current: PageReads = { listPages: 0, snapshots: 0, requests: 0, entities: 0, next: null };

  beforeAll(async () => {
    world = await createWorld({ lastNameMode: mode });
    // Sales: 100 employees, two per name (name01 … name50); Marketing: 20 more on name01 … name20;
    // Ops: 25 employees on names of their own (zed01 … zed25) that sort after all the others.
    const sales = Array.from({ length: 100 }, (_, i) => ({
      employeeId: pad(i + 1),
      lastName: `Name${pad(Math.floor(i / 2) + 1, 2)}`,
      email: `s${i + 1}@contoso.com`,
    }));
    const marketing = Array.from({ length: 20 }, (_, i) => ({
      employeeId: pad(101 + i),
      lastName: `Name${pad(i + 1, 2)}`,
      email: `m${i + 1}@contoso.com`,
    }));
    const ops = Array.from({ length: 25 }, (_, i) => ({
      employeeId: pad(i + 1),
      lastName: `Zed${pad(i + 1, 2)}`,
      email: `o${i + 1}@contoso.com`,
    }));
    await seed(world.directory, 'Sales', sales);
    await seed(world.directory, 'Marketing', marketing);
    await seed(world.directory, 'Ops', ops);
    // The org-wide index of every employee but Sales's two Name25s and every Ops employee.
    const indexed = [
      ...sales.filter((e) => e.lastName !== 'Name25').map((e) => ({ ...e, department: 'Sales' })),
      ...marketing.map((e) => ({ ...e, department: 'Marketing' })),
    ];
    await mapBounded(indexed, 8, ({ department, employeeId }) =>
      reconcileEmployeeIndexes(world.services.indexStores, { department, employeeId }),
    );
    const lastNames = world.services.indexStores.lastNames;
    await lastNames.remove('name05', { department: 'Sales', employeeId: '000009' });
    await lastNames.add('name40', { department: 'Sales', employeeId: '000777' });

    const counted: LastNameStore = {
      ...lastNames,
      listPage: (after, limit) => {
        current.listPages++;
        return lastNames.listPage(after, limit);
      },
      snapshot: (lastName) => {
        current.snapshots++;
        return lastNames.snapshot(lastName);
      },
      all: () => Promise.reject(new Error('the audit reads the index in pages')),
    };
    world.employees.pipeline.addPolicy({
      name: 'countReads',
      async sendRequest(request, next) {
        current.requests++;
        const response = await next(request);
        if (request.method === 'GET' && response.status === 200 && response.bodyAsText) {
          const body = JSON.parse(response.bodyAsText) as { value?: unknown[] };
          current.entities += Array.isArray(body.value) ? body.value.length : 1;
        }
        return response;
      },
    });
    services = {
      directory: world.services.directory,
      indexStores: { ...world.services.indexStores, lastNames: counted },
    };
  });
  afterAll(async () => {
    await world.cleanup();
  });

  /** The audit page by page, as the orchestrator runs it, with what each page read. */
  async function audit(repair: boolean): Promise<{ counts: AuditCounts; pages: PageReads[] }> {
    const pages: PageReads[] = [];
    const counts: AuditCounts[] = [];
    let after: OrgLastNameStep | undefined;
    do {
      Object.assign(current, { listPages: 0, snapshots: 0, requests: 0, entities: 0 });
      const page = await auditOrgLastNamesActivity(services, { repair, after, pageSize: PAGE });
      pages.push({ ...current, next: page.next });
      counts.push(page.counts);
      after = page.next ?? undefined;
    } while (after);
    return { counts: addCounts(...counts), pages };
  }

  it('finds the missing, the stale and the names only departments hold, page by page', async () => {
    const { counts, pages } = await audit(false);

    // 145 employees and one orphan; missing: Sales 000009 (name05), the two Name25s, all of Ops.
    expect(counts).toEqual({ checked: 146, missing: 28, stale: 1, repaired: 0 });
    expect(pages.length).toBeGreaterThanOrEqual(5);
    // Ops's 25 names are past the store's end: the last range closes early, and lists again.
    expect(pages.some((p) => p.next?.position.relist === true)).toBe(true);
    for (const page of pages) {
      expect(page.listPages).toBe(1);
      // The names of one store page or one department read (and the cut last name), not more.
      expect(page.snapshots).toBeLessThanOrEqual(PAGE + 1);
      // Listing (+ on the first page the scan for unlisted departments), one range read per
      // department, one point read per membership of at most a page of names on either side.
      expect(page.requests).toBeLessThanOrEqual(2 + 3 + 3 * 2 * PAGE);
      expect(page.entities).toBeLessThanOrEqual(10 + 3 * PAGE + 3 * 2 * PAGE);
    }
  });

  it('repairs each once, and the next audit finds nothing', async () => {
    const repaired = await audit(true);
    expect(repaired.counts).toEqual({ checked: 146, missing: 28, stale: 1, repaired: 29 });
    const lastNames = world.services.indexStores.lastNames;
    expect(await lastNames.members('name25')).toEqual([
      { department: 'Sales', employeeId: '000049' },
      { department: 'Sales', employeeId: '000050' },
    ]);
    expect(await lastNames.members('zed13')).toEqual([{ department: 'Ops', employeeId: '000013' }]);
    expect(await lastNames.members('name40')).not.toContainEqual({
      department: 'Sales',
      employeeId: '000777',
    });

    const after = await audit(false);
    expect(after.counts).toEqual({ checked: 145, missing: 0, stale: 0, repaired: 0 });
  });
});

describe('a name the blob store lists after its range (smith-jones.json sorts before smith.json)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  /** Sales: a01 … a09 and Smith-Jones (one store page of 10 lists), and `smith` listed next. */
  async function build(withSmith: boolean): Promise<void> {
    world = await createWorld({ lastNameMode: 'blob' });
    const names = [...Array.from({ length: 9 }, (_, i) => `a0${i + 1}`), 'Smith-Jones'];
    if (withSmith) names.push('Smith');
    const rows = names.map((lastName, i) => ({
      employeeId: pad(i + 1),
      lastName,
      email: `e${i + 1}@contoso.com`,
    }));
    await seed(world.directory, 'Sales', rows);
    for (const { employeeId } of rows) {
      await reconcileEmployeeIndexes(world.services.indexStores, {
        department: 'Sales',
        employeeId,
      });
    }
    await world.services.indexStores.lastNames.add('smith', {
      department: 'Sales',
      employeeId: '000777',
    });
  }

  it('audits it once in its own range when a department holds it', async () => {
    await build(true);
    const counts = await auditOrgLastNamesInProcess(world.services, false, PAGE);
    expect(counts).toEqual({ checked: 12, missing: 0, stale: 1, repaired: 0 });
  });

  it('audits it where it is listed when no department holds it', async () => {
    await build(false);
    expect(await auditOrgLastNamesInProcess(world.services, true, PAGE)).toEqual({
      checked: 11,
      missing: 0,
      stale: 1,
      repaired: 1,
    });
    expect(await world.services.indexStores.lastNames.members('smith')).toEqual([]);
  });
});
