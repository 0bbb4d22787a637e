/**
 * The whole org-wide last-name index read in bounded pages (`LastNameStore.listPage`), in both
 * stores: every membership exactly once over the pages, with more names (and, in the entity
 * store, more shards) than one page holds; and the org-wide last-name audit, which reads the
 * stored index that way, one page per call, on an index of more names than one of its pages.
 */
import type { LastNameIndexMode } from '../../../../src/config';
import { createDirectory } from '../../../../src/directory/directory';
import { drainDepartment } from '../../../../src/indexing/drain/leasedDrain';
import {
  encodeMember,
  type LastNameStore,
  type Membership,
} from '../../../../src/indexing/lastNames/lastNameStore';
import { lastNameStoreFor } from '../../../../src/indexing/lastNames/storeForMode';
import { addCounts, type AuditCounts } from '../../../../src/orchestrations/audit/auditCounts';
import {
  auditOrgLastNamePage,
  ORG_LAST_NAME_PAGE,
  type OrgLastNamePosition,
} from '../../../../src/orchestrations/audit/orgLastNameAudit';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';
import { createIndexingFixture, type IndexingFixture } from '../fixture';

const clients = testClients();
const text = (m: Membership): string => `${m.lastName}|${encodeMember(m.member)}`;

describe.each<LastNameIndexMode>(['entity', 'blob'])('%s store', (mode) => {
  const table = clients.table(uniqueTableName('LnPage'));
  const container = clients.container(uniqueName('ln-page'));
  // Small shards: a name of several members spans several entities.
  const store: LastNameStore = lastNameStoreFor(mode, table, container, { maxShardChars: 40 });
  afterAll(async () => {
    await Promise.allSettled([table.deleteTable(), container.deleteIfExists()]);
  });

  it('reads every membership exactly once over pages of at most `limit` units', async () => {
    const expected: string[] = [];
    for (let n = 0; n < 25; n++) {
      const lastName = `name${String(n).padStart(2, '0')}`;
      for (let m = 0; m <= n % 4; m++) {
        const member = { department: `D${m}`, employeeId: String(n * 10 + m).padStart(6, '0') };
        await store.add(lastName, member);
        expected.push(text({ lastName, member }));
      }
    }

    const seen: string[] = [];
    let pages = 0;
    let after: string | undefined;
    do {
      const page = await store.listPage(after, 10);
      pages++;
      // At most 10 units: 10 lists (blob) or 10 shards of at most 40 characters (entity).
      const names = new Set(page.memberships.map((m) => m.lastName));
      expect(names.size).toBeLessThanOrEqual(10);
      if (mode === 'blob') expect(page.memberships.length).toBeLessThanOrEqual(10 * 4);
      else expect(page.memberships.length).toBeLessThanOrEqual(10 * 3);
      seen.push(...page.memberships.map(text));
      after = page.next;
    } while (after !== undefined);

    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(expected.sort());
  });
});

describe('the org-wide last-name audit', () => {
  let fx: IndexingFixture;
  beforeEach(() => {
    fx = createIndexingFixture();
  });
  afterEach(() => fx.cleanup());

  it('audits an index of more names than one page, finding what is missing and what is stale', async () => {
    const count = ORG_LAST_NAME_PAGE + 30;
    const directory = createDirectory({ employees: fx.stores.employees, outbox: true });
    await directory.departments.put('Sales', {});
    const rows = Array.from({ length: count }, (_, i) => ({
      employeeId: String(i + 1).padStart(6, '0'),
      firstName: 'F',
      lastName: `Name${i + 1}`,
      email: `u${i + 1}@contoso.com`,
    }));
    expect((await directory.employees.import('Sales', rows)).created).toBe(count);
    await drainDepartment(fx.stores, 'Sales');
    await fx.stores.lastNames.remove('Name7', { department: 'Sales', employeeId: '000007' });
    await fx.stores.lastNames.add('Name8', { department: 'Sales', employeeId: '000009' });

    const pages: number[] = [];
    const counted: LastNameStore = {
      ...fx.stores.lastNames,
      listPage: async (after, limit) => {
        const page = await fx.stores.lastNames.listPage(after, limit);
        pages.push(page.memberships.length);
        return page;
      },
      all: () => Promise.reject(new Error('the audit reads the index in pages')),
    };
    const auditOrgLastNames = async (repair: boolean): Promise<AuditCounts> => {
      const counts: AuditCounts[] = [];
      let after: OrgLastNamePosition | undefined;
      do {
        const options = { repair, ...(after ? { after } : {}) };
        const page = await auditOrgLastNamePage(fx.stores.employees, counted, ['Sales'], options);
        counts.push(page.counts);
        after = page.next ?? undefined;
      } while (after);
      return addCounts(...counts);
    };
    const counts = await auditOrgLastNames(false);

    expect(pages.length).toBeGreaterThan(1);
    expect(pages.reduce((sum, n) => sum + n, 0)).toBe(count); // 129 listed + 1 stale
    expect(counts).toMatchObject({ missing: 1, stale: 1 });
    const repaired = await auditOrgLastNames(true);
    expect(repaired).toMatchObject({ missing: 1, stale: 1, repaired: 2 });
    expect(await auditOrgLastNames(false)).toMatchObject({
      missing: 0,
      stale: 0,
    });
  });
});
