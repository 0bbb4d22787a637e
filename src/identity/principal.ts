/**
 * The caller's identity as Azure App Service authentication ("Easy Auth") hands it to the app:
 * the `x-ms-client-principal` request header, base64 of a JSON object
 * `{auth_typ, name_typ, role_typ, claims: [{typ, val}]}`.
 *
 * The platform sets this header after it has validated the caller's token and strips any copy a
 * client sent, so it can be trusted only when App Service authentication is switched on for the
 * app (see {@link ./trust} and docs/security.md). Locally the same header is sent by hand
 * (`npm run principal`, which encodes it with tools/easyauth/principalHeader.ts).
 *
 * Only three things in it decide anything, and each is read exactly as sent (no trimming, no case
 * folding): the `roles` claims, and the pair of `department` and `employeeId` claims. The header's
 * own `role_typ` is ignored: a caller that could choose which claim type counts as a role could
 * promote any claim it holds (a group, a name) to `DirectoryAdmin`.
 */
import type { UnauthenticatedError } from '../domainErrors';
import { invalidPrincipal, unauthenticated } from './identityErrors';

/** Name of the request header that carries the principal. */
export const PRINCIPAL_HEADER = 'x-ms-client-principal';

/** The claim type of app roles: Entra ID app roles arrive as `roles` claims. */
const ROLE_CLAIM = 'roles';
/** The claim type of the caller's employee id (six digits). */
const EMPLOYEE_ID_CLAIM = 'employeeId';
/**
 * The claim type of the caller's department; with {@link EMPLOYEE_ID_CLAIM} it names an employee.
 */
const DEPARTMENT_CLAIM = 'department';
/**
 * Claim types of the user's object id (`oid`), the one id that is the same for a user in every
 * app. The subject (`sub`, `nameidentifier`) is not: for users it is pairwise per application, so
 * it is a different value beside `oid` and never read as the user id.
 */
const USER_ID_CLAIMS = ['http://schemas.microsoft.com/identity/claims/objectidentifier', 'oid'];
const NAME_CLAIM = 'name';
/** A real principal is a few KiB; anything far larger is not one. */
const MAX_HEADER_LENGTH = 32 * 1024;

/** One claim of the principal. */
export interface Claim {
  typ: string;
  val: string;
}

/** An employee of the directory: ids are unique only within a department. */
export interface EmployeeIdentity {
  department: string;
  employeeId: string;
}

/** An authenticated caller. */
export interface Principal {
  /** Stable user id (object id), when the principal has one. */
  userId?: string;
  /** Display or sign-in name, when present. */
  name?: string;
  /** Identity provider, e.g. `aad`. */
  identityProvider?: string;
  /** App roles assigned to the caller (`roles` claims), e.g. `DirectoryReader:Sales`. */
  roles: ReadonlySet<string>;
  /** The employee the caller is, when it carries both a `department` and an `employeeId` claim. */
  employee?: EmployeeIdentity;
  claims: readonly Claim[];
}

function malformed(reason: string): UnauthenticatedError {
  return invalidPrincipal(PRINCIPAL_HEADER, reason);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw malformed(`${field} is not a string`);
  return value;
}

function readClaims(value: unknown): Claim[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw malformed('claims is not an array');
  return value.map((claim: unknown, index) => {
    const c = claim as { typ?: unknown; val?: unknown } | null;
    if (
      c === null ||
      typeof c !== 'object' ||
      typeof c.typ !== 'string' ||
      typeof c.val !== 'string'
    ) {
      throw malformed(`claims[${index}] is not {typ, val} strings`);
    }
    return { typ: c.typ, val: c.val };
  });
}

/** The one value of a claim type; two different values make the claim ambiguous. */
function single(claims: readonly Claim[], types: readonly string[]): string | undefined {
  const values = new Set(claims.filter((c) => types.includes(c.typ)).map((c) => c.val));
  values.delete('');
  if (values.size > 1) throw malformed(`it carries more than one ${types[0]} claim`);
  return values.values().next().value;
}

/**
 * Decodes the `x-ms-client-principal` header.
 *
 * @throws {UnauthenticatedError} `Unauthenticated` when the header is absent or empty;
 *   `InvalidPrincipal` when it is not base64 JSON of the expected shape, names nobody, or carries
 *   conflicting `department`/`employeeId` claims.
 */
export function parsePrincipalHeader(header: string | null | undefined): Principal {
  if (header === null || header === undefined || header === '') throw unauthenticated();
  if (header.length > MAX_HEADER_LENGTH) throw malformed('header too long');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(header)) throw malformed('not base64');

  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    throw malformed('not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw malformed('not a JSON object');
  }
  const body = parsed as Record<string, unknown>;
  const claims = readClaims(body.claims);
  // Only claims count: a top-level `userId` (another platform's header shape) is never read.
  const userId = single(claims, USER_ID_CLAIMS);
  const name = single(claims, [NAME_CLAIM]);
  if (!userId && !name) throw malformed('it names no user');

  const department = single(claims, [DEPARTMENT_CLAIM]);
  const employeeId = single(claims, [EMPLOYEE_ID_CLAIM]);
  const roles = new Set(claims.filter((c) => c.typ === ROLE_CLAIM).map((c) => c.val));
  roles.delete('');
  return {
    userId,
    name,
    identityProvider: optionalString(body.auth_typ, 'auth_typ'),
    roles,
    ...(department !== undefined && employeeId !== undefined
      ? { employee: { department, employeeId } }
      : {}),
    claims,
  };
}

/** What `GET /api/me` tells a caller about itself: who the app believes it is. */
export interface CallerView {
  userId?: string;
  name?: string;
  /** Its app roles, sorted. */
  roles: string[];
  /** The employee it is, when it carries both claims. */
  employee?: EmployeeIdentity;
}

/** The caller as the app sees it (no claim beyond those the app decides by). */
export function describeCaller(principal: Principal): CallerView {
  return {
    ...(principal.userId !== undefined ? { userId: principal.userId } : {}),
    ...(principal.name !== undefined ? { name: principal.name } : {}),
    roles: [...principal.roles].sort(),
    ...(principal.employee ? { employee: { ...principal.employee } } : {}),
  };
}
