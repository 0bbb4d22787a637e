"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DIRECTORY_ADMIN = void 0;
exports.directoryReaderRole = directoryReaderRole;
exports.parseDirectoryReaderRole = parseDirectoryReaderRole;
exports.isDirectoryAdmin = isDirectoryAdmin;
exports.canReadDepartment = canReadDepartment;
exports.isEmployee = isEmployee;
exports.requireDirectoryAdmin = requireDirectoryAdmin;
/**
 * The directory's app roles and the questions asked of them.
 *
 * Roles are Entra ID app roles defined on the app registration and assigned to users or groups;
 * they reach the app as `roles` claims in the App Service principal (docs/sas.md explains the set
 * up). Role names are compared exactly, department names included: `DirectoryReader:Sales` grants
 * `Sales`, not `sales`.
 */
const errors_1 = require("../errors");
/** Full read access to the directory and its logs; may rotate SAS policies. */
exports.DIRECTORY_ADMIN = 'DirectoryAdmin';
const READER_PREFIX = 'DirectoryReader:';
/**
 * The role that lets its holder read one department: `DirectoryReader:Sales`. Entra ID app role
 * values cannot contain spaces, so a space in the department name is written `%20`
 * (`DirectoryReader:Human%20Resources`); department names never contain `%`, so this is unambiguous.
 */
function directoryReaderRole(department) {
    return READER_PREFIX + department.replace(/ /g, '%20');
}
/** Reverses {@link directoryReaderRole} (also accepting literal spaces); `undefined` for other roles. */
function parseDirectoryReaderRole(role) {
    return role.startsWith(READER_PREFIX) && role.length > READER_PREFIX.length
        ? role.slice(READER_PREFIX.length).replace(/%20/g, ' ')
        : undefined;
}
/** True when the principal holds `DirectoryAdmin`. */
function isDirectoryAdmin(principal) {
    return principal.roles.has(exports.DIRECTORY_ADMIN);
}
/** True when the principal may read the department: `DirectoryAdmin` or its `DirectoryReader`. */
function canReadDepartment(principal, department) {
    return (isDirectoryAdmin(principal) ||
        principal.roles.has(directoryReaderRole(department)) ||
        // A principal written by hand (local runs) may spell the space out.
        principal.roles.has(READER_PREFIX + department));
}
/** True when the principal is that employee (its `employeeId` claim matches). */
function isEmployee(principal, employeeId) {
    return principal.employeeId !== undefined && principal.employeeId === employeeId;
}
/**
 * Demands `DirectoryAdmin`.
 *
 * @throws {ForbiddenError} when the principal does not hold it.
 */
function requireDirectoryAdmin(principal, what) {
    if (!isDirectoryAdmin(principal)) {
        throw new errors_1.ForbiddenError(`Only a ${exports.DIRECTORY_ADMIN} may ${what}.`);
    }
}
//# sourceMappingURL=roles.js.map