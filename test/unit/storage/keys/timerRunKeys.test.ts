import { parseTimerRunRowKey, timerRunRowKey } from '../../../../src/storage/keys/tables/timerRuns';

describe('timer last-run keys', () => {
  it('round-trips the names timers are registered under', () => {
    for (const name of ['sweepIndexOutboxes', 'dropExpiredLoginTables', 'a', 'x-1_y']) {
      expect(parseTimerRunRowKey(timerRunRowKey(name))).toBe(name);
    }
  });

  it('refuses names that are not Functions names, and leaves other RowKeys alone', () => {
    for (const bad of ['', '1timer', 'sweep/outbox', 'sweep#1', 'a b', 'x'.repeat(128)]) {
      expect(() => timerRunRowKey(bad)).toThrow(/Timer name/);
      expect(parseTimerRunRowKey(bad)).toBeUndefined();
    }
  });
});
