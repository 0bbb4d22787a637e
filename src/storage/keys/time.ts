/**
 * Time in keys: .NET ticks (100 ns intervals since 0001-01-01T00:00:00Z), time-ordered and log-
 * tail RowKeys, UTC day stamps.
 */
import { invalidKeySuffix, unstorableTime } from './keyErrors';

/** Ticks between 0001-01-01 and the Unix epoch. */
const EPOCH_TICKS = 621_355_968_000_000_000n;
/** `DateTime.MaxValue.Ticks` (9999-12-31T23:59:59.9999999Z). */
export const MAX_TICKS = 3_155_378_975_999_999_999n;
const TICKS_PER_MS = 10_000n;

/** Earliest instant that key encodings and Azure Table `DateTime` properties accept. */
export const MIN_STORABLE_DATE = new Date(Date.UTC(1601, 0, 1));
/** Latest instant accepted. */
export const MAX_STORABLE_DATE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

/** .NET ticks of an instant (millisecond precision). */
export function toTicks(at: Date): bigint {
  return EPOCH_TICKS + BigInt(at.getTime()) * TICKS_PER_MS;
}

/** The instant of .NET ticks (truncated to milliseconds). */
export function fromTicks(ticks: bigint): Date {
  return new Date(Number((ticks - EPOCH_TICKS) / TICKS_PER_MS));
}

function assertStorableDate(at: Date): void {
  if (Number.isNaN(at.getTime()) || at < MIN_STORABLE_DATE || at > MAX_STORABLE_DATE) {
    throw unstorableTime(at);
  }
}

const SUFFIX = /^[A-Za-z0-9-]{1,64}$/;

/** @throws {Error} unless the suffix is 1–64 of `[A-Za-z0-9-]` (key builders of this folder). */
export function assertSuffix(suffix: string): void {
  if (!SUFFIX.test(suffix)) throw invalidKeySuffix(suffix);
}

/**
 * Log-tail RowKey: 19-digit `MAX_TICKS - ticks`, then `_` and a unique suffix, so that the newest
 * entity sorts first and two entities of the same tick stay distinct.
 *
 * @throws {ValidationError} for an instant outside 1601–9999.
 */
export function invertedTicksRowKey(at: Date, uniqueSuffix: string): string {
  assertStorableDate(at);
  assertSuffix(uniqueSuffix);
  return `${(MAX_TICKS - toTicks(at)).toString().padStart(19, '0')}_${uniqueSuffix}`;
}

/** Reverses {@link invertedTicksRowKey}. */
export function parseInvertedTicksRowKey(
  rowKey: string,
): { at: Date; uniqueSuffix: string } | undefined {
  const match = /^(\d{19})_([A-Za-z0-9-]{1,64})$/.exec(rowKey);
  if (!match) return undefined;
  return { at: fromTicks(MAX_TICKS - BigInt(match[1]!)), uniqueSuffix: match[2]! };
}

/**
 * Time-ordered RowKey: 19-digit ticks, then `_` and a unique suffix (oldest first).
 *
 * @throws {ValidationError} for an instant outside 1601–9999.
 */
export function ticksRowKey(at: Date, uniqueSuffix: string): string {
  assertStorableDate(at);
  assertSuffix(uniqueSuffix);
  return `${toTicks(at).toString().padStart(19, '0')}_${uniqueSuffix}`;
}

/** Reverses {@link ticksRowKey}. */
export function parseTicksRowKey(rowKey: string): { at: Date; uniqueSuffix: string } | undefined {
  const match = /^(\d{19})_([A-Za-z0-9-]{1,64})$/.exec(rowKey);
  if (!match) return undefined;
  return { at: fromTicks(BigInt(match[1]!)), uniqueSuffix: match[2]! };
}

/** `[ge, lt)` RowKey bounds of {@link ticksRowKey} keys with time in `[from, to)`. */
export function ticksRowKeyRange(from: Date, to: Date): { ge: string; lt: string } {
  assertStorableDate(from);
  assertStorableDate(to);
  return {
    ge: toTicks(from).toString().padStart(19, '0'),
    lt: toTicks(to).toString().padStart(19, '0'),
  };
}

/** `value` in decimal, zero-padded to `width` digits. */
export function pad(value: number, width: number): string {
  return value.toString().padStart(width, '0');
}

/** `YYYYMMDD` of an instant's UTC day. */
export function utcDayStamp(at: Date): string {
  return `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}`;
}

/** Reverses {@link utcDayStamp}: midnight UTC of that day, or `undefined` if not a real date. */
export function parseUtcDayStamp(stamp: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(stamp);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC treats years 0-99 as 1900-1999; setUTCFullYear keeps them literal.
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
    ? date
    : undefined;
}
