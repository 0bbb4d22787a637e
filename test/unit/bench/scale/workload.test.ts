/**
 * The real-size workload: import calls of 1,000 rows with a quarter sharing one last name, an hour
 * of log entries in time order, and the check that a log read came back exact.
 */
import {
  checkLogSequence,
  importCalls,
  logHourEntry,
  pastHour,
  SHARED_LAST_NAME,
  sharedNameCount,
} from '../../../../bench/scale/workload';

describe('import calls', () => {
  it('splits N employees into calls of 1,000 with unique ids and emails', () => {
    const calls = importCalls(2_500);
    expect(calls.map((c) => c.length)).toEqual([1_000, 1_000, 500]);
    const all = calls.flat();
    expect(new Set(all.map((e) => e.employeeId)).size).toBe(2_500);
    expect(new Set(all.map((e) => e.email)).size).toBe(2_500);
    expect(all[0]!.employeeId).toBe('000001');
    expect(all.at(-1)!.employeeId).toBe('002500');
  });

  it('gives a quarter of them the shared last name', () => {
    const all = importCalls(2_002).flat();
    const shared = all.filter((e) => e.lastName === SHARED_LAST_NAME).length;
    expect(shared).toBe(500);
    expect(sharedNameCount(2_002)).toBe(500);
  });

  it('refuses counts that six-digit ids cannot hold', () => {
    expect(() => importCalls(0)).toThrow(RangeError);
    expect(() => importCalls(1_000_000)).toThrow(RangeError);
  });
});

describe('an hour of logs', () => {
  const hour = new Date('2026-03-01T10:00:00.000Z');

  it('spreads entries over the hour in time order, each with its sequence number', () => {
    const entries = Array.from({ length: 150_000 }, (_, i) => logHourEntry(hour, 150_000, i));
    expect(entries[0]!.at).toBe('2026-03-01T10:00:00.000Z');
    expect(entries.at(-1)!.at < '2026-03-01T11:00:00.000Z').toBe(true);
    expect(entries.every((e, i) => i === 0 || e.at >= entries[i - 1]!.at)).toBe(true);
    expect(entries[42]!.seq).toBe(42);
  });

  it('picks a whole hour at least two hours back', () => {
    expect(pastHour(new Date('2026-03-01T10:59:59.999Z')).toISOString()).toBe(
      '2026-03-01T08:00:00.000Z',
    );
  });

  it('finds a read exact only when every entry came back once, in order', () => {
    expect(checkLogSequence([0, 1, 2], 3)).toBeUndefined();
    expect(checkLogSequence([0, 1], 3)).toBe('read 2 entries, expected 3');
    expect(checkLogSequence([0, 2, 1], 3)).toBe(
      'entry 1 has seq 2 (duplicated, lost or out of order)',
    );
    expect(checkLogSequence([0, 1, 1], 3)).toMatch(/^entry 2 has seq 1/);
  });
});
