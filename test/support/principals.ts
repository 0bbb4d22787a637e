/**
 * Ready-made callers for tests: `x-ms-client-principal` header values (API.md "Authorization")
 * and a helper that adds one to a `fetch` request.
 *
 *   await fetch(`${host.baseUrl}/departments`, asAdmin());
 *   await fetch(url, asPrincipal(employeePrincipal('Sales', '000223'), { method: 'POST', body }));
 */
import { PRINCIPAL_HEADER } from '../../src/identity/principal';
import {
  encodePrincipalHeader,
  type PrincipalDescription,
} from '../../tools/easyauth/principalHeader';
import { directoryEditorRole, directoryReaderRole } from '../../src/identity/roles';

export { PRINCIPAL_HEADER };

/** A principal header for any description (odd roles, extra claims...). */
export function principalHeader(description: PrincipalDescription): string {
  return encodePrincipalHeader(description);
}

/** `DirectoryAdmin`: may do everything (setup calls, tests not about authorization). */
export const adminPrincipal = encodePrincipalHeader({
  userId: 'test-admin',
  roles: ['DirectoryAdmin'],
});

/** `TelemetryWriter`: a service that posts logins, access events, message counts and logs. */
export const telemetryPrincipal = encodePrincipalHeader({
  userId: 'test-telemetry',
  roles: ['TelemetryWriter'],
});

/** The employee (department, employeeId) itself, with no role. */
export function employeePrincipal(department: string, employeeId: string): string {
  return encodePrincipalHeader({
    userId: `test-employee-${department}-${employeeId}`,
    employee: { department, employeeId },
  });
}

/** `DirectoryReader:{department}` (a space written `%20`). */
export function readerPrincipal(department: string): string {
  return encodePrincipalHeader({
    userId: `test-reader-${department}`,
    roles: [directoryReaderRole(department)],
  });
}

/** `DirectoryEditor:{department}` (a space written `%20`). */
export function editorPrincipal(department: string): string {
  return encodePrincipalHeader({
    userId: `test-editor-${department}`,
    roles: [directoryEditorRole(department)],
  });
}

/** A signed-in user with no role and no employee claims (e.g. the user of `GET /logins/{userId}`). */
export function userPrincipal(userId: string): string {
  return encodePrincipalHeader({ userId });
}

/** `init` with the principal header added to its headers (the other headers are kept). */
export function asPrincipal(header: string, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set(PRINCIPAL_HEADER, header);
  return { ...init, headers };
}

/** `init` sent as `DirectoryAdmin`. */
export const asAdmin = (init?: RequestInit): RequestInit => asPrincipal(adminPrincipal, init);

/** `init` sent as `TelemetryWriter`. */
export const asTelemetry = (init?: RequestInit): RequestInit =>
  asPrincipal(telemetryPrincipal, init);
