/**
 * What the directory accepts as input, as zod schemas shared by the service (which validates
 * again, so nothing unchecked reaches storage whoever calls it) and the HTTP adapters.
 *
 * Free text (names, comments) may hold any character a user can type — quotes, `/`, `#`, `?`,
 * `%`, non-Latin letters, emoji — but no control characters and no lone UTF-16 surrogates (they
 * cannot round-trip through JSON and storage). Email addresses follow a rule of their own
 * (./emailRule.ts).
 */
import { z } from 'zod';
import { invalidPageSize } from './directoryErrors';
import { EMAIL_PATTERN, EMAIL_RULE, MAX_EMAIL_LENGTH } from './emailRule';

export { isDirectoryEmail, MAX_EMAIL_LENGTH } from './emailRule';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Longest first or last name, in UTF-16 code units (keeps every key well under 1 KiB). */
export const MAX_NAME_LENGTH = 200;
/** Longest department description. */
export const MAX_DESCRIPTION_LENGTH = 1000;
/** Longest review comment. */
export const MAX_COMMENTS_LENGTH = 4000;
/** Largest `pageSize` (the service's own page limit). */
export const MAX_PAGE_SIZE = 1000;
/** `pageSize` when the caller gives none. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The page size a listing uses: the caller's, or {@link DEFAULT_PAGE_SIZE}.
 *
 * @throws {ValidationError} `InvalidPageSize` unless it is a whole number 1-{@link MAX_PAGE_SIZE}.
 */
export function pageSizeOf(requested: number | undefined): number {
  const size = requested ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw invalidPageSize(MAX_PAGE_SIZE);
  }
  return size;
}

const wellFormed = (value: string): boolean => !LONE_SURROGATE.test(value);

/** A person's first or last name: 1-200 characters, not blank, no control characters. */
export const personNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((v) => v.trim() !== '', 'must not be blank')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine(wellFormed, 'must be well-formed Unicode');

/**
 * An email address as the directory accepts it for a create, a PATCH or an import row: the one
 * rule of ./emailRule.ts (the console checks the same before it sends). Stored exactly as given;
 * compared case-insensitively. Rows stored under the looser rule before it still read, and are
 * found by lookups: only new values are held to it. Not zod's `z.email()`: its pattern is ASCII
 * only, and the directory keeps addresses in any script; the OpenAPI document shows the pattern.
 */
export const emailSchema = z
  .string()
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .regex(EMAIL_PATTERN, EMAIL_RULE);

/** Employee id: exactly six digits. */
export const employeeIdSchema = z
  .string()
  .regex(/^\d{6}$/, 'must be exactly six digits, e.g. 000223');

/** Age in whole years. */
export const ageSchema = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be at least 0')
  .max(150, 'must be at most 150');

/** Body of `POST /departments/{dept}/employees` and one row of an import. */
export const newEmployeeSchema = z.strictObject({
  employeeId: employeeIdSchema,
  firstName: personNameSchema,
  lastName: personNameSchema,
  email: emailSchema,
  age: ageSchema.optional(),
});
export type NewEmployee = z.infer<typeof newEmployeeSchema>;

/** Body of `PATCH /departments/{dept}/employees/{id}`: one field or more; `age: null` clears it. */
export const employeePatchSchema = z
  .strictObject({
    firstName: personNameSchema.optional(),
    lastName: personNameSchema.optional(),
    email: emailSchema.optional(),
    age: ageSchema.nullable().optional(),
  })
  .refine(
    (patch) => Object.values(patch).some((v) => v !== undefined),
    'give at least one of firstName, lastName, email, age',
  );
export type EmployeePatch = z.infer<typeof employeePatchSchema>;

/** Body of `POST /departments/{dept}/employees/import` (rows are validated one by one). */
export const importBodySchema = z.strictObject({
  employees: z
    .array(z.unknown())
    .min(1, 'must hold at least one employee')
    .max(1000, 'must hold at most 1000 employees per call'),
});

/** Body of `PUT /departments/{dept}`. */
export const departmentBodySchema = z.strictObject({
  description: z
    .string()
    .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
    .refine((v) => !CONTROL_EXCEPT_WHITESPACE.test(v), 'must not contain control characters')
    .refine(wellFormed, 'must be well-formed Unicode')
    .optional(),
});
export type DepartmentBody = z.infer<typeof departmentBodySchema>;

/** Body of `PUT /departments/{dept}/manager`. */
export const managerBodySchema = z.strictObject({ employeeId: employeeIdSchema });

const ratingSchema = z
  .number()
  .min(0, 'must be between 0 and 10')
  .max(10, 'must be between 0 and 10');

/** Body of `PUT /departments/{dept}/employees/{id}/reviews/{year}`. */
export const reviewBodySchema = z.strictObject({
  managerRating: ratingSchema,
  peerRating: ratingSchema,
  comments: z
    .string()
    .max(MAX_COMMENTS_LENGTH, `must be at most ${MAX_COMMENTS_LENGTH} characters`)
    .refine((v) => !CONTROL_EXCEPT_WHITESPACE.test(v), 'must not contain control characters')
    .refine(wellFormed, 'must be well-formed Unicode')
    .optional(),
});
export type ReviewBody = z.infer<typeof reviewBodySchema>;

/** A review year. */
export const yearSchema = z.coerce
  .number()
  .int('must be a whole year')
  .min(1900, 'must be 1900-9999')
  .max(9999, 'must be 1900-9999');

/** Free text used as a lookup or range bound (email bound, last name to look up). */
export const lookupTextSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine(wellFormed, 'must be well-formed Unicode');

export { describeIssues, plainWords, validateInput } from '../domainErrors';
