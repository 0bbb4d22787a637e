"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EMPLOYEE_PAGE_SIZE = void 0;
exports.listEmployeePageActivity = listEmployeePageActivity;
exports.archiveEmployeeActivity = archiveEmployeeActivity;
/**
 * The department archive's activities: one page of a department's employee ids, and archiving
 * one employee through the very sequence the `archive-requests` queue worker runs
 * ({@link archiveEmployee}: copy to `EmployeesArchive`, then the directory's idempotent delete).
 */
const archiveEmployee_1 = require("../../archive/archiveEmployee");
const directoryErrors_1 = require("../../directory/directoryErrors");
const employeeQueries_1 = require("../../directory/employeeQueries");
const state_1 = require("../../directory/state");
const refusal_1 = require("../refusal");
/** Employees per listing page (one activity lists a page; the fan-out then archives it). */
exports.EMPLOYEE_PAGE_SIZE = 100;
/**
 * Activity: one page of the department's employee ids (the first page also checks that the
 * department exists). Archived employees leave the partition, and the token resumes after the
 * last id returned, so no employee is listed twice or skipped.
 */
function listEmployeePageActivity(services, input) {
    return (0, refusal_1.refuseOnPermanentError)(async () => {
        if (input.continuationToken === null) {
            const department = await (0, state_1.loadDepartment)(services.directory, input.department, false);
            if (!department)
                throw (0, directoryErrors_1.departmentNotFound)(input.department);
        }
        const page = await (0, employeeQueries_1.listEmployeeEntities)(services.directory, input.department, {
            pageSize: exports.EMPLOYEE_PAGE_SIZE,
            continuationToken: input.continuationToken ?? undefined,
        });
        return {
            employeeIds: page.entities.map((e) => String(e.EmployeeId)),
            continuationToken: page.continuationToken,
        };
    });
}
/** Activity: archives one employee (safe to run again: the sequence is idempotent). */
async function archiveEmployeeActivity(services, input) {
    const result = await (0, archiveEmployee_1.archiveEmployee)({
        employees: await services.directory.table(),
        archive: services.archive,
        directory: services.employees,
    }, input.department, input.employeeId);
    return result.outcome;
}
//# sourceMappingURL=archiveActivities.js.map