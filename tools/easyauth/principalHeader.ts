/**
 * The `x-ms-client-principal` header as App Service authentication writes it, for the clients
 * that send one by hand (`npm run principal`, seed, smoke, bench, tests) and the Azure-mode
 * token claims: base64 of the UTF-8 JSON `{auth_typ, name_typ, role_typ, claims: [{typ, val}]}`
 * (learn.microsoft.com app-service-authentication-user-identities). Written here, not with the
 * app's parser (src/identity/principal.ts), so a mistake in one shows up as a failure of the other.
 */

/** The request header App Service authentication hands the app the caller in. */
export const PRINCIPAL_HEADER = 'x-ms-client-principal';

/** One claim of the principal. */
export interface Claim {
  typ: string;
  val: string;
}

/** Claim type under which .NET (and so App Service) writes the Entra ID object id. */
const OBJECT_ID_TYPE = 'http://schemas.microsoft.com/identity/claims/objectidentifier';
/** The `role_typ` App Service writes (the app ignores it). */
const ROLE_TYPE = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role';

/** Who a hand-made principal is: what {@link encodePrincipalHeader} turns into claims. */
export interface PrincipalDescription {
  /** The object id (`oid`). */
  userId?: string;
  name?: string;
  /** App roles, sent as `roles` claims (as Entra ID issues them). */
  roles?: readonly string[];
  /** The employee the caller is: the `department` and `employeeId` claims of its token. */
  employee?: { department: string; employeeId: string };
  /** Extra claims, sent as given (tests of forged or odd headers). */
  claims?: readonly Claim[];
  /** The header's `role_typ` (App Service sends the role claim URI; the app ignores it). */
  roleType?: string;
}

/**
 * Encodes a principal the way App Service does: the given claims first, then the object id,
 * name, employee and role claims.
 */
export function encodePrincipalHeader(principal: PrincipalDescription): string {
  const claims: Claim[] = [...(principal.claims ?? [])];
  if (principal.userId !== undefined) claims.push({ typ: OBJECT_ID_TYPE, val: principal.userId });
  if (principal.name !== undefined) claims.push({ typ: 'name', val: principal.name });
  if (principal.employee !== undefined) {
    claims.push({ typ: 'department', val: principal.employee.department });
    claims.push({ typ: 'employeeId', val: principal.employee.employeeId });
  }
  for (const role of principal.roles ?? []) claims.push({ typ: 'roles', val: role });
  const body = {
    auth_typ: 'aad',
    name_typ: 'name',
    role_typ: principal.roleType ?? ROLE_TYPE,
    claims,
  };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64');
}
