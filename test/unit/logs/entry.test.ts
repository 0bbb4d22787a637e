import { TooLargeError, ValidationError } from '../../../src/domainErrors';
import { parseLogBatch } from '../../../src/logs/entry';

const limits = { maxBatchEntries: 3 };
const good = { at: '2026-11-22T15:04:05.123Z', level: 'Information', message: 'ok' };

function rejection(body: unknown): ValidationError {
  try {
    parseLogBatch(body, limits);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('validating a POST /logs batch', () => {
  it('accepts a valid batch and keeps extra fields', () => {
    const batch = parseLogBatch(
      {
        source: 'web-01',
        entries: [good, { ...good, level: 'Critical', userId: 'u1', extra: { a: [1] } }],
      },
      limits,
    );
    expect(batch.source).toBe('web-01');
    expect(batch.entries[1]).toEqual({
      at: new Date('2026-11-22T15:04:05.123Z'),
      level: 'Critical',
      message: 'ok',
      extra: { userId: 'u1', extra: { a: [1] } },
    });
  });

  it.each([
    ['a bad level', { ...good, level: 'Fatal' }, 'body.entries[1].level'],
    ['a missing message', { at: good.at, level: 'Error' }, 'body.entries[1].message'],
    ['a non-string message', { ...good, message: 42 }, 'body.entries[1].message'],
    ['a time without a zone', { ...good, at: '2026-11-22T15:04:05' }, 'body.entries[1].at'],
    ['a date that is not a time', { ...good, at: 'yesterday' }, 'body.entries[1].at'],
    [
      'a lone surrogate in the message',
      { ...good, message: 'bad \ud800 text' },
      'body.entries[1].message',
    ],
    ['an entry that is not an object', 'just text', 'body.entries[1]'],
  ])('names the entry index and field for %s', (_, bad, target) => {
    const error = rejection({ source: 'web', entries: [good, bad, good] });
    expect(error.target).toBe(target);
    expect(error.message).toContain(target);
  });

  it.each([
    ['a missing source', { entries: [good] }, 'body.source'],
    ['an upper-case source', { source: 'Web', entries: [good] }, 'body.source'],
    ['a source with a slash', { source: 'web/x', entries: [good] }, 'body.source'],
    ['no entries', { source: 'web', entries: [] }, 'body.entries'],
    ['entries that are not an array', { source: 'web', entries: {} }, 'body.entries'],
  ])('rejects %s', (_, body, target) => {
    expect(rejection(body).target).toBe(target);
  });

  it('refuses more entries than the limit as too large', () => {
    expect(() =>
      parseLogBatch({ source: 'web', entries: [good, good, good, good] }, limits),
    ).toThrow(TooLargeError);
  });

  it('converts times with an offset to UTC and keeps milliseconds', () => {
    const batch = parseLogBatch(
      { source: 'web', entries: [{ ...good, at: '2026-11-22T16:04:05.1234+01:00' }] },
      limits,
    );
    expect(batch.entries[0]!.at.toISOString()).toBe('2026-11-22T15:04:05.123Z');
  });
});
