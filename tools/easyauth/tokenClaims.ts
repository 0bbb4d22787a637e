/**
 * The token claims that make App Service authentication hand the app a given principal: the
 * inverse of {@link ./clientPrincipal}. Tests describe callers as they do for hand-sent headers
 * (`encodePrincipalHeader`'s description, or an already encoded header, forged ones included);
 * through the Azure-mode front the same caller is a bearer token with these claims.
 */
import type { JWTPayload } from 'jose';
import { OBJECT_ID_CLAIM_URI } from './clientPrincipal';
import { encodePrincipalHeader, type PrincipalDescription } from './principalHeader';

/** Who a caller is: a principal description, or an `x-ms-client-principal` value (base64 JSON). */
export type PrincipalLike = PrincipalDescription | string;

/** Claim types the platform writes from the token's own fields; never taken from a header. */
const ISSUED_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'nonce']);

/**
 * Decodes the claims of an encoded principal header.
 *
 * @throws {Error} when the value is not base64 JSON with a `claims` array of `{typ, val}` strings.
 */
function headerClaims(header: string): { typ: string; val: string }[] {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    throw new Error('The principal header is not base64 JSON.');
  }
  const claims = (body as { claims?: unknown } | null)?.claims;
  if (
    !Array.isArray(claims) ||
    !claims.every(
      (c: { typ?: unknown; val?: unknown } | null) =>
        typeof c?.typ === 'string' && typeof c.val === 'string',
    )
  ) {
    throw new Error('The principal header has no claims array of {typ, val} strings.');
  }
  return claims as { typ: string; val: string }[];
}

/**
 * The JWT claims of a token for this caller: each principal claim under its type (the object id
 * URI as `oid`), a type seen once as a string, several times as an array, `roles` always as an
 * array (as Entra ID issues it). The registered claims (`iss`, `aud`, `exp`...) are left to the
 * issuer.
 *
 * @throws {Error} when an encoded header cannot be decoded.
 */
export function claimsForPrincipal(principal: PrincipalLike): JWTPayload {
  const header = typeof principal === 'string' ? principal : encodePrincipalHeader(principal);
  const grouped = new Map<string, string[]>();
  for (const { typ, val } of headerClaims(header)) {
    const type = typ === OBJECT_ID_CLAIM_URI ? 'oid' : typ;
    if (ISSUED_CLAIMS.has(type)) continue;
    const values = grouped.get(type) ?? [];
    // The URI and `oid` may both carry the object id: one claim, not two.
    if (!values.includes(val) || type !== 'oid') values.push(val);
    grouped.set(type, values);
  }
  const payload: JWTPayload = {};
  for (const [type, values] of grouped) {
    payload[type] = values.length === 1 && type !== 'roles' ? values[0] : values;
  }
  return payload;
}
