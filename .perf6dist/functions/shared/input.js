"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.utcDay = exports.instant = exports.listParams = exports.selectParam = exports.pageSizeParam = exports.employeeRoute = exports.departmentRoute = exports.employeeId = exports.departmentName = void 0;
exports.queryInt = queryInt;
/**
 * Input schemas every HTTP adapter shares: route parameters (`{dept}`, `{id}`), names in bodies,
 * paging and projection parameters, whole numbers in query strings, instants and calendar days.
 * Only formats are checked here; whether a department or employee exists is the services' answer.
 */
const zod_1 = require("zod");
const validation_1 = require("../../src/directory/validation");
const keys_1 = require("../../src/storage/keys");
const instants_1 = require("../../src/time/instants");
/** A department name (route parameter or body field). */
exports.departmentName = zod_1.z
    .string()
    .refine(keys_1.isDepartmentName, 'use 1-64 letters, digits, spaces, "-" or "_"');
/** An employee id (route parameter or body field). */
exports.employeeId = zod_1.z.string().refine(keys_1.isEmployeeId, 'use exactly six digits, e.g. 000223');
/** `{dept}` of `/departments/{dept}/...`. */
exports.departmentRoute = zod_1.z.object({ dept: exports.departmentName });
/** `{dept}` and `{id}` of `/departments/{dept}/employees/{id}/...`. */
exports.employeeRoute = exports.departmentRoute.extend({ id: exports.employeeId });
/** A whole number in a query string, within bounds. */
function queryInt(min, max) {
    return zod_1.z
        .string()
        .regex(/^\d{1,7}$/, `must be a whole number from ${min} to ${max}`)
        .transform(Number)
        .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`);
}
/** `pageSize`: a whole number 1-1000. */
exports.pageSizeParam = queryInt(1, validation_1.MAX_PAGE_SIZE);
/** `select=a,b`: field names (the service checks they exist). */
exports.selectParam = zod_1.z
    .string()
    .max(200)
    .transform((text) => text.split(',').map((f) => f.trim()))
    .refine((fields) => fields.every((f) => /^[A-Za-z]{1,40}$/.test(f)), 'must be a comma-separated list of field names');
/** Paging and projection parameters every list route accepts. */
exports.listParams = {
    pageSize: exports.pageSizeParam.optional(),
    continuationToken: zod_1.z.string().min(1).max(4096).optional(),
    select: exports.selectParam.optional(),
};
/**
 * An ISO 8601 instant with `Z` or an offset (`2026-11-22T10:00:00+05:30`), as a UTC `Date`.
 * Text without a zone is refused (it would be ambiguous), and so are instants storage cannot hold
 * (before 1601 or after 9999).
 */
exports.instant = zod_1.z.iso
    .datetime({
    offset: true,
    message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-22T10:00:00Z',
})
    .transform((text) => new Date(text))
    .refine(instants_1.isStorableInstant, 'must lie between 1601-01-01 and 9999-12-31 UTC');
/** A `YYYY-MM-DD` calendar date, as midnight UTC. */
exports.utcDay = zod_1.z
    .string()
    .transform((text) => (0, instants_1.parseUtcDay)(text))
    .refine((day) => day !== undefined, 'must be a real date YYYY-MM-DD between 1601 and 9999');
//# sourceMappingURL=input.js.map