import {
  IDS_PER_PROPERTY,
  MAX_IDS_PER_LAST_NAME,
  lastNameIndexEntity,
  lastNameIndexRemoval,
  readLastNameIndex,
  withIds,
  withoutIds,
} from '../../../../src/directory/entities/partitionLastNameIndex';

const ids = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => String(from + i).padStart(6, '0'));

describe('last-name index entity', () => {
  it('stores ids concatenated in 64 KiB-safe properties and reads them back', () => {
    const list = ids(IDS_PER_PROPERTY * 2 + 3);
    const entity = lastNameIndexEntity('Sales', { lastName: 'jones', ids: list });
    expect(entity.rowKey).toBe('lastname_jones');
    expect(Object.keys(entity).filter((k) => k.startsWith('Ids'))).toEqual([
      'Ids00',
      'Ids01',
      'Ids02',
    ]);
    // 64 KiB property limit counts UTF-16 bytes: 2 bytes a character.
    for (const key of ['Ids00', 'Ids01', 'Ids02'])
      expect(String(entity[key]).length * 2).toBeLessThanOrEqual(64 * 1024);
    expect(readLastNameIndex(entity)).toEqual({ lastName: 'jones', ids: list });
  });

  it('keeps the whole entity under 1 MiB at the cap and refuses one more id with LastNameIndexFull', () => {
    const full = lastNameIndexEntity('Sales', {
      lastName: 'jones',
      ids: ids(MAX_IDS_PER_LAST_NAME),
    });
    const bytes = Object.values(full).reduce<number>(
      (sum, v) => sum + (typeof v === 'string' ? v.length * 2 : 8),
      0,
    );
    expect(bytes).toBeLessThan(1024 * 1024 - 64 * 1024);
    expect(() =>
      lastNameIndexEntity('Sales', { lastName: 'jones', ids: ids(MAX_IDS_PER_LAST_NAME + 1) }),
    ).toThrow(expect.objectContaining({ code: 'LastNameIndexFull' }));
  });

  it('writes an empty Ids00 for an empty list so a Replace clears every id', () => {
    expect(lastNameIndexEntity('Sales', { lastName: 'x', ids: [] })).toMatchObject({
      Ids00: '',
      Count: 0,
    });
  });

  it('ignores other entity types and malformed id lists', () => {
    expect(
      readLastNameIndex({ EntityType: 'LastNameIndex.v2', LastName: 'x', Ids00: '000001' }),
    ).toBeUndefined();
    expect(
      readLastNameIndex({ EntityType: 'LastNameIndex.v1', LastName: 'x', Ids00: '00001' }),
    ).toBeUndefined();
  });

  it('adds and removes ids as a sorted set', () => {
    expect(withIds(['000003', '000001'], ['000002', '000001'])).toEqual([
      '000001',
      '000002',
      '000003',
    ]);
    expect(withoutIds(['000001', '000002'], ['000001'])).toEqual(['000002']);
  });
});

describe('removing ids from an index entity read from a cache', () => {
  const index = { value: { lastName: 'smith', ids: ['000001', '000002'] }, etag: 'W/"e1"' };

  it('rewrites it without them, conditional on the ETag read', () => {
    const { action, ids } = lastNameIndexRemoval('Ops', index, ['000002']);
    expect(ids).toEqual(['000001']);
    expect(action[0]).toBe('update');
    expect(action[2]).toBe('Replace');
    expect(action[3]).toEqual({ etag: 'W/"e1"' });
    expect(readLastNameIndex(action[1] as Record<string, unknown>)?.ids).toEqual(['000001']);
  });

  it('deletes it, conditional on the ETag read, when none are left', () => {
    const { action, ids } = lastNameIndexRemoval('Ops', index, ['000001', '000002']);
    expect(ids).toEqual([]);
    expect(action).toEqual([
      'delete',
      { partitionKey: 'Ops', rowKey: 'lastname_smith' },
      { etag: 'W/"e1"' },
    ]);
  });

  it('still holds it to the ETag read when it lists none of them: a Merge that changes nothing', () => {
    const { action, ids } = lastNameIndexRemoval('Ops', index, ['000003']);
    expect(ids).toEqual(['000001', '000002']);
    expect(action).toEqual([
      'update',
      { partitionKey: 'Ops', rowKey: 'lastname_smith', EntityType: 'LastNameIndex.v1' },
      'Merge',
      { etag: 'W/"e1"' },
    ]);
  });
});
