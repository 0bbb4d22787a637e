import {
  MAX_REMEMBERED_INCREMENTS,
  INCREMENT_MEMORY_MS,
  INCREMENT_RETRY_WINDOW_MS,
  isIncrementId,
  liveIncrements,
  rememberIncrement,
  remembersIncrement,
} from '../../../src/stats/incrementMarkers';

const id = (n: number): string => n.toString(16).padStart(16, '0');
const now = new Date('2026-03-04T05:06:07Z');

describe('operation markers of the message counters', () => {
  it('remembers an id in an empty or absent list', () => {
    for (const stored of [undefined, '', null, 42n]) {
      const list = rememberIncrement(stored, id(1), now);
      expect(remembersIncrement(list, id(1))).toBe(true);
      expect(remembersIncrement(list, id(2))).toBe(false);
      expect(remembersIncrement(stored, id(1))).toBe(false);
    }
  });

  it('keeps the other writers’ ids, oldest first, and an id only once', () => {
    let list = rememberIncrement(undefined, id(1), now);
    list = rememberIncrement(list, id(2), new Date(now.getTime() + 1_000));
    list = rememberIncrement(list, id(1), new Date(now.getTime() + 2_000));
    expect(list!.split(' ').map((e) => e.split('.')[0])).toEqual([id(2), id(1)]);
  });

  it('forgets ids older than the memory, never those still inside it', () => {
    const list = rememberIncrement(undefined, id(1), now);
    const justInside = new Date(now.getTime() + INCREMENT_MEMORY_MS);
    expect(remembersIncrement(rememberIncrement(list, id(2), justInside), id(1))).toBe(true);
    const past = new Date(now.getTime() + INCREMENT_MEMORY_MS + 1_000);
    expect(remembersIncrement(rememberIncrement(list, id(2), past), id(1))).toBe(false);
    expect(INCREMENT_RETRY_WINDOW_MS).toBeLessThan(INCREMENT_MEMORY_MS);
  });

  it('never forgets a live id for newer ones: at the bound it refuses the next increment', () => {
    // A late retry of increment 0 must still find it after MAX newer increments.
    let list = '';
    for (let n = 0; n < MAX_REMEMBERED_INCREMENTS; n++) list = rememberIncrement(list, id(n), now)!;
    expect(list.split(' ')).toHaveLength(MAX_REMEMBERED_INCREMENTS);
    expect(rememberIncrement(list, id(MAX_REMEMBERED_INCREMENTS), now)).toBeUndefined();
    expect(remembersIncrement(list, id(0))).toBe(true);
    expect(list.length * 2).toBeLessThan(64 * 1024); // UTF-16 bytes of an Edm.String
    // Once the oldest age out, increments are taken again.
    const later = new Date(now.getTime() + INCREMENT_MEMORY_MS + 1_000);
    expect(rememberIncrement(list, id(MAX_REMEMBERED_INCREMENTS), later)).toBe(
      rememberIncrement('', id(MAX_REMEMBERED_INCREMENTS), later),
    );
  });

  it('prunes a list to its live ids, and says when there is nothing to prune', () => {
    const list = rememberIncrement(
      rememberIncrement('', id(1), now),
      id(2),
      new Date(now.getTime() + 60_000),
    );
    expect(liveIncrements(list, now)).toBeUndefined();
    expect(liveIncrements(undefined, now)).toBeUndefined();
    expect(liveIncrements('', now)).toBeUndefined();
    const oneGone = new Date(now.getTime() + INCREMENT_MEMORY_MS + 30_000);
    expect(liveIncrements(list, oneGone)).toBe(
      rememberIncrement('', id(2), new Date(now.getTime() + 60_000)),
    );
    expect(liveIncrements(list, new Date(now.getTime() + 2 * INCREMENT_MEMORY_MS))).toBe('');
  });

  it('ignores malformed entries and refuses malformed ids', () => {
    const stored = `junk ${id(7)}.zz99 ${id(0xab).toUpperCase()}.1 ${id(9)} ${id(5)}.-1  ${id(3)}.ab`;
    expect(remembersIncrement(stored, id(7))).toBe(true);
    expect(remembersIncrement(stored, id(0xab))).toBe(false);
    expect(remembersIncrement(stored, id(9))).toBe(false);
    expect(remembersIncrement(stored, id(5))).toBe(false);
    const rewritten = rememberIncrement(stored, id(4), new Date(parseInt('zz99', 36) * 1_000));
    expect(rewritten!.split(' ').map((e) => e.split('.')[0])).toEqual([id(7), id(4)]);
    for (const bad of ['', 'abc', id(0xab).toUpperCase(), `${id(1)}0`, `${id(1)} `, '../x']) {
      expect(isIncrementId(bad)).toBe(false);
      expect(() => remembersIncrement('', bad)).toThrow();
      expect(() => rememberIncrement('', bad, now)).toThrow();
    }
  });

  it('stamps times before 1970 as zero rather than writing a malformed entry', () => {
    const list = rememberIncrement(undefined, id(1), new Date('1969-12-31T23:00:00Z'));
    expect(list).toBe(`${id(1)}.0`);
    expect(remembersIncrement(list, id(1))).toBe(true);
  });
});
