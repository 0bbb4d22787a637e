/**
 * UTC calendar arithmetic shared by the time-and-volume features: day tables, hourly and daily
 * counters, retention windows. Every function works in UTC; local time zones never enter.
 */
import { unstorableInstant } from './timeErrors';
import { MAX_STORABLE_DATE, MIN_STORABLE_DATE } from '../storage/keys/time';

/**
 * Milliseconds in one UTC day (UTC has no daylight-saving shifts; leap seconds are not counted).
 */
export const MS_PER_DAY = 86_400_000;

/**
 * True when `at` is a real instant that keys and `DateTime` properties can hold (1601–9999 UTC).
 */
export function isStorableInstant(at: Date): boolean {
  const ms = at.getTime();
  return (
    !Number.isNaN(ms) && ms >= MIN_STORABLE_DATE.getTime() && ms <= MAX_STORABLE_DATE.getTime()
  );
}

/**
 * Checks that an instant can be stored.
 *
 * @param field - where the value came from, named in the error (e.g. `body.at`).
 * @throws {ValidationError} (`InvalidTime`) for an invalid date or one outside 1601-01-01 –
 *   9999-12-31 UTC.
 */
export function assertStorableInstant(at: Date, field: string): void {
  if (!isStorableInstant(at)) {
    throw unstorableInstant(at, field);
  }
}

/** Midnight UTC of the day `at` falls in. */
export function startOfUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MS_PER_DAY) * MS_PER_DAY);
}

/** `day` moved by `days` whole UTC days (negative goes back). */
export function addUtcDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * MS_PER_DAY);
}

/** True for a Gregorian leap year. */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** 365 or 366. */
export function daysInYear(year: number): number {
  return isLeapYear(year) ? 366 : 365;
}

/** Day of the UTC year `at` falls in: 1 for 1 January, 366 for 31 December of a leap year. */
export function utcDayOfYear(at: Date): number {
  const yearStart = new Date(0);
  yearStart.setUTCFullYear(at.getUTCFullYear(), 0, 1);
  return Math.floor((startOfUtcDay(at).getTime() - yearStart.getTime()) / MS_PER_DAY) + 1;
}

/** `YYYY-MM-DD` of the UTC day `at` falls in. */
export function formatUtcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Midnight UTC of a `YYYY-MM-DD` calendar date, or `undefined` when the text is not a real date
 * (e.g. `2026-02-30`) or lies outside the storable years 1601–9999.
 */
export function parseUtcDay(text: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && isStorableInstant(date) ? date : undefined;
}
