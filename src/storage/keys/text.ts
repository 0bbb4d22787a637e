/**
 * Free text in keys: the reversible escape that makes any text key-safe, canonical forms, prefix
 * ranges.
 */
import { malformedKeyEscape, noPrefixStem, notEncodedKeyText } from './keyErrors';

/** Characters that may not appear in a key, plus `%`, the escape character itself. */
// eslint-disable-next-line no-control-regex
const KEY_UNSAFE = /[%/\\#?\u0000-\u001f\u007f-\u009f]/g;

/** Largest key size the service accepts, in UTF-16 code units (1 KiB of key). */
export const MAX_KEY_LENGTH = 1024;

/**
 * Makes free text safe for a PartitionKey/RowKey: `%`, `/`, `\`, `#`, `?` and control characters
 * become `%XX` (upper-case hex); every other character, including non-Latin letters and emoji, is
 * kept, so keys stay readable and mostly in the text's own sort order.
 */
export function encodeKeyText(text: string): string {
  return text.replace(
    KEY_UNSAFE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * Reverses {@link encodeKeyText}.
 *
 * @throws {Error} when the text holds a malformed escape or a character no encoded key can hold.
 */
export function decodeKeyText(encoded: string): string {
  if (/%(?![0-9A-F]{2})/.test(encoded)) throw malformedKeyEscape(encoded);
  const decoded = encoded.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  if (encodeKeyText(decoded) !== encoded) throw notEncodedKeyText(encoded);
  return decoded;
}

/** Canonical form of an email for keys: Unicode NFC, lower case, trimmed. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

/** Canonical form of a last name for index keys: Unicode NFC, lower case, trimmed. */
export function normalizeLastName(lastName: string): string {
  return lastName.normalize('NFC').trim().toLowerCase();
}

/** `[ge, lt)` bounds that select every key starting with `prefix`. */
export function prefixRange(prefix: string): { ge: string; lt: string } {
  // Trailing U+FFFF cannot be incremented: drop it and carry into the previous character.
  const stem = prefix.replace(/\uffff+$/, '');
  if (stem === '') throw noPrefixStem();
  const last = stem.charCodeAt(stem.length - 1);
  return { ge: prefix, lt: stem.slice(0, -1) + String.fromCharCode(last + 1) };
}
