import {
  codePointPrefixRange,
  queryScope,
  resumeAfter,
  tokenAfter,
} from '../../../../src/storage/tables/rangePages';

const range = { partitionKey: 'Sales', ge: 'empid_', lt: 'empid`' };

describe('continuation tokens', () => {
  it('resume after the last key of the same query', () => {
    expect(resumeAfter('by-id', range, tokenAfter('by-id', range, 'empid_000010'))).toBe(
      'empid_000010',
    );
  });

  it.each([
    [
      'another kind of query',
      () => resumeAfter('by-email', range, tokenAfter('by-id', range, 'empid_000010')),
    ],
    [
      'another range',
      () =>
        resumeAfter(
          'by-id',
          { ...range, ge: 'empid_000005' },
          tokenAfter('by-id', range, 'empid_000001'),
        ),
    ],
    [
      'another partition',
      () =>
        resumeAfter(
          'by-id',
          { ...range, partitionKey: 'Ops' },
          tokenAfter('by-id', range, 'empid_000010'),
        ),
    ],
    [
      'a key outside the range',
      () => resumeAfter('by-id', range, tokenAfter('by-id', range, 'email_x')),
    ],
    [
      'a tampered token',
      () =>
        resumeAfter('by-id', range, tokenAfter('by-id', range, 'empid_000010').replace(/.$/, '_')),
    ],
    ['garbage', () => resumeAfter('by-id', range, '%%%')],
  ])('refuse a token of %s with InvalidContinuationToken', (_, use) => {
    expect(use).toThrow(expect.objectContaining({ code: 'InvalidContinuationToken' }));
  });

  it('bind scopes by hash, so tokens stay short whatever the bounds', () => {
    expect(
      queryScope('by-email', { partitionKey: 'S', ge: 'x'.repeat(700), lt: 'y'.repeat(700) })
        .length,
    ).toBeLessThan(40);
  });
});

describe('code point prefix ranges', () => {
  it('bump the last character, never leaving a lone surrogate', () => {
    expect(codePointPrefixRange('email_ab')).toEqual({ ge: 'email_ab', lt: 'email_ac' });
    const { lt } = codePointPrefixRange('email_😀');
    expect(lt).toBe('email_😁');
    expect(codePointPrefixRange('x\ud7ff').lt).toBe('x\ue000');
  });
});
