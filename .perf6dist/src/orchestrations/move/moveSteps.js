"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateMove = validateMove;
exports.removeFromSource = removeFromSource;
const deleteEmployee_1 = require("../../directory/deleteEmployee");
const directoryErrors_1 = require("../../directory/directoryErrors");
const employeeState_1 = require("../../directory/employeeState");
const state_1 = require("../../directory/state");
const errors_1 = require("../../errors");
const keys_1 = require("../../storage/keys");
const moveRequest_1 = require("./moveRequest");
/**
 * Checks a move before anything is written: the source has the employee, the target department
 * exists, and neither the id nor the email is taken in the target (except by this very move's
 * copy, from an earlier try).
 *
 * @throws {ValidationError} `SameDepartment` when source and target are one department.
 * @throws {NotFoundError} `EmployeeNotFound`, `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target.
 * @throws {DomainError} for storage faults.
 */
async function validateMove(context, move) {
    if (move.department === move.toDepartment) {
        throw new errors_1.ValidationError(`Employee ${move.employeeId} is already in department "${move.department}".`, 'body.toDepartment', 'SameDepartment');
    }
    const table = await context.table();
    const targetPk = (0, keys_1.departmentPartitionKey)(move.toDepartment);
    const [source, targetDepartment, target] = await Promise.all([
        (0, employeeState_1.readEmployeeState)(table, (0, keys_1.departmentPartitionKey)(move.department), move.employeeId),
        (0, state_1.loadDepartment)(context, move.toDepartment, false),
        (0, employeeState_1.readEmployeeState)(table, targetPk, move.employeeId),
    ]);
    if (!targetDepartment)
        throw (0, directoryErrors_1.departmentNotFound)(move.toDepartment);
    if (!source) {
        if (target)
            return { state: 'alreadyMoved' };
        throw (0, directoryErrors_1.employeeNotFound)(move.department, move.employeeId);
    }
    if (target && target.meta.writeId !== (0, moveRequest_1.moveWriteId)(move.moveId)) {
        throw (0, directoryErrors_1.employeeExists)(move.toDepartment, move.employeeId);
    }
    const emailCopy = await (0, state_1.readEntity)(table, targetPk, (0, keys_1.emailRowKey)(source.data.email), [
        'EmployeeId',
    ]);
    if (emailCopy && emailCopy.EmployeeId !== move.employeeId) {
        throw (0, directoryErrors_1.emailTaken)(move.toDepartment, source.data.email);
    }
    return { state: 'ready', employee: { email: source.data.email, lastName: source.data.lastName } };
}
/**
 * Removes the employee from the source department (employee, email copy, count, last-name index
 * entry in one transaction, then its reviews) — only once the target holds an employee with the
 * id, so a mistaken call can never lose it. Deleting what is already gone is not an error.
 *
 * @returns whether this call deleted it.
 * @throws {NotFoundError} `EmployeeNotFound` when the target does not hold the employee.
 * @throws {ThrottledError} when the source department kept changing, or storage is busy.
 */
async function removeFromSource(context, move) {
    const table = await context.table();
    const target = await (0, employeeState_1.readEmployeeState)(table, (0, keys_1.departmentPartitionKey)(move.toDepartment), move.employeeId);
    if (!target)
        throw (0, directoryErrors_1.employeeNotFound)(move.toDepartment, move.employeeId);
    const { deleted } = await (0, deleteEmployee_1.deleteEmployee)(context, move.department, move.employeeId, {
        mustExist: false,
    });
    return { removed: deleted };
}
//# sourceMappingURL=moveSteps.js.map