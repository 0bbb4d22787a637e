/** Message statistics: data-series and wide-entity RowKeys. */
import { invalidYear } from '../keyErrors';
import { pad, parseUtcDayStamp, utcDayStamp } from '../time';

/** RowKey of one day's 24 hourly counters: `day_20261122`. */
export function hourlyStatsRowKey(day: Date): string {
  return `day_${utcDayStamp(day)}`;
}

/** Reverses {@link hourlyStatsRowKey}. */
export function parseHourlyStatsRowKey(rowKey: string): Date | undefined {
  return rowKey.startsWith('day_') ? parseUtcDayStamp(rowKey.slice(4)) : undefined;
}

/** RowKeys of the two physical entities of one year's 366 daily counters. */
export function yearlyStatsRowKeys(year: number): [string, string] {
  if (!Number.isInteger(year) || year < 1601 || year > 9999) {
    throw invalidYear(year, 1601, 9999);
  }
  return [`year_${pad(year, 4)}_1`, `year_${pad(year, 4)}_2`];
}

/** Reverses {@link yearlyStatsRowKeys} for one of its keys. */
export function parseYearlyStatsRowKey(rowKey: string): { year: number; part: 1 | 2 } | undefined {
  const match = /^year_(\d{4})_([12])$/.exec(rowKey);
  return match ? { year: Number(match[1]), part: Number(match[2]) as 1 | 2 } : undefined;
}
