"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseEmployeeSelect = parseEmployeeSelect;
exports.getEmployee = getEmployee;
exports.getEmployeeByEmail = getEmployeeByEmail;
exports.listEmployees = listEmployees;
exports.listEmployeeEntities = listEmployeeEntities;
exports.findByLastName = findByLastName;
exports.isPrimaryEmployee = isPrimaryEmployee;
/**
 * Reading employees: point queries by id (`empid_…`) or by email (`email_…`, the
 * intra-partition secondary index), partition-scoped RowKey range queries by id range, email range
 * or email prefix, and the last-name lookup through the same-partition index entity (one read of
 * the index entity, then either one range read or a batch of parallel point reads).
 */
const node_crypto_1 = require("node:crypto");
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
const directoryErrors_1 = require("./directoryErrors");
const employeeEntity_1 = require("./employeeEntity");
const entityTypes_1 = require("./entityTypes");
const lastNameIndex_1 = require("./lastNameIndex");
const paging_1 = require("./paging");
const state_1 = require("./state");
const validation_1 = require("./validation");
/**
 * The `select` fields, validated.
 *
 * @throws {ValidationError} `InvalidSelect` naming an unknown field.
 */
function parseEmployeeSelect(select) {
    if (select === undefined)
        return undefined;
    for (const field of select) {
        if (!employeeEntity_1.EMPLOYEE_FIELDS.includes(field)) {
            throw new errors_1.ValidationError(`query.select: unknown field "${field}"; use ${employeeEntity_1.EMPLOYEE_FIELDS.join(', ')}.`, 'query.select', 'InvalidSelect');
        }
    }
    return select;
}
function toJson(entity, fields) {
    return fields
        ? (0, employeeEntity_1.projectEmployee)(entity, fields)
        : (0, employeeEntity_1.storedToEmployee)(entity);
}
/**
 * One employee by id (point query), with its ETag and stored entity.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound`.
 */
async function getEmployee(context, department, employeeId) {
    const entity = await (0, state_1.readEntity)(await context.table(), (0, keys_1.departmentPartitionKey)(department), (0, keys_1.employeeRowKey)(employeeId));
    const employee = entity && (0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employee) ? (0, employeeEntity_1.storedToEmployee)(entity) : undefined;
    if (!entity || !employee)
        throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
    return { value: employee, etag: entity.etag, entity };
}
/**
 * One employee by email (point query on the email copy). The ETag is the copy's; it is accepted
 * as `If-Match` by updates and deletes just like the employee entity's own.
 *
 * @throws {ValidationError} for an invalid department or email.
 * @throws {NotFoundError} `EmployeeNotFound`.
 */
async function getEmployeeByEmail(context, department, email) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    if (email.length === 0 || email.length > 254) {
        throw new errors_1.ValidationError('route.email: must be 1-254 characters.', 'route.email', 'InvalidEmail');
    }
    const entity = await (0, state_1.readEntity)(await context.table(), partitionKey, (0, keys_1.emailRowKey)(email));
    const employee = entity && (0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employeeEmail)
        ? (0, employeeEntity_1.storedToEmployee)(entity)
        : undefined;
    if (!entity || !employee)
        throw (0, directoryErrors_1.emailNotFound)(department, email);
    return { value: employee, etag: entity.etag };
}
function rangeOf(partitionKey, range) {
    const byId = range.fromId !== undefined || range.toId !== undefined;
    const byEmail = range.emailFrom !== undefined || range.emailTo !== undefined;
    const byPrefix = range.emailPrefix !== undefined;
    if (Number(byId) + Number(byEmail) + Number(byPrefix) > 1) {
        throw new errors_1.ValidationError('query: use one kind of range at a time: fromId/toId, emailFrom/emailTo or emailPrefix.', 'query', 'InvalidRange');
    }
    if (byEmail || byPrefix) {
        for (const [name, value] of Object.entries({
            emailFrom: range.emailFrom,
            emailTo: range.emailTo,
            emailPrefix: range.emailPrefix,
        })) {
            if (value !== undefined)
                (0, validation_1.validateInput)(validation_1.lookupTextSchema, value, `query.${name}`);
            if (value !== undefined && (0, keys_1.normalizeEmail)(value) === '') {
                throw new errors_1.ValidationError(`query.${name}: must not be blank.`, `query.${name}`, 'InvalidRange');
            }
        }
        if (byPrefix) {
            return {
                kind: 'employees-by-email',
                keys: { partitionKey, ...(0, paging_1.codePointPrefixRange)((0, keys_1.emailRowKey)(range.emailPrefix)) },
            };
        }
        const keys = { partitionKey, ...(0, keys_1.emailRowKeyRange)(range.emailFrom, range.emailTo) };
        if (keys.ge > keys.lt) {
            throw new errors_1.ValidationError('query.emailTo: must not sort before emailFrom.', 'query.emailTo', 'InvalidRange');
        }
        return { kind: 'employees-by-email', keys };
    }
    if (range.fromId !== undefined && range.toId !== undefined && range.fromId > range.toId) {
        throw new errors_1.ValidationError('query.toId: must not be smaller than fromId.', 'query.toId', 'InvalidRange');
    }
    return {
        kind: 'employees-by-id',
        keys: { partitionKey, ...(0, keys_1.employeeRowKeyRange)(range.fromId, range.toId) },
    };
}
/**
 * A page of a department's employees by id range (ordered by id), email range or email prefix
 * (ordered by normalised email); every employee when no range is given. One partition range query
 * per page, with server-side projection for `select`.
 *
 * @throws {ValidationError} for invalid bounds, page size, select or continuation token.
 */
async function listEmployees(context, department, range = {}, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const pageSize = (0, validation_1.pageSizeOf)(options.pageSize);
    const fields = parseEmployeeSelect(options.select);
    const { kind, keys } = rangeOf(partitionKey, range);
    const page = await (0, paging_1.readRangePage)(await context.table(), kind, keys, {
        pageSize,
        continuationToken: options.continuationToken,
        select: fields ? (0, employeeEntity_1.employeeSelectProperties)(fields) : undefined,
    });
    return {
        items: page.entities
            .map((e) => toJson(e, fields))
            .filter((e) => e !== undefined),
        continuationToken: page.continuationToken,
    };
}
/**
 * A page of a department's primary employee entities in id order (for workers that copy or audit
 * them: archive, index audit).
 *
 * @throws {ValidationError} for an invalid page size or continuation token.
 */
async function listEmployeeEntities(context, department, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const page = await (0, paging_1.readRangePage)(await context.table(), 'employees-by-id', { partitionKey, ...(0, keys_1.employeeRowKeyRange)() }, { pageSize: (0, validation_1.pageSizeOf)(options.pageSize), continuationToken: options.continuationToken });
    return {
        entities: page.entities.filter((e) => (0, entityTypes_1.isEntityOfType)(e, entityTypes_1.EntityTypes.employee)),
        continuationToken: page.continuationToken,
    };
}
/** Parallel point reads, at most `concurrency` at a time, results in input order. */
async function pointReads(table, partitionKey, ids, select, concurrency = 16) {
    const results = new Array(ids.length);
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, async () => {
        while (next < ids.length) {
            const i = next++;
            results[i] = await (0, state_1.readEntity)(table, partitionKey, (0, keys_1.employeeRowKey)(ids[i]), select);
        }
    }));
    return results;
}
/**
 * Employees of one department with a given last name (case-insensitive), through the
 * same-partition last-name index entity, in id order and paged over the id list: one read of the
 * index entity, then one range read when the page's ids are dense, or parallel point reads.
 *
 * @throws {ValidationError} for an invalid department, last name, page size, select or token.
 */
async function findByLastName(context, department, lastName, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const pageSize = (0, validation_1.pageSizeOf)(options.pageSize);
    const fields = parseEmployeeSelect(options.select);
    (0, validation_1.validateInput)(validation_1.lookupTextSchema, lastName, 'query.lastName');
    const name = (0, keys_1.normalizeLastName)(lastName);
    if (name === '')
        throw new errors_1.ValidationError('query.lastName: must not be blank.', 'query.lastName', 'InvalidLastName');
    // The token is bound to this last name (through the scope's hash) as well as to the partition.
    const kind = `employees-by-lastname:${(0, node_crypto_1.createHash)('sha256').update(name).digest('base64url').slice(0, 16)}`;
    const keys = { partitionKey, ...(0, keys_1.employeeRowKeyRange)() };
    const after = options.continuationToken === undefined
        ? undefined
        : (0, paging_1.resumeAfter)(kind, keys, options.continuationToken);
    const table = await context.table();
    const indexEntity = await (0, state_1.readEntity)(table, partitionKey, (0, keys_1.lastNameRowKey)(name));
    const index = indexEntity && (0, lastNameIndex_1.readLastNameIndex)(indexEntity);
    if (!index)
        return { items: [], continuationToken: null };
    const remaining = after === undefined ? index.ids : index.ids.filter((id) => (0, keys_1.employeeRowKey)(id) > after);
    const ids = remaining.slice(0, pageSize);
    if (ids.length === 0)
        return { items: [], continuationToken: null };
    // Projection: the last name is needed to check each employee still matches the index.
    const select = fields
        ? [...new Set([...(0, employeeEntity_1.employeeSelectProperties)(fields), 'LastName'])]
        : undefined;
    const first = ids[0];
    const last = ids[ids.length - 1];
    const span = Number(last) - Number(first) + 1;
    let entities;
    if (ids.length > 1 && span <= Math.min(ids.length * 2, validation_1.MAX_PAGE_SIZE)) {
        const wanted = new Set(ids);
        const page = await (0, paging_1.readRangePage)(table, 'employees-by-id', { partitionKey, ...(0, keys_1.employeeRowKeyRange)(first, last) }, { pageSize: span, select });
        entities = page.entities.filter((e) => typeof e.EmployeeId === 'string' && wanted.has(e.EmployeeId));
    }
    else {
        entities = await pointReads(table, partitionKey, ids, select);
    }
    const items = entities
        .filter((e) => e !== undefined && (0, entityTypes_1.isEntityOfType)(e, entityTypes_1.EntityTypes.employee))
        .filter((e) => typeof e.LastName === 'string' && (0, keys_1.normalizeLastName)(e.LastName) === name)
        .map((e) => (fields ? (0, employeeEntity_1.projectEmployee)(e, fields) : toJson(e, undefined)))
        .filter((e) => e !== undefined);
    return {
        items,
        continuationToken: remaining.length > ids.length ? (0, paging_1.tokenAfter)(kind, keys, (0, keys_1.employeeRowKey)(last)) : null,
    };
}
/** True when a stored entity is a readable primary employee (used by workers that scan pages). */
function isPrimaryEmployee(entity) {
    return (0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employee) && (0, employeeEntity_1.readEmployeeData)(entity) !== undefined;
}
//# sourceMappingURL=employeeQueries.js.map