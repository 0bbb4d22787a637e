"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lookupTextSchema = exports.yearSchema = exports.reviewBodySchema = exports.managerBodySchema = exports.departmentBodySchema = exports.importBodySchema = exports.employeePatchSchema = exports.newEmployeeSchema = exports.ageSchema = exports.employeeIdSchema = exports.emailSchema = exports.personNameSchema = exports.DEFAULT_PAGE_SIZE = exports.MAX_PAGE_SIZE = exports.MAX_COMMENTS_LENGTH = exports.MAX_DESCRIPTION_LENGTH = exports.MAX_EMAIL_LENGTH = exports.MAX_NAME_LENGTH = void 0;
exports.pageSizeOf = pageSizeOf;
exports.isSaneEmail = isSaneEmail;
exports.validateInput = validateInput;
exports.describeIssues = describeIssues;
/**
 * What the directory accepts as input, as zod schemas shared by the service (which validates
 * again, so nothing unchecked reaches storage whoever calls it) and the HTTP adapters.
 *
 * Free text (names, emails, comments) may hold any character a user can type — quotes, `/`, `#`,
 * `?`, `%`, non-Latin letters, emoji — but no control characters and no lone UTF-16 surrogates
 * (they cannot round-trip through JSON and storage).
 */
const zod_1 = require("zod");
const errors_1 = require("../errors");
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Longest first or last name, in UTF-16 code units (keeps every key well under 1 KiB). */
exports.MAX_NAME_LENGTH = 200;
/** Longest email address (RFC 5321 path limit). */
exports.MAX_EMAIL_LENGTH = 254;
/** Longest department description. */
exports.MAX_DESCRIPTION_LENGTH = 1000;
/** Longest review comment. */
exports.MAX_COMMENTS_LENGTH = 4000;
/** Largest `pageSize` (the service's own page limit). */
exports.MAX_PAGE_SIZE = 1000;
/** `pageSize` when the caller gives none. */
exports.DEFAULT_PAGE_SIZE = 100;
/**
 * The page size a listing uses: the caller's, or {@link DEFAULT_PAGE_SIZE}.
 *
 * @throws {ValidationError} `InvalidPageSize` unless it is a whole number 1-{@link MAX_PAGE_SIZE}.
 */
function pageSizeOf(requested) {
    const size = requested ?? exports.DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(size) || size < 1 || size > exports.MAX_PAGE_SIZE) {
        throw new errors_1.ValidationError(`query.pageSize: must be a whole number from 1 to ${exports.MAX_PAGE_SIZE}.`, 'query.pageSize', 'InvalidPageSize');
    }
    return size;
}
const wellFormed = (value) => !LONE_SURROGATE.test(value);
/** A person's first or last name: 1-200 characters, not blank, no control characters. */
exports.personNameSchema = zod_1.z
    .string()
    .min(1, 'must not be empty')
    .max(exports.MAX_NAME_LENGTH, `must be at most ${exports.MAX_NAME_LENGTH} characters`)
    .refine((v) => v.trim() !== '', 'must not be blank')
    .refine((v) => !CONTROL.test(v), 'must not contain control characters')
    .refine(wellFormed, 'must be well-formed Unicode');
/**
 * True for a sane email address: exactly one `@` with text on both sides, at most 254
 * characters, no control characters, no leading or trailing whitespace.
 */
function isSaneEmail(value) {
    const at = value.indexOf('@');
    return (value.length <= exports.MAX_EMAIL_LENGTH &&
        at > 0 &&
        at === value.lastIndexOf('@') &&
        at < value.length - 1 &&
        value.trim() === value &&
        !CONTROL.test(value) &&
        wellFormed(value));
}
/** An email address (stored exactly as given; compared case-insensitively). */
exports.emailSchema = zod_1.z
    .string()
    .max(exports.MAX_EMAIL_LENGTH, `must be at most ${exports.MAX_EMAIL_LENGTH} characters`)
    .refine(isSaneEmail, 'must be an email address: one "@" with text on both sides, no control characters, no surrounding spaces');
/** Employee id: exactly six digits. */
exports.employeeIdSchema = zod_1.z
    .string()
    .regex(/^\d{6}$/, 'must be exactly six digits, e.g. 000223');
/** Age in whole years. */
exports.ageSchema = zod_1.z
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(150, 'must be at most 150');
/** Body of `POST /departments/{dept}/employees` and one row of an import. */
exports.newEmployeeSchema = zod_1.z.strictObject({
    employeeId: exports.employeeIdSchema,
    firstName: exports.personNameSchema,
    lastName: exports.personNameSchema,
    email: exports.emailSchema,
    age: exports.ageSchema.optional(),
});
/** Body of `PATCH /departments/{dept}/employees/{id}`: at least one field; `age: null` clears it. */
exports.employeePatchSchema = zod_1.z
    .strictObject({
    firstName: exports.personNameSchema.optional(),
    lastName: exports.personNameSchema.optional(),
    email: exports.emailSchema.optional(),
    age: exports.ageSchema.nullable().optional(),
})
    .refine((patch) => Object.values(patch).some((v) => v !== undefined), 'give at least one of firstName, lastName, email, age');
/** Body of `POST /departments/{dept}/employees/import` (rows are validated one by one). */
exports.importBodySchema = zod_1.z.strictObject({
    employees: zod_1.z
        .array(zod_1.z.unknown())
        .min(1, 'must hold at least one employee')
        .max(1000, 'must hold at most 1000 employees per call'),
});
/** Body of `PUT /departments/{dept}`. */
exports.departmentBodySchema = zod_1.z.strictObject({
    description: zod_1.z
        .string()
        .max(exports.MAX_DESCRIPTION_LENGTH, `must be at most ${exports.MAX_DESCRIPTION_LENGTH} characters`)
        .refine((v) => !CONTROL_EXCEPT_WHITESPACE.test(v), 'must not contain control characters')
        .refine(wellFormed, 'must be well-formed Unicode')
        .optional(),
});
/** Body of `PUT /departments/{dept}/manager`. */
exports.managerBodySchema = zod_1.z.strictObject({ employeeId: exports.employeeIdSchema });
const ratingSchema = zod_1.z
    .number()
    .min(0, 'must be between 0 and 10')
    .max(10, 'must be between 0 and 10');
/** Body of `PUT /departments/{dept}/employees/{id}/reviews/{year}`. */
exports.reviewBodySchema = zod_1.z.strictObject({
    managerRating: ratingSchema,
    peerRating: ratingSchema,
    comments: zod_1.z
        .string()
        .max(exports.MAX_COMMENTS_LENGTH, `must be at most ${exports.MAX_COMMENTS_LENGTH} characters`)
        .refine((v) => !CONTROL_EXCEPT_WHITESPACE.test(v), 'must not contain control characters')
        .refine(wellFormed, 'must be well-formed Unicode')
        .optional(),
});
/** A review year. */
exports.yearSchema = zod_1.z.coerce
    .number()
    .int('must be a whole year')
    .min(1900, 'must be 1900-9999')
    .max(9999, 'must be 1900-9999');
/** Free text used as a lookup or range bound (email bound, last name to look up). */
exports.lookupTextSchema = zod_1.z
    .string()
    .min(1, 'must not be empty')
    .max(exports.MAX_EMAIL_LENGTH, `must be at most ${exports.MAX_EMAIL_LENGTH} characters`)
    .refine((v) => !CONTROL.test(v), 'must not contain control characters')
    .refine(wellFormed, 'must be well-formed Unicode');
/**
 * Validates `value` against `schema`.
 *
 * @param where - prefix naming where the value came from in messages (e.g. `body`).
 * @throws {ValidationError} naming the first bad field.
 */
function validateInput(schema, value, where) {
    const result = schema.safeParse(value);
    if (result.success)
        return result.data;
    throw describeIssues(result.error.issues, where);
}
/** One {@link ValidationError} naming the first of zod's issues. */
function describeIssues(issues, where) {
    const issue = issues[0];
    const field = issue && issue.path.length > 0 ? `${where}.${issue.path.join('.')}` : where;
    return new errors_1.ValidationError(`${field}: ${issue?.message ?? 'invalid value'}.`, field);
}
//# sourceMappingURL=validation.js.map