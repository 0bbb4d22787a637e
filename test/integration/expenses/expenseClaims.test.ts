/**
 * The log tail: the newest claims come from one `$top` query because inverted-ticks RowKeys sort
 * the newest claim first.
 */
import { ValidationError } from '../../../src/domainErrors';
import { ExpenseClaimLog } from '../../../src/expenses/expenseClaims';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { parseInvertedTicksRowKey } from '../../../src/storage/keys/time';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { seededRandom } from '../../../tools/faultProxy/faultPlan';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());

/** `items` in an order drawn from a fixed seed: any order must do, and a failing one replays. */
function shuffled<T>(items: T[]): T[] {
  const random = seededRandom(223);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('expense claims (log tail)', () => {
  const tableName = uniqueTableName('Expenses');
  let claims: ExpenseClaimLog;

  beforeAll(() => {
    claims = new ExpenseClaimLog(testClients(proxy.connectionString).table(tableName));
  });
  afterAll(() => clients.tableService().deleteTable(tableName));

  it('returns the 10 newest of 1,000 claims submitted in random order, with one request', async () => {
    const hourStart = Date.parse('2026-04-01T09:00:00Z');
    const times = Array.from({ length: 1000 }, (_, i) => new Date(hourStart + i * 3_600));
    const insertOrder = shuffled(times);
    for (let i = 0; i < insertOrder.length; i += 50) {
      await Promise.all(
        insertOrder.slice(i, i + 50).map((submittedAt, j) =>
          claims.submit('Sales', '000223', {
            amount: ((i + j) % 500) + 0.25,
            currency: 'EUR',
            description: `Claim at ${submittedAt.toISOString()}`,
            submittedAt,
          }),
        ),
      );
    }
    await claims.submit('Sales', '000224', {
      amount: 1,
      currency: 'EUR',
      description: 'Other employee',
    });

    proxy.resetCounts();
    const newest = await claims.newest('Sales', '000223', 10);
    expect(proxy.counts().requests).toBe(1);

    const expected = [...times].sort((a, b) => b.getTime() - a.getTime()).slice(0, 10);
    expect(newest.map((c) => c.submittedAt)).toEqual(expected);
    expect(newest.map((c) => c.description)).toEqual(
      expected.map((t) => `Claim at ${t.toISOString()}`),
    );
    expect(newest.every((c) => c.department === 'Sales' && c.employeeId === '000223')).toBe(true);

    // Every claim was stored; the tail of a bigger top is still in order.
    const all = await claims.newest('Sales', '000223', 1000);
    expect(all).toHaveLength(1000);
    expect(all.map((c) => c.submittedAt)).toEqual([...times].reverse());
  });

  it('keeps two claims of the same millisecond apart and decodes the time from the RowKey', async () => {
    const submittedAt = new Date('2026-04-02T10:00:00.123+02:00');
    const [a, b] = await Promise.all([
      claims.submit('Ops', '000001', {
        amount: 10,
        currency: 'USD',
        description: 'a',
        submittedAt,
      }),
      claims.submit('Ops', '000001', {
        amount: 10,
        currency: 'USD',
        description: 'b',
        submittedAt,
      }),
    ]);
    expect(a.claim.claimId).not.toBe(b.claim.claimId);
    expect(parseInvertedTicksRowKey(a.claim.claimId)?.at).toEqual(
      new Date('2026-04-02T08:00:00.123Z'),
    );
    const stored = await claims.newest('Ops', '000001', 10);
    expect(stored.map((c) => c.description).sort()).toEqual(['a', 'b']);
    expect(stored.every((c) => c.amount === 10 && c.currency === 'USD')).toBe(true);
  });

  it('returns the whole tail when fewer claims exist than asked for, and nothing for no claims', async () => {
    await claims.submit('Ops', '000002', {
      amount: 99.99,
      currency: 'GBP',
      description: 'Only one',
    });
    expect((await claims.newest('Ops', '000002', 1000)).map((c) => c.amount)).toEqual([99.99]);
    expect(await claims.newest('Ops', '000003')).toEqual([]);
  });

  it('stores no claim for bad input', async () => {
    const bad = [
      { amount: 0, currency: 'EUR', description: 'zero' },
      { amount: 1.234, currency: 'EUR', description: 'three decimals' },
      { amount: 5, currency: 'eur', description: 'lower-case currency' },
      { amount: 5, currency: 'EUR', description: 'x'.repeat(1001) },
      {
        amount: 5,
        currency: 'EUR',
        description: 'too old',
        submittedAt: new Date('1600-06-01T00:00:00Z'),
      },
    ];
    for (const input of bad) {
      await expect(claims.submit('Ops', '000004', input)).rejects.toThrow(ValidationError);
    }
    await expect(claims.submit('Ops/x', '000004', bad[0]!)).rejects.toThrow(ValidationError);
    await expect(claims.newest('Ops', '000004', 0)).rejects.toThrow(ValidationError);
    await expect(claims.newest('Ops', '000004', 1001)).rejects.toThrow(ValidationError);
    const partition = clients.table(tableName).listEntities({
      queryOptions: { filter: `PartitionKey eq '${employeePartitionKey('Ops', '000004')}'` },
    });
    for await (const entity of partition) throw new Error(`unexpected entity ${entity.rowKey}`);
  });

  it('does not store a claim twice when the response to its insert is lost', async () => {
    proxy.setFaults({ rate: 0.5, kinds: ['reset-after'], services: ['table'], seed: 11 });
    try {
      for (let i = 0; i < 10; i++) {
        await claims.submit('Flaky', '000005', {
          amount: i + 1,
          currency: 'EUR',
          description: `n${i}`,
        });
      }
    } finally {
      proxy.setFaults(null);
    }
    expect(proxy.counts().faultsInjected).toBeGreaterThan(0);
    const stored = await claims.newest('Flaky', '000005', 100);
    expect(stored.map((c) => c.description).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `n${i}`).sort(),
    );
  });
});
