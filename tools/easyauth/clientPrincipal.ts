/**
 * The identity headers App Service authentication hands the app once it has validated a caller's
 * token, built from that token's claims:
 *
 * - `x-ms-client-principal`: base64 of `{auth_typ, name_typ, role_typ, claims: [{typ, val}]}`,
 *   one claim per value of each JWT claim (an array claim such as `roles` becomes several
 *   claims; numbers and booleans are written as text, objects as JSON), and the object id `oid`
 *   a second time under the claim type .NET maps it to
 *   (`http://schemas.microsoft.com/identity/claims/objectidentifier`);
 * - `x-ms-client-principal-id` (the object id, else the subject), `-name` (the sign-in name),
 *   `-idp` (`aad`).
 *
 * The platform strips every client-sent header of these families before it adds its own
 * ({@link isPlatformIdentityHeader}); the app parses the principal in src/identity/principal.ts.
 */
import type { JWTPayload } from 'jose';
import { PRINCIPAL_HEADER, type Claim } from './principalHeader';

/** Claim type under which .NET (and so App Service) also writes the object id. */
export const OBJECT_ID_CLAIM_URI = 'http://schemas.microsoft.com/identity/claims/objectidentifier';
/** `name_typ` of an Entra ID principal. */
export const NAME_CLAIM_URI = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name';
/** The identity provider name of Microsoft Entra ID in App Service authentication. */
export const AAD_PROVIDER = 'aad';

/** The decoded `x-ms-client-principal` object. */
export interface ClientPrincipal {
  auth_typ: string;
  name_typ: string;
  role_typ: string;
  claims: Claim[];
}

/** One claim value as text. */
function claimText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The principal's claims: one per JWT claim value, `oid` also under its .NET claim type. */
export function principalClaims(payload: JWTPayload): Claim[] {
  const claims: Claim[] = [];
  for (const [typ, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      claims.push({ typ, val: claimText(item) });
      if (typ === 'oid') claims.push({ typ: OBJECT_ID_CLAIM_URI, val: claimText(item) });
    }
  }
  return claims;
}

/** The principal object App Service builds from a validated Entra ID token. */
export function clientPrincipal(payload: JWTPayload): ClientPrincipal {
  return {
    auth_typ: AAD_PROVIDER,
    name_typ: NAME_CLAIM_URI,
    role_typ: 'roles',
    claims: principalClaims(payload),
  };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The user id App Service reports: the object id, else the subject. */
export function principalId(payload: JWTPayload): string | undefined {
  return text(payload.oid) ?? text(payload.sub);
}

/** The sign-in name App Service reports (`preferred_username`, `upn`, `email`, then `name`). */
export function principalName(payload: JWTPayload): string | undefined {
  return (
    text(payload.preferred_username) ??
    text(payload.upn) ??
    text(payload.email) ??
    text(payload.name) ??
    text(payload.unique_name)
  );
}

/**
 * A header value as bytes on the wire: UTF-8, carried by Node as latin1 characters (Node refuses
 * characters above U+00FF in headers; a server writing UTF-8 sends the same bytes).
 */
const wire = (value: string): string => Buffer.from(value, 'utf8').toString('latin1');

/** The headers App Service adds to an authenticated request, by lower-case name. */
export function principalHeaders(payload: JWTPayload): Record<string, string> {
  const headers: Record<string, string> = {
    [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(clientPrincipal(payload)), 'utf8').toString(
      'base64',
    ),
    [`${PRINCIPAL_HEADER}-idp`]: AAD_PROVIDER,
  };
  const id = principalId(payload);
  if (id !== undefined) headers[`${PRINCIPAL_HEADER}-id`] = wire(id);
  const name = principalName(payload);
  if (name !== undefined) headers[`${PRINCIPAL_HEADER}-name`] = wire(name);
  return headers;
}

/**
 * Whether a request header belongs to the families the platform owns (`x-ms-client-principal*`,
 * `x-ms-token-*`): a client's copy is removed before the request reaches the app.
 */
export function isPlatformIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith(PRINCIPAL_HEADER) || lower.startsWith('x-ms-token-');
}
