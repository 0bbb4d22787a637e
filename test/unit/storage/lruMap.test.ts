import { LruMap } from '../../../src/storage/lruMap';

describe('LruMap, the bound of the in-process version caches', () => {
  it('drops the least recently used entry past its bound; reading an entry keeps it', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.size]).toEqual([1, 3, 2]);
  });

  it('replaces an entry in place, and forgets on delete and clear', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('a', 2);
    expect([map.get('a'), map.size]).toEqual([2, 1]);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    map.set('b', 1);
    map.clear();
    expect(map.size).toBe(0);
  });

  it('tells of each entry dropped for room, and only of those', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(2, (key) => evicted.push(key));
    map.set('a', 1);
    map.set('b', 2);
    map.get('a');
    map.set('c', 3);
    map.delete('a');
    map.clear();
    expect(evicted).toEqual(['b']);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a bound of %p', (bound) => {
    expect(() => new LruMap(bound)).toThrow(RangeError);
  });
});
