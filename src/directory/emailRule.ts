/**
 * The one rule for an employee's email address, for the API, the import and the console (pure: no
 * zod, no storage, so the console bundles it); docs/security.md "Untrusted text". The form a
 * directory needs, RFC 5322's `addr-spec` without its rarely used and often abused corners:
 * - local part: a dot-atom (single dots, none at either end) of letters and digits of any script
 *   (RFC 6532) and `atext` symbols but `%` (what makes `ada%40contoso.com` a second address) and
 *   `?` (what starts a `mailto:` query): no quoted strings, spaces, `"` or `\`;
 * - domain: two labels or more of letters, digits and inner hyphens, the last two letters or more
 *   or an A-label (`xn--…`); a single-letter top-level label (`x@y.z`) is a typo: none exists;
 * - at most 254 characters (RFC 5321). Its 64-character local-part limit is not applied: nothing
 *   depends on it, and long local parts were accepted before.
 * Letters and digits count in any script (`\p{L}`, `\p{M}`, `\p{N}`); emoji, spaces of every
 * kind, control, format and bidirectional characters do not.
 */

/** Longest email address (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;
const ATOM = String.raw`[\p{L}\p{M}\p{N}!#$&'*+\-\/=^_\x60{|}~]+`;
const LABEL = String.raw`[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}\-]*[\p{L}\p{M}\p{N}])?`;
const TOP_LABEL = String.raw`(?:\p{L}[\p{L}\p{M}]+|[Xx][Nn]--[A-Za-z0-9\-]*[A-Za-z0-9])`;

/**
 * The rule's form as a regular expression (Unicode mode, no other flag, so JSON Schema's `pattern`
 * in the OpenAPI document says the same); the length is checked beside it.
 */
export const EMAIL_PATTERN = new RegExp(
  String.raw`^${ATOM}(?:\.${ATOM})*@(?:${LABEL}\.)+${TOP_LABEL}$`,
  'u',
);

/** What a person is told when an address breaks the rule. */
export const EMAIL_RULE =
  'must be an email address like ada.lovelace@contoso.com: a local part of letters, digits and ' +
  "!#$&'*+-/=^_`{|}~ with single dots between them, one @, then a domain with a dot and a top-level " +
  'domain of two letters or more; no spaces, no ? or %, at most 254 characters';

/** True when `value` is an address the directory accepts (see the module comment). */
export function isDirectoryEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}
