/**
 * Input schemas every HTTP adapter shares: route parameters (`{dept}`, `{id}`), names in bodies,
 * paging and projection parameters, whole numbers in query strings, instants and calendar days.
 * Only formats are checked here; whether a department or employee exists is the services' answer.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../src/directory';
import { isDepartmentName, isEmployeeId } from '../../src/storage/keys/identifiers';
import { isStorableInstant, parseUtcDay } from '../../src/time/instants';

/** A department name (route parameter or body field). */
export const departmentName = z
  .string()
  .refine(isDepartmentName, 'use 1-64 letters, digits, spaces, "-" or "_"');

/** An employee id (route parameter or body field). */
export const employeeId = z.string().refine(isEmployeeId, 'use exactly six digits, e.g. 000223');

/** `{dept}` of `/departments/{dept}/...`. */
export const departmentRoute = z.object({ dept: departmentName });

/** `{dept}` and `{id}` of `/departments/{dept}/employees/{id}/...`. */
export const employeeRoute = departmentRoute.extend({ id: employeeId });

/** A whole number in a query string, within bounds. */
export function queryInt(min: number, max: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^\d{1,7}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`);
}

/** `pageSize`: a whole number 1-1000. */
const pageSizeParam = queryInt(1, MAX_PAGE_SIZE);

/** `select=a,b`: field names (the service checks they exist). */
const selectParam = z
  .string()
  .max(200)
  .transform((text) => text.split(',').map((f) => f.trim()))
  .refine(
    (fields) => fields.every((f) => /^[A-Za-z]{1,40}$/.test(f)),
    'must be a comma-separated list of field names',
  );

/** Paging and projection parameters every list route accepts. */
export const listParams = {
  pageSize: pageSizeParam.optional(),
  continuationToken: z.string().min(1).max(4096).optional(),
  select: selectParam.optional(),
};

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
