"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getEmployeeByEmailEventually = getEmployeeByEmailEventually;
exports.findEmployeesAcrossOrganisation = findEmployeesAcrossOrganisation;
const directoryErrors_1 = require("../directory/directoryErrors");
const employeeEntity_1 = require("../directory/employeeEntity");
const employeeQueries_1 = require("../directory/employeeQueries");
const employeeState_1 = require("../directory/employeeState");
const state_1 = require("../directory/state");
const tables_1 = require("../directory/tables");
const validation_1 = require("../directory/validation");
const errors_1 = require("../errors");
const mapBounded_1 = require("../logins/mapBounded");
const keys_1 = require("../storage/keys");
const indexEntities_1 = require("./indexEntities");
/**
 * The employee with this email in the department, from the inter-partition index (may lag behind
 * writes by the index lag). The ETag is the source email copy's, which `If-Match` accepts.
 *
 * @throws {NotFoundError} `EmailNotFound` when the index has no such entry.
 * @throws {DomainError} for storage faults.
 */
async function getEmployeeByEmailEventually(index, department, email) {
    await (0, tables_1.ensureTable)(index);
    const entity = await (0, state_1.readEntity)(index, (0, keys_1.emailIndexPartitionKey)(department), (0, keys_1.emailIndexRowKey)(email));
    const employee = entity?.EntityType === indexEntities_1.IndexEntityTypes.byEmail
        ? (0, indexEntities_1.indexEntryToEmployee)(department, entity)
        : undefined;
    if (!entity || !employee)
        throw (0, directoryErrors_1.emailNotFound)(department, email);
    return {
        value: employee,
        etag: typeof entity.SourceETag === 'string' ? entity.SourceETag : entity.etag,
    };
}
/** The token's scope: a token only continues the lookup of the same (normalised) last name. */
function lookupScope(wanted) {
    return `org-lastname|${wanted}`;
}
function compareMembers(a, b) {
    if (a.department !== b.department)
        return a.department < b.department ? -1 : 1;
    return a.employeeId < b.employeeId ? -1 : a.employeeId > b.employeeId ? 1 : 0;
}
function project(employee, fields) {
    if (!fields)
        return employee;
    const json = {
        department: employee.department,
        employeeId: employee.employeeId,
    };
    for (const field of fields) {
        const value = employee[field];
        if (value !== undefined)
            json[field] = value;
    }
    return json;
}
/**
 * A page of the organisation's employees with this last name (case-insensitive), ordered by
 * department and id. The index gives the members; each page point-reads at most `pageSize` of
 * them (16 in parallel) and drops any whose current last name no longer matches, then reads
 * further members until the page is full or the list ends — so a page may be short only at the
 * end. The continuation token names the last member examined; members added before it while a
 * client pages are not returned by that paging run (it is a snapshot-free walk in key order).
 *
 * @throws {ValidationError} for an invalid page size, select field or continuation token.
 * @throws {DomainError} for storage faults.
 */
async function findEmployeesAcrossOrganisation(employees, lastNames, lastName, options = {}) {
    const pageSize = options.pageSize ?? validation_1.DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > validation_1.MAX_PAGE_SIZE) {
        throw new errors_1.ValidationError(`query.pageSize: must be a whole number from 1 to ${validation_1.MAX_PAGE_SIZE}.`, 'query.pageSize', 'InvalidPageSize');
    }
    const fields = (0, employeeQueries_1.parseEmployeeSelect)(options.select);
    const wanted = (0, keys_1.normalizeLastName)(lastName);
    const scope = lookupScope(wanted);
    const after = options.continuationToken
        ? (0, keys_1.decodeContinuationToken)(scope, options.continuationToken)
        : undefined;
    const members = (await lastNames.members(wanted)).sort(compareMembers);
    let next = after
        ? members.findIndex((m) => compareMembers(m, {
            department: after.nextPartitionKey,
            employeeId: after.nextRowKey ?? '',
        }) > 0)
        : 0;
    if (next < 0)
        next = members.length;
    const items = [];
    while (items.length < pageSize && next < members.length) {
        const batch = members.slice(next, next + (pageSize - items.length));
        next += batch.length;
        const found = await (0, mapBounded_1.mapBounded)(batch, 16, async (member) => {
            const state = await (0, employeeState_1.readEmployeeState)(employees, (0, keys_1.departmentPartitionKey)(member.department), member.employeeId);
            return state && (0, keys_1.normalizeLastName)(state.data.lastName) === wanted
                ? project((0, employeeEntity_1.toEmployee)(member.department, state.data), fields)
                : undefined;
        });
        for (const item of found)
            if (item !== undefined)
                items.push(item);
    }
    const last = members[next - 1];
    return {
        items,
        continuationToken: next < members.length && last
            ? (0, keys_1.encodeContinuationToken)(scope, {
                nextPartitionKey: last.department,
                nextRowKey: last.employeeId,
            })
            : null,
    };
}
//# sourceMappingURL=indexQueries.js.map