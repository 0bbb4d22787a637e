"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LOG_FORMAT_VERSION = void 0;
exports.batchPartTag = batchPartTag;
exports.escapeField = escapeField;
exports.unescapeField = unescapeField;
exports.encodeLogLine = encodeLogLine;
exports.readLineHeader = readLineHeader;
exports.decodeLogLine = decodeLogLine;
/**
 * The text format of a log blob: one entry per line, `;`-delimited fields, UTF-8.
 *
 * ```
 * 1.0;2026-11-22T15:04:05.123Z;Error;<batchId>.<part>;<message>;<extra JSON>
 * ```
 *
 * - field 1: format version (`1.0`, also the blob's `LogVersion` metadata);
 * - field 2: the entry's time, ISO 8601 UTC with milliseconds (always 24 characters);
 * - field 3: the level;
 * - field 4: the tag of the queue message part that delivered the line (batch id and part index),
 *   which lets a flusher tell whether a redelivered part is already stored;
 * - field 5: the message, escaped;
 * - field 6: the entry's extra fields as a JSON object, escaped, or empty when there are none.
 *
 * Escapes (fields 5 and 6 only; fields 1–4 never need them): `\\` for `\`, `\;` for `;`, `\n` for
 * a line feed, `\r` for a carriage return. So a line never holds a raw line break and an
 * unescaped `;` always ends a field. Lines end with `\n` (the byte 0x0A never occurs inside a
 * multi-byte UTF-8 sequence, so readers may split the raw bytes on it).
 */
const levels_1 = require("./levels");
/** Version written in field 1 and in the `LogVersion` metadata. */
exports.LOG_FORMAT_VERSION = '1.0';
const TAG = /^[A-Za-z0-9-]{1,64}\.\d{1,6}$/;
const ESCAPES = { '\\': '\\\\', ';': '\\;', '\n': '\\n', '\r': '\\r' };
/** The tag of one part of one batch: `<batchId>.<part>`. */
function batchPartTag(batchId, part) {
    const tag = `${batchId}.${part}`;
    if (!TAG.test(tag))
        throw new Error(`Invalid batch id "${batchId}" or part ${part}.`);
    return tag;
}
/** Escapes a free-text field (`\`, `;`, line feed, carriage return). */
function escapeField(text) {
    return text.replace(/[\\;\n\r]/g, (c) => ESCAPES[c]);
}
/**
 * Reverses {@link escapeField}.
 *
 * @throws {Error} for a dangling `\` or an unknown escape.
 */
function unescapeField(text) {
    return text.replace(/\\([\s\S]?)/g, (_, c) => {
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
                throw new Error(`Malformed escape "\\${c}" in a log line.`);
        }
    });
}
/** Formats one entry as a line (without the trailing line feed). */
function encodeLogLine(entry, tag) {
    const extraKeys = Object.keys(entry.extra);
    const extra = extraKeys.length === 0 ? '' : escapeField(JSON.stringify(entry.extra));
    return `${exports.LOG_FORMAT_VERSION};${entry.at.toISOString()};${entry.level};${tag};${escapeField(entry.message)};${extra}`;
}
/**
 * Reads fields 1–4 of a line; cheap enough to filter millions of lines by time and level.
 *
 * @throws {Error} when the line is not in this format.
 */
function readLineHeader(line) {
    const v = line.indexOf(';');
    const a = line.indexOf(';', v + 1);
    const l = line.indexOf(';', a + 1);
    const t = line.indexOf(';', l + 1);
    if (v < 0 || a < 0 || l < 0 || t < 0 || line.slice(0, v) !== exports.LOG_FORMAT_VERSION) {
        throw new Error(`Not a version ${exports.LOG_FORMAT_VERSION} log line: "${line.slice(0, 80)}".`);
    }
    const atMs = Date.parse(line.slice(v + 1, a));
    const level = line.slice(a + 1, l);
    const tag = line.slice(l + 1, t);
    if (Number.isNaN(atMs) || !(0, levels_1.isLogLevel)(level) || !TAG.test(tag)) {
        throw new Error(`Malformed log line header: "${line.slice(0, t)}".`);
    }
    return { atMs, level, tag, bodyStart: t + 1 };
}
/** Index of the first `;` not escaped by a `\`, or -1. */
function unescapedSemicolon(text, from) {
    for (let i = from; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */)
            i++;
        else if (c === 0x3b /* ; */)
            return i;
    }
    return -1;
}
/**
 * Parses a whole line.
 *
 * @throws {Error} when the line is not in this format.
 */
function decodeLogLine(line, header = readLineHeader(line)) {
    const split = unescapedSemicolon(line, header.bodyStart);
    if (split < 0 || unescapedSemicolon(line, split + 1) >= 0) {
        throw new Error(`Log line has the wrong number of fields: "${line.slice(0, 80)}".`);
    }
    const message = unescapeField(line.slice(header.bodyStart, split));
    const extraText = unescapeField(line.slice(split + 1));
    let extra = {};
    if (extraText !== '') {
        const parsed = JSON.parse(extraText);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
            throw new Error('The extra field of a log line is not a JSON object.');
        }
        extra = parsed;
    }
    return {
        entry: { at: new Date(header.atMs), level: header.level, message, extra },
        tag: header.tag,
    };
}
//# sourceMappingURL=lineFormat.js.map