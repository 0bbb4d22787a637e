/**
 * Access events spread over per-employee partitions; a time window is one partition range query,
 * oldest first, paged with opaque continuation tokens.
 */
import { AccessLog } from '../../../src/access/accessLog';
import { ValidationError } from '../../../src/domainErrors';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());

describe('access log', () => {
  const tableName = uniqueTableName('Access');
  let log: AccessLog;
  const base = Date.parse('2026-06-01T00:00:00Z');

  beforeAll(async () => {
    log = new AccessLog(testClients(proxy.connectionString).table(tableName));
    // 30 events of one employee, 1 hour apart, recorded newest first; noise from colleagues.
    for (let i = 29; i >= 0; i--) {
      await log.record({
        department: 'Sales',
        employeeId: '000223',
        resource: `/files/report-${i}.pdf?rev=2#p1`,
        action: i % 2 ? 'read' : 'write',
        at: new Date(base + i * 3_600_000),
      });
      await log.record({
        department: 'Sales',
        employeeId: '000224',
        resource: 'x',
        action: 'read',
        at: new Date(base + i * 3_600_000),
      });
    }
  });
  afterAll(() => clients.tableService().deleteTable(tableName));

  it('returns the events of a window oldest first, from inclusive and to exclusive, in one request', async () => {
    proxy.resetCounts();
    const page = await log.window(
      'Sales',
      '000223',
      new Date(base + 5 * 3_600_000),
      new Date(base + 10 * 3_600_000),
    );
    expect(proxy.counts().requests).toBe(1);
    expect(page.items.map((e) => e.at.getTime())).toEqual(
      [5, 6, 7, 8, 9].map((i) => base + i * 3_600_000),
    );
    expect(page.items[0]).toMatchObject({
      department: 'Sales',
      employeeId: '000223',
      resource: '/files/report-5.pdf?rev=2#p1',
      action: 'read',
    });
    expect(page.continuationToken).toBeNull();
  });

  it('converts offsets to UTC when choosing the window', async () => {
    const page = await log.window(
      'Sales',
      '000223',
      new Date('2026-06-01T05:30:00+05:30'),
      new Date('2026-06-01T07:30:00+05:30'),
    );
    expect(page.items.map((e) => e.at.toISOString())).toEqual([
      '2026-06-01T00:00:00.000Z',
      '2026-06-01T01:00:00.000Z',
    ]);
  });

  it('pages through a window with continuation tokens bound to the query', async () => {
    const from = new Date(base);
    const to = new Date(base + 30 * 3_600_000);
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await log.window('Sales', '000223', from, to, {
        pageSize: 7,
        continuationToken: token,
      });
      seen.push(...page.items.map((e) => e.at.getTime()));
      token = page.continuationToken ?? undefined;
      pages++;
      if (token) {
        // A token from this query is refused by any other query.
        await expect(
          log.window('Sales', '000224', from, to, { pageSize: 7, continuationToken: token }),
        ).rejects.toThrow(ValidationError);
      }
    } while (token);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => base + i * 3_600_000));
  });

  it('keeps two events of the same millisecond', async () => {
    const at = new Date('2026-07-01T12:00:00.500Z');
    await Promise.all([
      log.record({ department: 'Ops', employeeId: '000001', resource: 'a', action: 'read', at }),
      log.record({ department: 'Ops', employeeId: '000001', resource: 'b', action: 'read', at }),
    ]);
    const page = await log.window('Ops', '000001', at, new Date(at.getTime() + 1));
    expect(page.items.map((e) => e.resource).sort()).toEqual(['a', 'b']);
  });

  it('refuses bad windows and bad events, storing nothing', async () => {
    const from = new Date(base);
    await expect(log.window('Sales', '000223', from, from)).rejects.toThrow(ValidationError);
    await expect(log.window('Sales', '000223', from, new Date(base - 1))).rejects.toThrow(
      ValidationError,
    );
    await expect(
      log.window('Sales', '000223', from, new Date(base + 31 * 86_400_000 + 1)),
    ).rejects.toThrow(ValidationError);
    await expect(
      log.window('Sales', '000223', from, new Date(base + 1), { pageSize: 1001 }),
    ).rejects.toThrow(ValidationError);
    await expect(
      log.window('Sales', '000223', from, new Date(base + 1), { continuationToken: 'garbage!' }),
    ).rejects.toThrow(ValidationError);
    const bad = [
      { department: 'Ops', employeeId: '12345', resource: 'r', action: 'read' },
      { department: 'Ops#1', employeeId: '000009', resource: 'r', action: 'read' },
      { department: 'Ops', employeeId: '000009', resource: '', action: 'read' },
      { department: 'Ops', employeeId: '000009', resource: 'r', action: 'rm -rf' },
      {
        department: 'Ops',
        employeeId: '000009',
        resource: 'r',
        action: 'read',
        at: new Date('1000-01-01T00:00:00Z'),
      },
    ];
    for (const input of bad) await expect(log.record(input)).rejects.toThrow(ValidationError);
    const page = await log.window(
      'Ops',
      '000009',
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-31T00:00:00Z'),
    );
    expect(page.items).toEqual([]);
  });
});
