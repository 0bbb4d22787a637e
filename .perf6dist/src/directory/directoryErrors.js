"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.departmentNotFound = departmentNotFound;
exports.employeeNotFound = employeeNotFound;
exports.emailNotFound = emailNotFound;
exports.employeeExists = employeeExists;
exports.emailTaken = emailTaken;
exports.staleVersion = staleVersion;
/**
 * The directory's domain errors, phrased once.
 */
const errors_1 = require("../errors");
/** 404: the department does not exist. */
function departmentNotFound(department) {
    return new errors_1.NotFoundError('DepartmentNotFound', `Department "${department}" does not exist.`);
}
/** 404: no such employee in that department. */
function employeeNotFound(department, employeeId) {
    return new errors_1.NotFoundError('EmployeeNotFound', `Employee ${employeeId} does not exist in department "${department}".`);
}
/** 404: no employee with that email in that department. */
function emailNotFound(department, email) {
    return new errors_1.NotFoundError('EmployeeNotFound', `No employee with email ${JSON.stringify(email)} exists in department "${department}".`);
}
/** 409: the employee id is taken. */
function employeeExists(department, employeeId) {
    return new errors_1.ConflictError('EmployeeExists', `Employee ${employeeId} already exists in department "${department}".`);
}
/** 409: another employee of the department has that email (compared case-insensitively). */
function emailTaken(department, email) {
    return new errors_1.ConflictError('EmailTaken', `Email ${JSON.stringify(email)} is already used in department "${department}".`);
}
/** 412: the caller's `If-Match` no longer matches. */
function staleVersion(what) {
    return new errors_1.PreconditionFailedError(`${what} changed since it was read: the If-Match ETag no longer matches. Read it again and retry.`);
}
//# sourceMappingURL=directoryErrors.js.map