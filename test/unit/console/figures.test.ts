/**
 * The console's figures: the year's heat map (levels, where each day and month sits, a summary
 * that makes sense for an empty year) and the operations chart's window with a single sample.
 */
import {
  heatCell,
  level,
  monthStarts,
  plural,
  timeWindow,
  utcClock,
  yearSummary,
} from '../../../console/figures';

describe('the year heat map', () => {
  it('says an empty year is empty, not that its busiest day had 1', () => {
    expect(yearSummary(2026, new Array(365).fill(0))).toBe('No messages in 2026 yet.');
  });

  it('names the busiest day by its date and count', () => {
    const days = new Array(365).fill(0);
    days[0] = 3;
    days[58] = 41; // 28 February
    expect(yearSummary(2026, days)).toBe(
      '44 messages in 2026; the busiest day was 28 February, with 41 messages.',
    );
    expect(yearSummary(2026, [1, ...new Array(364).fill(0)])).toBe(
      '1 message in 2026; the busiest day was 1 January, with 1 message.',
    );
  });

  it('shades by quarters of the busiest day, and nothing for none', () => {
    expect([0, 1, 25, 26, 50, 75, 100].map((c) => level(c, 100))).toEqual([0, 1, 1, 2, 2, 3, 4]);
    expect(level(5, 0)).toBe(0);
  });

  it('puts 1 January in week 0 on its weekday, and each month over the week it starts in', () => {
    // 1 January 2026 is a Thursday.
    expect(heatCell(2026, 0)).toEqual({ week: 0, weekday: 4 });
    expect(heatCell(2026, 3)).toEqual({ week: 1, weekday: 0 });
    expect(heatCell(2026, 364)).toEqual({ week: 52, weekday: 4 });
    const starts = monthStarts(2026);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBe(heatCell(2026, 31).week);
    expect(starts[11]).toBe(heatCell(2026, 334).week);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });
});

describe('the operations chart window', () => {
  it('spans the same ten minutes up to the newest sample, one sample or many', () => {
    expect(timeWindow([1_000_000], 600)).toEqual([999_400, 1_000_000]);
    expect(timeWindow([999_000, 999_500, 1_000_000], 600)).toEqual([999_400, 1_000_000]);
    expect(timeWindow([], 600, 5_000)).toEqual([4_400, 5_000]);
  });

  it('labels times as UTC hours and minutes', () => {
    expect(utcClock(Date.UTC(2026, 10, 27, 21, 5, 59) / 1000)).toBe('21:05');
  });

  it('counts in words', () => {
    expect(plural(1, 'employee')).toBe('1 employee');
    expect(plural(1500, 'employee')).toBe('1,500 employees');
    expect(plural(2, 'person', 'people')).toBe('2 people');
  });
});
