/**
 * Input schemas shared by the time-and-volume adapters (expenses, logins, message statistics,
 * access events): employee route parameters and timestamps.
 */
import { z } from 'zod';
import { isDepartmentName, isEmployeeId } from '../../src/storage/keys';
import { isStorableInstant, parseUtcDay } from '../../src/time/instants';

/** `{dept}` and `{id}` of `/departments/{dept}/employees/{id}/...`. Only their format is checked. */
export const employeeRoute = z.object({
  dept: z.string().refine(isDepartmentName, 'use 1-64 letters, digits, spaces, "-" or "_"'),
  id: z.string().refine(isEmployeeId, 'use exactly six digits, e.g. 000223'),
});

/**
 * An ISO 8601 instant with `Z` or an offset (`2026-11-22T10:00:00+05:30`), as a UTC `Date`.
 * Text without a zone is refused (it would be ambiguous), and so are instants storage cannot hold
 * (before 1601 or after 9999).
 */
export const instant = z.iso
  .datetime({
    offset: true,
    message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-22T10:00:00Z',
  })
  .transform((text) => new Date(text))
  .refine(isStorableInstant, 'must lie between 1601-01-01 and 9999-12-31 UTC');

/** A `YYYY-MM-DD` calendar date, as midnight UTC. */
export const utcDay = z
  .string()
  .transform((text) => parseUtcDay(text))
  .refine(
    (day): day is Date => day !== undefined,
    'must be a real date YYYY-MM-DD between 1601 and 9999',
  );

/** A whole number in a query string, within bounds. */
export function queryInt(min: number, max: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^\d{1,7}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`);
}
