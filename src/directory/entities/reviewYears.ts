/**
 * The years of an employee's yearly reviews, as the employee entity carries them (pure).
 *
 * A review is written only in the same entity group transaction as a Merge of its employee that
 * adds its year to this list, conditional on the employee's ETag (reviews.ts). So the employee
 * always names every review it has, and a delete, an archive or a move takes exactly those reviews
 * (`review_<id>_<year>` row keys) without listing the partition.
 *
 * Stored as one string property, `ReviewYears`: the 4-digit years in ascending order, concatenated
 * (`"201920222024"`). Years are 1900-9999, so the longest list (8,100 years) is 32,400 characters,
 * under the 64 KiB string limit. An employee written before employees carried the list has no
 * such property: its reviews are unknown and are read from the review range once (legacy data).
 */
import type { TableEntity } from '@azure/data-tables';
import { employeeRowKey } from '../../storage/keys/tables/employees';
import { invalidReviewYear } from '../directoryErrors';

/** Property of the employee entity that lists its review years. */
export const REVIEW_YEARS_PROPERTY = 'ReviewYears';

/**
 * Property of the employee entity that keeps the ETag of its last data write (of the fields a
 * PATCH writes) while only its bookkeeping changed since — its review years, the manager flag, its
 * photo — so a client's `If-Match` from before such a write still names the data it saw, and a
 * move still recognises the copy it wrote (orchestrations/move/copyToTarget.ts).
 */
export const DATA_ETAG_PROPERTY = 'DataETag';

const YEAR_LIST = /^(?:\d{4})*$/;

/**
 * The stored form of a list of review years: ascending, without duplicates, 4 digits each.
 *
 * @throws {RangeError} for a year that is not an integer in 1900-9999.
 */
export function encodeReviewYears(years: Iterable<number>): string {
  return normaliseYears(years)
    .map((year) => String(year))
    .join('');
}

/**
 * Reverses {@link encodeReviewYears}. `undefined` when the entity has no list, or a list this
 * version cannot read (its reviews are then unknown, as for legacy data).
 */
export function parseReviewYears(value: unknown): number[] | undefined {
  if (typeof value !== 'string' || !YEAR_LIST.test(value)) return undefined;
  const years: number[] = [];
  for (let i = 0; i < value.length; i += 4) years.push(Number(value.slice(i, i + 4)));
  if (years.some((year) => year < 1900)) return undefined;
  return normaliseYears(years);
}

/**
 * The years, ascending and without duplicates.
 *
 * @throws {RangeError} for a year that is not an integer in 1900-9999.
 */
export function normaliseYears(years: Iterable<number>): number[] {
  const unique = [...new Set(years)];
  for (const year of unique) {
    if (!Number.isInteger(year) || year < 1900 || year > 9999) {
      throw invalidReviewYear(year);
    }
  }
  return unique.sort((a, b) => a - b);
}

/**
 * The years plus `added`.
 *
 * @throws {RangeError} for a year that is not an integer in 1900-9999.
 */
export function withReviewYears(years: Iterable<number>, added: Iterable<number>): number[] {
  return normaliseYears([...years, ...added]);
}

/** The years without `removed`. */
export function withoutReviewYears(years: readonly number[], removed: Iterable<number>): number[] {
  const gone = new Set(removed);
  return years.filter((year) => !gone.has(year));
}

/**
 * The Merge of an employee entity that records its review years, for the same transaction as the
 * review writes or deletes it accounts for (conditional on the employee's ETag). `dataEtag` is the
 * ETag of the employee's last data write, kept so that a client's `If-Match` still matches.
 *
 * @throws {ValidationError} for an invalid department key or employee id.
 * @throws {RangeError} for a year that is not an integer in 1900-9999.
 */
export function employeeReviewYearsMerge(
  partitionKey: string,
  employeeId: string,
  years: Iterable<number>,
  dataEtag: string,
): TableEntity<Record<string, unknown>> {
  return {
    partitionKey,
    rowKey: employeeRowKey(employeeId),
    [REVIEW_YEARS_PROPERTY]: encodeReviewYears(years),
    [DATA_ETAG_PROPERTY]: dataEtag,
  };
}
