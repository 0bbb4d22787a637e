/**
 * The directory's app roles and the questions asked of them.
 *
 * Roles are Entra ID app roles defined on the app registration and assigned to users, groups or
 * service principals; they reach the app as `roles` claims (docs/security.md explains the set up).
 * Role values are compared exactly, department names included: `DirectoryReader:Sales` grants
 * `Sales`, not `sales`. Entra ID app role values cannot contain spaces, so a space in a department
 * name is written `%20` (`DirectoryReader:Human%20Resources`); department names never contain `%`,
 * so that spelling is unambiguous and the only one accepted.
 */
import type { Principal } from './principal';

/** Everything, in every department; orchestrations, SAS policy rotation, logs. */
export const DIRECTORY_ADMIN = 'DirectoryAdmin';
/** A service that posts logins, access events, message counts and logs. */
export const TELEMETRY_WRITER = 'TelemetryWriter';

const READER_PREFIX = 'DirectoryReader:';
const EDITOR_PREFIX = 'DirectoryEditor:';

function departmentRole(prefix: string, department: string): string {
  return prefix + department.replace(/ /g, '%20');
}

function parseDepartmentRole(prefix: string, role: string): string | undefined {
  if (!role.startsWith(prefix) || role.length === prefix.length) return undefined;
  const department = role.slice(prefix.length);
  return department.includes(' ') ? undefined : department.replace(/%20/g, ' ');
}

/** The role that lets its holder read one department: `DirectoryReader:Sales`. */
export function directoryReaderRole(department: string): string {
  return departmentRole(READER_PREFIX, department);
}

/** Reverses {@link directoryReaderRole}; `undefined` for any other role (or a literal space). */
export function parseDirectoryReaderRole(role: string): string | undefined {
  return parseDepartmentRole(READER_PREFIX, role);
}

/** The role that lets its holder write one department: `DirectoryEditor:Sales`. */
export function directoryEditorRole(department: string): string {
  return departmentRole(EDITOR_PREFIX, department);
}

/** Reverses {@link directoryEditorRole}; `undefined` for any other role (or a literal space). */
export function parseDirectoryEditorRole(role: string): string | undefined {
  return parseDepartmentRole(EDITOR_PREFIX, role);
}

/** True when the principal holds `DirectoryAdmin`. */
export function isDirectoryAdmin(principal: Principal): boolean {
  return principal.roles.has(DIRECTORY_ADMIN);
}

/** True when the principal holds `TelemetryWriter`. */
export function isTelemetryWriter(principal: Principal): boolean {
  return principal.roles.has(TELEMETRY_WRITER);
}

/** True when the principal may read the department's directory: admin or its reader. */
export function canReadDepartment(principal: Principal, department: string): boolean {
  return isDirectoryAdmin(principal) || principal.roles.has(directoryReaderRole(department));
}

/** True when the principal may write the department's directory: admin or its editor. */
export function canEditDepartment(principal: Principal, department: string): boolean {
  return isDirectoryAdmin(principal) || principal.roles.has(directoryEditorRole(department));
}

/**
 * True when the principal is that employee: both its `department` and its `employeeId` claim
 * match. Ids are unique only within a department, so the id alone never identifies anybody.
 */
export function isEmployee(principal: Principal, department: string, employeeId: string): boolean {
  return (
    principal.employee !== undefined &&
    principal.employee.department === department &&
    principal.employee.employeeId === employeeId
  );
}
