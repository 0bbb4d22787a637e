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

/** An invalid input as the API names it (`body.firstName`) and what is wrong with it. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** `body.firstName`, `body.entries[3].level` → the form field's name (`firstName`, `entries`). */
function fieldName(path: string): string | undefined {
  return /^(?:body|query)\.([A-Za-z0-9_]+)/i.exec(path)?.[1];
}

/** A label as a name in a sentence: "Age (empty: not given)" → "Age". */
function labelName(label: string): string {
  return label.replace(/\s*\(.*\)\s*$/, '').trim();
}

/**
 * An API error in a person's words: each `body.field: problem` becomes "<the field's label>
 * problem." (`labelOf` finds the label of a form field by its name). A message naming no field
 * the form has is kept, its `body.…:` path taken off.
 */
export function inPeoplesWords(
  message: string,
  problems: readonly FieldProblem[],
  labelOf: (name: string) => string | undefined,
): string {
  const label = (path: string): string | undefined => {
    const name = fieldName(path);
    const found = name === undefined ? undefined : labelOf(name);
    return found ? labelName(found) : undefined;
  };
  const described = problems
    .filter((p) => p.problem.trim() !== '')
    .map((p) => ({ label: label(p.field), problem: p.problem.trim().replace(/\.$/, '') }));
  if (described.length > 0 && described.every((d) => d.label !== undefined)) {
    return described.map((d) => `${d.label} ${d.problem}.`).join(' ');
  }
  const prefixed = /^((?:body|query)\.[A-Za-z0-9_.[\]]+):\s*(.*)$/is.exec(message.trim());
  if (!prefixed) return message;
  const rest = prefixed[2]!;
  const name = label(prefixed[1]!);
  if (name) return `${name} ${rest}`;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
