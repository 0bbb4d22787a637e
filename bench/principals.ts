/**
 * Callers for the benchmark cases that go through the host's HTTP API: `x-ms-client-principal`
 * header values (API.md "Authorization"), the same shape as test/support/principals.ts (which
 * bench/ does not import).
 */
import { PRINCIPAL_HEADER } from '../src/identity/principal';
import { encodePrincipalHeader } from '../tools/easyauth/principalHeader';
import { directoryReaderRole } from '../src/identity/roles';

export { PRINCIPAL_HEADER };

/** `DirectoryAdmin` (set-up calls). */
export const adminPrincipal = encodePrincipalHeader({
  userId: 'bench-admin',
  roles: ['DirectoryAdmin'],
});

/** The employee (department, employeeId) itself, with no role. */
export function employeePrincipal(department: string, employeeId: string): string {
  return encodePrincipalHeader({
    userId: `bench-employee-${department}-${employeeId}`,
    employee: { department, employeeId },
  });
}

/** `DirectoryReader:{department}`. */
export function readerPrincipal(department: string): string {
  return encodePrincipalHeader({
    userId: `bench-reader-${department}`,
    roles: [directoryReaderRole(department)],
  });
}

/** `init` with the principal header added to its headers. */
export function asPrincipal(header: string, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set(PRINCIPAL_HEADER, header);
  return { ...init, headers };
}

/** `TelemetryWriter` (message counts, logs). */
export const telemetryPrincipal = encodePrincipalHeader({
  userId: 'bench-telemetry',
  roles: ['TelemetryWriter'],
});
