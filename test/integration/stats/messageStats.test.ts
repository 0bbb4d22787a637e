/**
 * Hourly (data series) and daily (wide entity) message counters: one EGT per increment, no lost
 * increments under contention, boundaries in the right entity.
 */
import { ThrottledError, ValidationError } from '../../../src/domainErrors';
import { MessageStats } from '../../../src/stats/messageStats';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { startFaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

describe('message statistics', () => {
  const tableName = uniqueTableName('Stats');
  const table = clients.table(tableName);
  const stats = new MessageStats(table);

  afterAll(() => clients.tableService().deleteTable(tableName));

  it('keeps every one of 20 concurrent increments in both the hour and the day counter', async () => {
    const at = new Date('2026-07-15T09:30:00Z');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stats.record('Sales', '000001', { at })),
    );
    // There was contention: 20 writers of one entity are enough (each retry is another round for
    // all that lost, so the work grows with the square of the writers).
    expect(results.some((r) => r.rounds > 1)).toBe(true);
    const hours = await stats.hourly('Sales', '000001', new Date('2026-07-15T00:00:00Z'));
    expect(hours[9]).toBe(20);
    expect(sum(hours)).toBe(20);
    const days = await stats.daily('Sales', '000001', 2026);
    expect(days[195]).toBe(20); // 15 July is day 196 of 2026
    expect(sum(days)).toBe(20);
  });

  it('adds counts larger than one and keeps series apart per employee', async () => {
    const at = new Date('2026-07-15T10:00:00Z');
    await stats.record('Sales', '000002', { at, count: 1_000_000 });
    await stats.record('Sales', '000002', { at, count: 7 });
    await stats.record('Sales_000', '002002', { at, count: 3 }); // same characters, other partition
    expect((await stats.hourly('Sales', '000002', at))[10]).toBe(1_000_007);
    expect((await stats.hourly('Sales_000', '002002', at))[10]).toBe(3);
  });

  it('puts hour, day and year boundaries and offsets in the right entity', async () => {
    const employee = ['Boundaries', '000003'] as const;
    await stats.record(...employee, { at: new Date('2027-12-31T23:59:59.999Z') });
    await stats.record(...employee, { at: new Date('2028-01-01T00:00:00.000Z') });
    await stats.record(...employee, { at: new Date('2028-02-29T12:00:00Z'), count: 2 });
    await stats.record(...employee, { at: new Date('2028-03-01T04:59:59+05:30'), count: 3 }); // 02-29 23:29 UTC
    await stats.record(...employee, { at: new Date('2028-07-01T23:59:59.999Z'), count: 4 }); // day 183, part 1
    await stats.record(...employee, { at: new Date('2028-07-02T00:00:00Z'), count: 5 }); // day 184, part 2
    await stats.record(...employee, { at: new Date('2028-12-31T23:59:59.999Z'), count: 6 });

    const lastDay2027 = await stats.hourly(...employee, new Date('2027-12-31T00:00:00Z'));
    expect(lastDay2027[23]).toBe(1);
    const firstDay2028 = await stats.hourly(...employee, new Date('2028-01-01T00:00:00Z'));
    expect(firstDay2028[0]).toBe(1);
    const leapDay = await stats.hourly(...employee, new Date('2028-02-29T00:00:00Z'));
    expect(leapDay[12]).toBe(2);
    expect(leapDay[23]).toBe(3);

    const days2027 = await stats.daily(...employee, 2027);
    expect(days2027).toHaveLength(365);
    expect(days2027[364]).toBe(1);
    const days2028 = await stats.daily(...employee, 2028);
    expect(days2028).toHaveLength(366);
    expect(days2028[0]).toBe(1);
    expect(days2028[59]).toBe(5); // 29 February
    expect(days2028[182]).toBe(4);
    expect(days2028[183]).toBe(5);
    expect(days2028[365]).toBe(6);
    expect(sum(days2028)).toBe(1 + 5 + 4 + 5 + 6);
  });

  it('stores one 24-counter entity per day and two entities per year in the employee partition', async () => {
    const partitionKey = employeePartitionKey('Boundaries', '000003');
    const rowKeys: string[] = [];
    for await (const entity of table.listEntities({
      queryOptions: { filter: `PartitionKey eq '${partitionKey}'` },
    })) {
      rowKeys.push(entity.rowKey!);
      if (entity.rowKey!.startsWith('day_')) {
        expect(Object.keys(entity).filter((k) => /^H\d\d$/.test(k))).toHaveLength(24);
      }
    }
    expect(rowKeys.filter((k) => k.startsWith('year_'))).toEqual([
      'year_2027_2',
      'year_2028_1',
      'year_2028_2',
    ]);
  });

  it('reads a day without messages as 24 zeros and a year without as zeros', async () => {
    expect(await stats.hourly('Nobody', '999999', new Date('2026-01-01T00:00:00Z'))).toEqual(
      Array(24).fill(0),
    );
    expect(await stats.daily('Nobody', '999999', 2024)).toEqual(Array(366).fill(0));
  });

  it('refuses bad counts, times and ids before writing anything', async () => {
    await expect(stats.record('Sales', '000004', { count: 0 })).rejects.toThrow(ValidationError);
    await expect(stats.record('Sales', '000004', { count: 1.5 })).rejects.toThrow(ValidationError);
    await expect(
      stats.record('Sales', '000004', { at: new Date('1600-01-01T00:00:00Z') }),
    ).rejects.toThrow(ValidationError);
    await expect(stats.record('Sales/East', '000004')).rejects.toThrow(ValidationError);
    await expect(stats.daily('Sales', '000004', 1600)).rejects.toThrow(ValidationError);
    expect(await stats.daily('Sales', '000004', 2026)).toEqual(Array(365).fill(0));
  });

  it('gives up with a retryable error when it loses every round', async () => {
    const impatient = new MessageStats(table, undefined, 1);
    const at = new Date('2026-08-01T00:00:00Z');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => impatient.record('Busy', '000005', { at })),
    );
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(lost.length).toBeGreaterThan(0);
    for (const o of lost)
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(ThrottledError);
    const won = outcomes.length - lost.length;
    expect((await stats.hourly('Busy', '000005', at))[0]).toBe(won);
  });

  it('does not count an increment twice when a response is lost after storage applied it', async () => {
    const proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
    try {
      const flaky = new MessageStats(testClients(proxy.connectionString).table(tableName));
      const at = new Date('2026-09-01T05:00:00Z');
      await flaky.record('Flaky', '000006', { at }); // table known, entities exist
      proxy.setFaults({ rate: 0.3, kinds: ['reset-after', '503', 'reset'], seed: 7 });
      for (let i = 0; i < 30; i++) await flaky.record('Flaky', '000006', { at });
      proxy.setFaults(null);
      expect(proxy.counts().faultsInjected).toBeGreaterThan(0);
      expect((await stats.hourly('Flaky', '000006', at))[5]).toBe(31);
      expect((await stats.daily('Flaky', '000006', 2026))[243]).toBe(31);
    } finally {
      await proxy.stop();
    }
  });
});
