import { TtlCache } from '../../../../src/directory/departments/ttlCache';
import { VersionCache } from '../../../../src/directory/entities/versionCache';

describe('department list cache', () => {
  it('expires entries after the TTL and caches nothing with a TTL of 0', () => {
    let now = 0;
    const cache = new TtlCache<string>(100, () => now);
    cache.set('k', 'v');
    now = 99;
    expect(cache.get('k')).toBe('v');
    now = 100;
    expect(cache.get('k')).toBeUndefined();
    const off = new TtlCache<string>(0, () => now);
    off.set('k', 'v');
    expect(off.get('k')).toBeUndefined();
  });
});

describe('version cache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new VersionCache<number>(2);
    cache.set('a', { value: 1, etag: 'ea' });
    cache.set('b', { value: 2, etag: 'eb' });
    cache.get('a');
    cache.set('c', { value: 3, etag: 'ec' });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual({ value: 1, etag: 'ea' });
  });
});
