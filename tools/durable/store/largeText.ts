/**
 * Text longer than one table property can hold (64 KiB = 32K UTF-16 characters), spread over
 * numbered properties `<name>`, `<name>_1`, ... with the count in `<name>_Parts`.
 */

/** Characters per property, safely under the 32K-character limit. */
export const CHARS_PER_PROPERTY = 30_000;

/** Properties one entity may spend on large text (an entity holds at most 1 MiB). */
export const MAX_PROPERTIES_PER_ENTITY = 15;

/** The text does not fit in one entity. */
export class TextTooLargeError extends Error {
  constructor(what: string, chars: number) {
    super(
      `${what} is ${chars} characters long; the local durable runtime stores at most ` +
        `${CHARS_PER_PROPERTY * MAX_PROPERTIES_PER_ENTITY} characters per value.`,
    );
    this.name = 'TextTooLargeError';
  }
}

/**
 * The properties holding `text` (none when undefined).
 *
 * @throws {TextTooLargeError} when the text needs more than {@link MAX_PROPERTIES_PER_ENTITY}
 *   properties.
 */
export function textProperties(
  name: string,
  text: string | undefined,
): Record<string, string | number> {
  if (text === undefined) return { [`${name}_Parts`]: 0 };
  const parts = splitText(text);
  if (parts.length > MAX_PROPERTIES_PER_ENTITY) throw new TextTooLargeError(name, text.length);
  const properties: Record<string, string | number> = { [`${name}_Parts`]: parts.length };
  parts.forEach((part, index) => {
    properties[index === 0 ? name : `${name}_${index}`] = part;
  });
  return properties;
}

/** Reverses {@link textProperties}; undefined when the entity holds no such text. */
export function readTextProperties(
  entity: Record<string, unknown>,
  name: string,
): string | undefined {
  const count = entity[`${name}_Parts`];
  if (typeof count !== 'number' || count === 0) {
    // Rows written without the count (by hand) still read as a single property.
    return typeof entity[name] === 'string' && count === undefined
      ? (entity[name] as string)
      : undefined;
  }
  let text = '';
  for (let index = 0; index < count; index += 1) {
    const part = entity[index === 0 ? name : `${name}_${index}`];
    if (typeof part !== 'string') throw new Error(`Property ${name} part ${index} is missing.`);
    text += part;
  }
  return text;
}

/**
 * Splits text into property-sized parts (at least one, possibly empty), never between the two
 * halves of a surrogate pair.
 */
export function splitText(text: string, size = CHARS_PER_PROPERTY): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts.length === 0 ? [''] : parts;
}
