/**
 * The orchestrations' pure helpers: chunking for bounded fan-out, refusals, audit counts and the
 * keyed index comparison.
 */
import { addCounts, mergeByIndex, totalOf } from '../../../src/orchestrations/audit/auditCounts';
import { byKey, dataFingerprint, diffIndex } from '../../../src/orchestrations/audit/indexDiff';
import {
  isRefusal,
  refusal,
  refusalError,
  refuseOnPermanentError,
} from '../../../src/orchestrations/refusal';
import { chunk } from '../../../src/orchestrations/retryPolicy';
import { ConflictError, ThrottledError } from '../../../src/domainErrors';

describe('chunk', () => {
  it('splits into consecutive chunks of at most n, keeping order', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 10)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe('refusals', () => {
  it('turns permanent domain errors into refusals and rethrows transient ones', async () => {
    await expect(
      refuseOnPermanentError(() => Promise.reject(new ConflictError('EmailTaken', 'taken'))),
    ).resolves.toEqual({ refused: { code: 'EmailTaken', message: 'taken' } });
    await expect(
      refuseOnPermanentError(() => Promise.reject(new ThrottledError('busy', 1))),
    ).rejects.toBeInstanceOf(ThrottledError);
    await expect(refuseOnPermanentError(() => Promise.reject(new Error('bug')))).rejects.toThrow(
      'bug',
    );
    expect(isRefusal(refusal('X', 'y'))).toBe(true);
    expect(isRefusal({ refused: true })).toBe(false);
    expect(isRefusal(null)).toBe(false);
    expect(refusalError(refusal('X', 'why')).message).toBe('X: why');
  });
});

describe('audit counts', () => {
  it('adds counts, merges per index and totals', () => {
    const a = { checked: 3, missing: 1, stale: 0, repaired: 1 };
    const b = { checked: 2, missing: 0, stale: 2, repaired: 0 };
    expect(addCounts(a, b)).toEqual({ checked: 5, missing: 1, stale: 2, repaired: 1 });
    const merged = mergeByIndex({ emailCopies: a }, { emailCopies: b, orgLastNames: b });
    expect(merged).toEqual({ emailCopies: addCounts(a, b), orgLastNames: b });
    expect(totalOf(merged)).toEqual({ checked: 7, missing: 1, stale: 4, repaired: 1 });
    expect(totalOf({})).toEqual({ checked: 0, missing: 0, stale: 0, repaired: 0 });
  });
});

describe('diffIndex', () => {
  it('finds missing, differing and orphaned entries by key', () => {
    const expected = byKey(
      [
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
        { k: 'c', v: 3 },
      ],
      (e) => e.k,
    );
    const stored = byKey(
      [
        { k: 'b', v: 2 },
        { k: 'c', v: 4 },
        { k: 'z', v: 9 },
      ],
      (e) => e.k,
    );
    const diff = diffIndex(expected, stored, (e, s) => e.v === s.v);
    expect(diff.checked).toBe(4);
    expect(diff.missing).toEqual([{ k: 'a', v: 1 }]);
    expect(diff.differing).toEqual([{ expected: { k: 'c', v: 3 }, stored: { k: 'c', v: 4 } }]);
    expect(diff.orphaned).toEqual([{ k: 'z', v: 9 }]);
  });

  it('fingerprints data only: keys, ETag, timestamp, OData annotations and ignored names aside', () => {
    const stored = {
      partitionKey: 'Sales',
      rowKey: 'x',
      etag: 'W/"1"',
      timestamp: '2024',
      'odata.etag': 'W/"1"',
      B: 2,
      A: 'ü',
      SourceETag: 'e',
    };
    expect(dataFingerprint(stored, ['SourceETag'])).toBe(dataFingerprint({ A: 'ü', B: 2 }));
    expect(dataFingerprint({ A: 'ü', B: 3 })).not.toBe(dataFingerprint({ A: 'ü', B: 2 }));
  });
});
