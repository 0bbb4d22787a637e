/**
 * Untrusted text as the console shows it and links to it: pure functions (no DOM), so they are
 * unit-tested (test/unit/console/).
 */

/**
 * Characters that would change how a line reads rather than show: C0 controls and DEL, C1
 * controls, the line and paragraph separators, and the bidirectional overrides and isolates (which
 * reorder what follows them).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character made visible, so a message is always one line that reads as
 * it was sent: a C0 control or DEL as its Unicode control picture (`\n` → `␊`, tab → `␉`), the
 * others (C1, separators, bidi controls) as `\u{…}`.
 */
export function visibleControls(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\u{${code.toString(16).toUpperCase()}}`;
  });
}

/**
 * A `mailto:` URL with `address` as its only recipient: the address percent-encoded as one
 * `addr-spec` of RFC 6068 (so `?`, `&`, `%` or `#` in a stored value cannot add headers such as
 * `bcc`, nor a second recipient), `@` kept readable.
 */
export function mailtoHref(address: string): string {
  return `mailto:${encodeURIComponent(address).replaceAll('%40', '@')}`;
}
