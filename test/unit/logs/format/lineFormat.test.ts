import { parseLogBatch, toApiEntry, type LogEntry } from '../../../../src/logs/entry';
import {
  batchPartTag,
  decodeLogLine,
  encodeLogLine,
  escapeField,
  readLineHeader,
  unescapeField,
} from '../../../../src/logs/format/lineFormat';

const tag = batchPartTag('3f6c2a1e-0b7d-4c55-9a0e-6a1f2b3c4d5e', 2);

function entry(message: string, extra: Record<string, unknown> = {}): LogEntry {
  return { at: new Date('2026-11-22T15:04:05.123Z'), level: 'Error', message, extra };
}

describe('log line format', () => {
  it.each([
    ['plain ASCII', 'disk full'],
    ['the field delimiter', 'a;b;;c;'],
    ['backslashes and escape look-alikes', 'C:\\temp\\n is not a newline \\; \\\\'],
    ['multi-line text with CRLF', 'line one\nline two\r\nline three\r'],
    ['non-ASCII letters and emoji', 'Grüße aus Zürich — 東京 🚀 مرحبا'],
    ['control characters and a trailing backslash', '\u0000\u0007\t end\\'],
    ['an empty message', ''],
  ])('round-trips %s byte-exactly', (_, message) => {
    const line = encodeLogLine(entry(message), tag);
    expect(line).not.toMatch(/[\n\r]/);
    const decoded = decodeLogLine(line);
    expect(decoded.tag).toBe(tag);
    expect(Buffer.from(decoded.entry.message, 'utf8').equals(Buffer.from(message, 'utf8'))).toBe(
      true,
    );
    expect(decoded.entry.at.toISOString()).toBe('2026-11-22T15:04:05.123Z');
    expect(decoded.entry.level).toBe('Error');
  });

  it('keeps a delimiter inside a message from splitting fields', () => {
    const line = encodeLogLine(entry('x;Critical;y', { user: 'a;b' }), tag);
    expect(readLineHeader(line).level).toBe('Error');
    const decoded = decodeLogLine(line).entry;
    expect(decoded.message).toBe('x;Critical;y');
    expect(decoded.extra).toEqual({ user: 'a;b' });
  });

  it('keeps extra fields as JSON, including nested values and awkward keys', () => {
    const extra = JSON.parse(
      '{"requestId":"r-1","latencyMs":12.5,"tags":["a","b"],"nested":{"ok":true,"n":null},"__proto__":{"x":1},"text":"multi\\nline \\\\ ; done"}',
    ) as Record<string, unknown>;
    const decoded = decodeLogLine(encodeLogLine(entry('m', extra), tag)).entry;
    expect(JSON.stringify(decoded.extra)).toBe(JSON.stringify(extra));
    expect(Object.getPrototypeOf(decoded.extra)).toBe(Object.prototype);
    expect(JSON.stringify(toApiEntry(decoded))).toBe(
      JSON.stringify({ at: '2026-11-22T15:04:05.123Z', level: 'Error', message: 'm', ...extra }),
    );
  });

  it('writes an empty sixth field when there are no extra fields', () => {
    expect(encodeLogLine(entry('hello'), tag)).toBe(
      `1.0;2026-11-22T15:04:05.123Z;Error;${tag};hello;`,
    );
  });

  it('escapes exactly backslash, semicolon, line feed and carriage return', () => {
    expect(escapeField('a\\b;c\nd\re')).toBe('a\\\\b\\;c\\nd\\re');
    expect(unescapeField('a\\\\b\\;c\\nd\\re')).toBe('a\\b;c\nd\re');
  });

  it.each([
    ['a dangling backslash', `1.0;2026-11-22T15:04:05.123Z;Error;${tag};oops\\;`],
    ['an unknown escape', `1.0;2026-11-22T15:04:05.123Z;Error;${tag};\\x;`],
    ['an extra field too many', `1.0;2026-11-22T15:04:05.123Z;Error;${tag};a;;b`],
    ['a missing field', `1.0;2026-11-22T15:04:05.123Z;Error;${tag};a`],
    ['an unknown level', `1.0;2026-11-22T15:04:05.123Z;Fatal;${tag};a;`],
    ['another version', `2.0;2026-11-22T15:04:05.123Z;Error;${tag};a;`],
    ['extra JSON that is not an object', `1.0;2026-11-22T15:04:05.123Z;Error;${tag};a;[1]`],
  ])('rejects a line with %s', (_, line) => {
    expect(() => decodeLogLine(line)).toThrow();
  });

  it('round-trips entries parsed from an API batch', () => {
    const batch = parseLogBatch(
      {
        source: 'web',
        entries: [
          { at: '2026-11-22T17:04:05.5+02:00', level: 'Warning', message: 'ü\n;', code: 7 },
        ],
      },
      { maxBatchEntries: 10 },
    );
    const decoded = decodeLogLine(encodeLogLine(batch.entries[0]!, tag)).entry;
    expect(toApiEntry(decoded)).toEqual({
      at: '2026-11-22T15:04:05.500Z',
      level: 'Warning',
      message: 'ü\n;',
      code: 7,
    });
  });
});
