"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listDepartmentPageActivity = listDepartmentPageActivity;
exports.auditDepartmentActivity = auditDepartmentActivity;
exports.auditOrgLastNamesActivity = auditOrgLastNamesActivity;
/**
 * The audit's activities: list departments, audit one department's indexes, audit the
 * organisation-wide last-name index. Each reads before it writes and repairs only with
 * conditional or idempotent writes, so running one again is safe.
 */
const departmentPages_1 = require("../departmentPages");
const employeeIndexAudit_1 = require("./employeeIndexAudit");
const orgLastNameAudit_1 = require("./orgLastNameAudit");
const samePartitionAudit_1 = require("./samePartitionAudit");
/** Activity: one page of department names. */
function listDepartmentPageActivity(services, input) {
    return (0, departmentPages_1.departmentPage)(services.directory, input.continuationToken);
}
/**
 * Activity: audits (and with `repair`, fixes) a department's same-partition indexes and its
 * `EmployeeIndex` entries. The `EmployeeIndex` entries are read before the primaries.
 */
async function auditDepartmentActivity(services, input) {
    const stores = services.indexStores;
    const outside = await (0, employeeIndexAudit_1.readEmployeeIndexEntries)(stores.index, input.department);
    const samePartition = await (0, samePartitionAudit_1.auditSamePartitionIndexes)(await services.directory.table(), input.department, input.repair);
    const inter = await (0, employeeIndexAudit_1.auditEmployeeIndex)(stores, input.department, outside, samePartition.snapshot.primaries, input.repair);
    return { ...samePartition.counts, ...inter };
}
/** Activity: audits (and with `repair`, fixes) the organisation-wide last-name index. */
async function auditOrgLastNamesActivity(services, input) {
    const departments = await (0, departmentPages_1.allDepartments)(services.directory);
    return (0, orgLastNameAudit_1.auditOrgLastNames)(await services.directory.table(), services.indexStores.lastNames, departments, input.repair);
}
//# sourceMappingURL=auditActivities.js.map