/**
 * Who may call what: the access rules routes declare next to their registration (API.md,
 * "Authorization"), and the one decision made from them before any storage is read.
 *
 * A rule looks only at the caller and at the request's target — the department, employee id or
 * user id named in the route (or, for one route, the query) — never at stored data, so a 403 can
 * never reveal whether the thing asked for exists.
 */
import { forbidden, unauthenticated } from './identityErrors';
import type { Principal } from './principal';
import {
  canEditDepartment,
  canReadDepartment,
  DIRECTORY_ADMIN,
  isDirectoryAdmin,
  isEmployee,
  isTelemetryWriter,
  TELEMETRY_WRITER,
} from './roles';

/** What a request is about, as far as authorization cares. */
export interface AccessTarget {
  department?: string;
  employeeId?: string;
  /** A login user id (`GET /logins/{userId}`). */
  userId?: string;
}

/** Who may call a route. */
export interface AccessRule {
  /** Who, in words: shown in 403 messages, docs and the OpenAPI description. */
  readonly description: string;
  /**
   * What a refused caller lacks, for the 403 message, when the description does not say it as a
   * role (`{dept}` is filled in with the request's department). Default: the description.
   */
  readonly needs?: string;
  /** Whether the rule admits callers without identity (only `GET /health`). */
  readonly anonymous: boolean;
  /** Whether this authenticated caller may make this request. */
  allows(principal: Principal, target: AccessTarget): boolean;
}

function rule(description: string, allows: AccessRule['allows']): AccessRule {
  return { description, anonymous: false, allows };
}

/** Anybody, signed in or not. */
export const anonymous: AccessRule = {
  description: 'anyone',
  anonymous: true,
  allows: () => true,
};

/** Any signed-in caller. */
export const signedIn = rule('any signed-in caller', () => true);

/** `DirectoryAdmin`. */
export const admin = rule(DIRECTORY_ADMIN, (principal) => isDirectoryAdmin(principal));

/** `DirectoryReader:{dept}` (or admin). */
export const departmentReader = rule(
  'DirectoryReader:{dept}',
  (principal, { department }) =>
    department !== undefined && canReadDepartment(principal, department),
);

/** `DirectoryEditor:{dept}` (or admin). */
export const departmentEditor = rule(
  'DirectoryEditor:{dept}',
  (principal, { department }) =>
    department !== undefined && canEditDepartment(principal, department),
);

/**
 * `DirectoryReader:{department}` when the request names a department; otherwise any signed-in
 * caller, whose results the route limits to the departments it may read.
 */
export const departmentReaderWhenNamed: AccessRule = {
  ...rule(
    'DirectoryReader:{department} when a department is named, else any signed-in caller (results limited to readable departments)',
    (principal, { department }) =>
      department === undefined || canReadDepartment(principal, department),
  ),
  // Refused only when a department is named: then its reader role is what was missing.
  needs: 'DirectoryReader:{dept}',
};

/** The employee (department, employeeId) the route names. */
export const self = rule(
  'the employee itself',
  (principal, { department, employeeId }) =>
    department !== undefined &&
    employeeId !== undefined &&
    isEmployee(principal, department, employeeId),
);

/** `TelemetryWriter`. */
export const telemetryWriter = rule(TELEMETRY_WRITER, (principal) => isTelemetryWriter(principal));

/** The user the route names (`userId` claim of the principal). */
export const theUser = rule(
  'that user',
  (principal, { userId }) => userId !== undefined && principal.userId === userId,
);

/** Any of the rules; `DirectoryAdmin` is always among them (it may do everything). */
export function anyOf(...rules: AccessRule[]): AccessRule {
  const all = rules.includes(admin) ? rules : [...rules, admin];
  const combined = rule(all.map((r) => r.description).join(' or '), (principal, target) =>
    all.some((r) => r.allows(principal, target)),
  );
  return all.some((r) => r.needs !== undefined)
    ? { ...combined, needs: all.map((r) => r.needs ?? r.description).join(' or ') }
    : combined;
}

/**
 * The decision: returns when the caller may make the request.
 *
 * @param principal - the authenticated caller, `undefined` when the request carried no identity.
 * @throws {UnauthenticatedError} when the rule needs an identity and there is none.
 * @throws {ForbiddenError} when the caller is not one the rule admits.
 */
export function authorize(
  access: AccessRule,
  principal: Principal | undefined,
  target: AccessTarget,
): void {
  if (access.anonymous) return;
  if (principal === undefined) throw unauthenticated();
  if (!access.allows(principal, target)) {
    // Name the roles that would have been enough, as Entra writes them (a space as %20).
    const words = access.needs ?? access.description;
    const needed =
      target.department === undefined
        ? words
        : words.replace(/\{dept\}/g, target.department.replace(/ /g, '%20'));
    throw forbidden(needed);
  }
}
