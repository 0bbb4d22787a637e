/**
 * Property names of the message counters: `H00`..`H23` in a day's data-series entity,
 * `D001`..`D366` in a year's wide entity, whose 366 counters are split over two physical entities
 * because one entity holds at most 252 custom properties.
 */
import { dayOfYearOutOfRange, hourOutOfRange } from './statsErrors';

/**
 * Days 1–183 live in part 1, days 184–366 in part 2: 183 counters + ≤ 2 bookkeeping properties
 * each.
 */
const FIRST_DAY_OF_PART_2 = 184;

/** `H07` for hour 7 (0–23). */
export function hourProperty(hour: number): string {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw hourOutOfRange(hour);
  return `H${hour.toString().padStart(2, '0')}`;
}

/** `D032` for day-of-year 32 (1–366). */
export function dayProperty(dayOfYear: number): string {
  if (!Number.isInteger(dayOfYear) || dayOfYear < 1 || dayOfYear > 366) {
    throw dayOfYearOutOfRange(dayOfYear);
  }
  return `D${dayOfYear.toString().padStart(3, '0')}`;
}

/** Which physical entity (1 or 2) of a year holds a day-of-year's counter. */
export function yearPartOf(dayOfYear: number): 1 | 2 {
  return dayOfYear < FIRST_DAY_OF_PART_2 ? 1 : 2;
}

/** Day-of-year numbers whose counters the given part holds. */
export function daysOfPart(part: 1 | 2): number[] {
  const [first, last] = part === 1 ? [1, FIRST_DAY_OF_PART_2 - 1] : [FIRST_DAY_OF_PART_2, 366];
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** A counter's value as stored (`Edm.Int64` arrives as bigint; absent counts as 0). */
export function counterValue(stored: unknown): number {
  if (typeof stored === 'bigint') return Number(stored);
  if (typeof stored === 'number' && Number.isFinite(stored)) return stored;
  return 0;
}
