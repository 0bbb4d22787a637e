/**
 * Login attempts land in the table of their UTC day, read back newest first across days, and
 * survive a day table that disappears under the writer.
 */
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../../src/domainErrors';
import { LoginAttempts } from '../../../src/logins/loginAttempts';
import { LoginDayTables } from '../../../src/logins/loginDayTables';
import { loginTableName } from '../../../src/storage/keys/tables/logins';
import { testClients } from '../../support/storage';

const clients = testClients();

describe('login attempts in per-day tables', () => {
  const prefix = `LT${randomBytes(4).toString('hex')}`;
  let now = new Date('2026-01-01T00:30:00Z');
  const tables = new LoginDayTables(clients, prefix);
  const attempts = new LoginAttempts(tables, 60, () => now);

  afterAll(async () => {
    for (const table of await tables.list()) await tables.drop(table.name);
  });

  async function entitiesIn(day: string): Promise<number> {
    let count = 0;
    try {
      for await (const _ of clients.table(`${prefix}${day}`).listEntities()) count++;
    } catch {
      return 0;
    }
    return count;
  }

  it('stores each attempt in the table of its UTC day, converting offsets to UTC', async () => {
    const cases: [string, string][] = [
      ['2025-12-31T23:59:59.999Z', '20251231'],
      ['2026-01-01T00:00:00.000Z', '20260101'],
      // 05:29:59 at +05:30 is still 2025-12-31 in UTC.
      ['2026-01-01T05:29:59.999+05:30', '20251231'],
      ['2026-01-01T05:30:00+05:30', '20260101'],
    ];
    for (const [at, day] of cases) {
      const { table, attempt } = await attempts.record({
        userId: 'boundary',
        succeeded: true,
        at: new Date(at),
      });
      expect(table).toBe(`${prefix}${day}`);
      expect(attempt.at).toEqual(new Date(at));
    }
    expect(await entitiesIn('20251231')).toBe(2);
    expect(await entitiesIn('20260101')).toBe(2);
  });

  it('reads the last N days newest first, and the user id round-trips exactly', async () => {
    now = new Date('2026-02-10T12:00:00Z');
    const userId = 'o/brien#1?%  Ωμέγα';
    const times = [
      '2026-02-10T11:00:00Z',
      '2026-02-10T00:00:00Z',
      '2026-02-09T23:59:59.999Z',
      '2026-02-08T10:00:00Z',
      '2026-02-01T10:00:00Z',
    ];
    for (const at of [...times].reverse()) {
      await attempts.record({
        userId,
        succeeded: at.endsWith('0Z'),
        ip: '203.0.113.9',
        at: new Date(at),
      });
    }
    await attempts.record({
      userId: 'someone else',
      succeeded: false,
      at: new Date('2026-02-10T11:30:00Z'),
    });

    const lastThreeDays = await attempts.recent(userId, 3);
    expect(lastThreeDays.map((a) => a.at.toISOString())).toEqual(
      times.slice(0, 4).map((t) => new Date(t).toISOString()),
    );
    expect(lastThreeDays.every((a) => a.userId === userId && a.ip === '203.0.113.9')).toBe(true);
    expect(await attempts.recent(userId, 10)).toHaveLength(5);
    expect(await attempts.recent(userId, 10, 2)).toHaveLength(2);
    // Days without a table are simply empty.
    expect(await attempts.recent('nobody', 60)).toEqual([]);
  });

  it('shows an attempt stamped slightly ahead (clock skew) right away', async () => {
    now = new Date('2026-02-10T23:58:00Z');
    await attempts.record({
      userId: 'skewed',
      succeeded: true,
      at: new Date('2026-02-11T00:01:00Z'),
    });
    expect((await attempts.recent('skewed', 1)).map((a) => a.at.toISOString())).toEqual([
      '2026-02-11T00:01:00.000Z',
    ]);
  });

  it('recreates a day table dropped behind its back and retries the write once', async () => {
    now = new Date('2026-02-12T08:00:00Z');
    await attempts.record({ userId: 'dropped', succeeded: true });
    await clients.tableService().deleteTable(loginTableName(prefix, now));
    const { attempt } = await attempts.record({ userId: 'dropped', succeeded: false });
    expect(await attempts.recent('dropped', 1)).toEqual([attempt]);
  });

  it('refuses times outside the kept window and days beyond the retention, storing nothing', async () => {
    now = new Date('2026-03-01T12:00:00Z');
    const before = (await tables.list()).map((t) => t.name);
    await expect(
      attempts.record({ userId: 'late', succeeded: true, at: new Date('2025-12-31T11:59:59Z') }),
    ).rejects.toThrow(ValidationError);
    await expect(
      attempts.record({ userId: 'early', succeeded: true, at: new Date('2026-03-02T12:00:01Z') }),
    ).rejects.toThrow(ValidationError);
    await expect(attempts.record({ userId: '', succeeded: true })).rejects.toThrow(ValidationError);
    await expect(attempts.recent('late', 61)).rejects.toThrow(ValidationError);
    await expect(attempts.recent('late', 0)).rejects.toThrow(ValidationError);
    expect((await tables.list()).map((t) => t.name)).toEqual(before);
    // The oldest kept instant is accepted.
    await attempts.record({
      userId: 'edge',
      succeeded: true,
      at: new Date('2025-12-31T12:00:00Z'),
    });
  });
});
