/**
 * The text format of a log blob: one entry per line, `;`-delimited fields, UTF-8.
 *
 * ```
 * 1.0;2026-11-22T15:04:05.123Z;Error;<batchId>.<part>;<message>;<extra JSON>
 * ```
 *
 * Fields 5 and 6 are escaped (`\\`, `\;`, `\n`, `\r`), so a line never holds a raw line break and
 * an unescaped `;` always ends a field; field 4, the message part's tag, lets a flusher tell
 * whether a redelivered part is already stored.
 *
 * Why: docs/logs.md "Line format (version 1.0)".
 */
import { isLogLevel, type LogLevel } from './levels';
import type { LogEntry } from '../entry';
import {
  extraNotAnObject,
  invalidLineTag,
  malformedLineEscape,
  malformedLineHeader,
  notALogLine,
  wrongFieldCount,
} from '../logErrors';

/** Version written in field 1 and in the `LogVersion` metadata. */
export const LOG_FORMAT_VERSION = '1.0';

/** A stored line: the entry and the tag of the message part that delivered it. */
export interface LogLine {
  entry: LogEntry;
  tag: string;
}

const TAG = /^[A-Za-z0-9-]{1,64}\.\d{1,6}$/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', ';': '\\;', '\n': '\\n', '\r': '\\r' };

/** The tag of one part of one batch: `<batchId>.<part>`. */
export function batchPartTag(batchId: string, part: number): string {
  const tag = `${batchId}.${part}`;
  if (!TAG.test(tag)) throw invalidLineTag(batchId, part);
  return tag;
}

/** Escapes a free-text field (`\`, `;`, line feed, carriage return). */
export function escapeField(text: string): string {
  return text.replace(/[\\;\n\r]/g, (c) => ESCAPES[c]!);
}

/**
 * Reverses {@link escapeField}.
 *
 * @throws {Error} for a dangling `\` or an unknown escape.
 */
export function unescapeField(text: string): string {
  return text.replace(/\\([\s\S]?)/g, (_, c: string) => {
    switch (c) {
      case '\\':
        return '\\';
      case ';':
        return ';';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      default:
        throw malformedLineEscape(c);
    }
  });
}

/** Formats one entry as a line (without the trailing line feed). */
export function encodeLogLine(entry: LogEntry, tag: string): string {
  const extraKeys = Object.keys(entry.extra);
  const extra = extraKeys.length === 0 ? '' : escapeField(JSON.stringify(entry.extra));
  return `${LOG_FORMAT_VERSION};${entry.at.toISOString()};${entry.level};${tag};${escapeField(entry.message)};${extra}`;
}

/** The four fixed fields of a line, read without unescaping anything. */
export interface LineHeader {
  atMs: number;
  level: LogLevel;
  tag: string;
  /** Offset of the message field in the line. */
  bodyStart: number;
}

/**
 * Reads fields 1–4 of a line; cheap enough to filter millions of lines by time and level.
 *
 * @throws {Error} when the line is not in this format.
 */
export function readLineHeader(line: string): LineHeader {
  const v = line.indexOf(';');
  const a = line.indexOf(';', v + 1);
  const l = line.indexOf(';', a + 1);
  const t = line.indexOf(';', l + 1);
  if (v < 0 || a < 0 || l < 0 || t < 0 || line.slice(0, v) !== LOG_FORMAT_VERSION) {
    throw notALogLine(LOG_FORMAT_VERSION, line);
  }
  const atMs = Date.parse(line.slice(v + 1, a));
  const level = line.slice(a + 1, l);
  const tag = line.slice(l + 1, t);
  if (Number.isNaN(atMs) || !isLogLevel(level) || !TAG.test(tag)) {
    throw malformedLineHeader(line.slice(0, t));
  }
  return { atMs, level, tag, bodyStart: t + 1 };
}

/** Index of the first `;` not escaped by a `\`, or -1. */
function unescapedSemicolon(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x3b /* ; */) return i;
  }
  return -1;
}

/**
 * Parses a whole line.
 *
 * @throws {Error} when the line is not in this format.
 */
export function decodeLogLine(line: string, header: LineHeader = readLineHeader(line)): LogLine {
  const split = unescapedSemicolon(line, header.bodyStart);
  if (split < 0 || unescapedSemicolon(line, split + 1) >= 0) {
    throw wrongFieldCount(line);
  }
  const message = unescapeField(line.slice(header.bodyStart, split));
  const extraText = unescapeField(line.slice(split + 1));
  let extra: Record<string, unknown> = {};
  if (extraText !== '') {
    const parsed: unknown = JSON.parse(extraText);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw extraNotAnObject();
    }
    extra = parsed as Record<string, unknown>;
  }
  return {
    entry: { at: new Date(header.atMs), level: header.level, message, extra },
    tag: header.tag,
  };
}
