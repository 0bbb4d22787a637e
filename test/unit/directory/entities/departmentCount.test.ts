/**
 * Choosing a count shard (pure): concurrent writers of one process take different shards while
 * any is free, a finished write frees its shard, a busy mark expires, and shard entities read back.
 */
import {
  countShardChange,
  DEPARTMENT_COUNT_SHARDS,
  newCountShardChoice,
  pickShard,
  readCountShard,
  releaseShard,
} from '../../../../src/directory/entities/departmentCount';

const keyOf = (shard: number): string => `Sales\u0001${shard}`;

describe('pickShard', () => {
  it('gives as many concurrent writers as there are shards different shards', () => {
    const choice = newCountShardChoice();
    const picked = Array.from({ length: DEPARTMENT_COUNT_SHARDS }, () =>
      pickShard(choice, keyOf, 1_000),
    );
    expect(new Set(picked).size).toBe(DEPARTMENT_COUNT_SHARDS);
  });

  it('skips shards still busy, even when earlier writers finish out of order', () => {
    const choice = { next: 0, busy: new Map<string, number>() };
    const first = Array.from({ length: DEPARTMENT_COUNT_SHARDS }, () =>
      pickShard(choice, keyOf, 0),
    );
    releaseShard(choice, keyOf(first[5]!));
    expect(pickShard(choice, keyOf, 0)).toBe(first[5]);
  });

  it('falls back to the cursor when every shard is busy, and busy marks expire', () => {
    const choice = { next: 0, busy: new Map<string, number>() };
    for (let i = 0; i < DEPARTMENT_COUNT_SHARDS; i++) pickShard(choice, keyOf, 0);
    expect(pickShard(choice, keyOf, 0)).toBe(0);
    expect(pickShard(choice, keyOf, 60_000)).toBe(1);
  });
});

describe('count shard entities', () => {
  it('create an absent shard, replace a present one under its ETag, and read back', () => {
    expect(countShardChange('Sales', 3, { value: 0, etag: '' }, 1)).toEqual([
      'create',
      expect.objectContaining({ rowKey: 'department_count_03', Count: 1 }),
    ]);
    const update = countShardChange('Sales', 3, { value: 4, etag: 'W/"x"' }, -1);
    expect(update).toEqual([
      'update',
      expect.objectContaining({ rowKey: 'department_count_03', Count: 3 }),
      'Replace',
      { etag: 'W/"x"' },
    ]);
    expect(readCountShard(update[1] as Record<string, unknown>)).toEqual({ shard: 3, count: 3 });
    expect(
      readCountShard({ rowKey: 'department_count_03', EntityType: 'Other.v9', Count: 1 }),
    ).toBeUndefined();
  });
});
