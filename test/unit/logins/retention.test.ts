import { isExpiredDay } from '../../../src/logins/retention';

describe('login retention', () => {
  const now = new Date('2026-05-10T01:00:00Z');

  it('expires a day table only once its whole day is older than the retention', () => {
    // 2026-03-10 + 61 days = 2026-05-10T00:00 <= now: every attempt of that day is > 60 days old.
    expect(isExpiredDay(new Date('2026-03-10T00:00:00Z'), 60, now)).toBe(true);
    // 2026-03-11 ends at 2026-03-12T00:00, less than 60 days before now: keep.
    expect(isExpiredDay(new Date('2026-03-11T00:00:00Z'), 60, now)).toBe(false);
    expect(isExpiredDay(new Date('2026-05-10T00:00:00Z'), 60, now)).toBe(false);
  });

  it('keeps retention + 1 day tables before tomorrow at any time of day', () => {
    for (const hour of [0, 1, 12, 23]) {
      const at = new Date(Date.UTC(2026, 4, 10, hour));
      const kept = Array.from(
        { length: 100 },
        (_, i) => new Date(Date.UTC(2026, 4, 10 - i)),
      ).filter((day) => !isExpiredDay(day, 60, at));
      expect(kept).toHaveLength(61);
    }
  });
});
