"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditOrgLastNames = auditOrgLastNames;
const employeeEntity_1 = require("../../directory/employeeEntity");
const employeeQueries_1 = require("../../directory/employeeQueries");
const employeeState_1 = require("../../directory/employeeState");
const paging_1 = require("../../directory/paging");
const lastNameStore_1 = require("../../indexing/lastNameStore");
const keys_1 = require("../../storage/keys");
const indexDiff_1 = require("./indexDiff");
const keyOf = (m) => `${m.lastName}\u0001${(0, lastNameStore_1.encodeMember)(m.member)}`;
/** Properties needed to decode a primary employee (the rest is not read). */
const PRIMARY_SELECT = ['EntityType', 'EmployeeId', 'FirstName', 'LastName', 'Email'];
/**
 * Compares (and with `repair`, fixes) the organisation-wide last-name index against the primary
 * employees of `departments`.
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when a member list kept changing.
 */
async function auditOrgLastNames(employees, lastNames, departments, repair) {
    const stored = [];
    for (const [lastName, members] of await lastNames.all()) {
        for (const member of members)
            stored.push({ lastName, member });
    }
    const expected = [];
    for (const department of departments) {
        const primaries = await (0, paging_1.readWholeRange)(employees, { partitionKey: (0, keys_1.departmentPartitionKey)(department), ...(0, keys_1.employeeRowKeyRange)() }, PRIMARY_SELECT);
        for (const primary of primaries.filter(employeeQueries_1.isPrimaryEmployee)) {
            const data = (0, employeeEntity_1.readEmployeeData)(primary);
            expected.push({
                lastName: (0, keys_1.normalizeLastName)(data.lastName),
                member: { department, employeeId: data.employeeId },
            });
        }
    }
    const diff = (0, indexDiff_1.diffIndex)((0, indexDiff_1.byKey)(expected, keyOf), (0, indexDiff_1.byKey)(stored, keyOf), () => true);
    const counts = {
        checked: diff.checked,
        missing: diff.missing.length,
        stale: diff.orphaned.length,
        repaired: 0,
    };
    if (!repair)
        return counts;
    const currentLastName = async (member) => {
        const state = await (0, employeeState_1.readEmployeeState)(employees, (0, keys_1.departmentPartitionKey)(member.department), member.employeeId);
        return state && (0, keys_1.normalizeLastName)(state.data.lastName);
    };
    for (const { lastName, member } of diff.missing) {
        if ((await currentLastName(member)) !== lastName)
            continue;
        await lastNames.add(lastName, member);
        counts.repaired++;
    }
    for (const { lastName, member } of diff.orphaned) {
        if ((await currentLastName(member)) === lastName)
            continue;
        await lastNames.remove(lastName, member);
        counts.repaired++;
    }
    return counts;
}
//# sourceMappingURL=orgLastNameAudit.js.map