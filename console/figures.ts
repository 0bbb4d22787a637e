/**
 * The console's figures in words and on axes: pure functions (no DOM), so they are unit-tested
 * (test/unit/console/).
 */

/** `1` → `1 employee`, `1500` → `1,500 employees`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** The heat map's level (0–4) of a day's count against the year's busiest day. */
export function level(count: number, max: number): number {
  return count <= 0 || max <= 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4));
}

/** The year's summary in words (no "busiest day" for an empty year). */
export function yearSummary(year: number, days: readonly number[]): string {
  const total = days.reduce((a, b) => a + b, 0);
  if (total === 0) return `No messages in ${year} yet.`;
  const max = Math.max(...days);
  const busiest = new Date(Date.UTC(year, 0, 1 + days.indexOf(max)));
  const date = busiest.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
  return `${plural(total, 'message')} in ${year}; the busiest day was ${date}, with ${plural(max, 'message')}.`;
}

/**
 * Where a day sits on the year's heat map: its week (column, 0 = the week of 1 January) and its
 * weekday (row, 0 = Sunday).
 */
export function heatCell(year: number, dayOfYear: number): { week: number; weekday: number } {
  const first = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  return { week: Math.floor((first + dayOfYear) / 7), weekday: (first + dayOfYear) % 7 };
}

/** The week (column) in which each month of `year` starts, January first. */
export function monthStarts(year: number): number[] {
  return Array.from({ length: 12 }, (_, month) => {
    const dayOfYear = (Date.UTC(year, month, 1) - Date.UTC(year, 0, 1)) / 86_400_000;
    return heatCell(year, dayOfYear).week;
  });
}

/**
 * A sampled chart's time window (seconds): `span` seconds up to the newest sample, however few
 * samples there are — one sample is a point at the right edge, not a range of years.
 */
export function timeWindow(
  times: readonly number[],
  span: number,
  now = Date.now() / 1000,
): [number, number] {
  const last = times.at(-1) ?? now;
  return [last - span, last];
}

/** `HH:MM` of a time in seconds, in UTC (the charts' axis labels). */
export function utcClock(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 16);
}
