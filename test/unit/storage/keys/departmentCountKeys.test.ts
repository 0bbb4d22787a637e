/**
 * Keys of the department's employee-count shards: encode/decode round trip, refusal of invalid
 * shard numbers, and the one range that holds the department entity and its shards only.
 */
import * as employeesKeys from '../../../../src/storage/keys/tables/employees';

/** The key families this test reads, under one name. */
const keys = { ...employeesKeys };

const inRange = (key: string): boolean => {
  const range = keys.departmentWithCountRowKeyRange();
  return key >= range.ge && key < range.lt;
};

describe('department count shard keys', () => {
  it('round-trip every shard number and sort in shard order', () => {
    const rowKeys = Array.from({ length: keys.MAX_DEPARTMENT_COUNT_SHARDS }, (_, i) =>
      keys.departmentCountShardRowKey(i),
    );
    rowKeys.forEach((rowKey, i) => expect(keys.parseDepartmentCountShardRowKey(rowKey)).toBe(i));
    expect([...rowKeys].sort()).toEqual(rowKeys);
    expect(keys.departmentCountShardRowKey(7)).toBe('department_count_07');
  });

  it.each([-1, 100, 1.5, Number.NaN])('refuse shard %p', (shard) => {
    expect(() => keys.departmentCountShardRowKey(shard)).toThrow(RangeError);
  });

  it('parse nothing but shard keys', () => {
    for (const other of [
      keys.DEPARTMENT_ROW_KEY,
      'department_count_',
      'department_count_7',
      'department_count_100',
      'department_count_0a',
      keys.employeeRowKey('000001'),
      keys.emailRowKey('a@b.c'),
      keys.lastNameRowKey('Jones'),
    ]) {
      expect(keys.parseDepartmentCountShardRowKey(other)).toBeUndefined();
    }
  });

  it('one range holds the department and its shards, and no other entity of the partition', () => {
    expect(inRange(keys.DEPARTMENT_ROW_KEY)).toBe(true);
    for (let i = 0; i < keys.MAX_DEPARTMENT_COUNT_SHARDS; i++)
      expect(inRange(keys.departmentCountShardRowKey(i))).toBe(true);
    for (const other of [
      keys.employeeRowKey('000000'),
      keys.employeeRowKey('999999'),
      keys.emailRowKey(''),
      keys.emailRowKey('\u0000'),
      keys.emailRowKey('a@b.c'),
      keys.lastNameRowKey(''),
      keys.lastNameRowKey('Zz'),
      keys.reviewRowKey('000001', 2024),
    ]) {
      expect(inRange(other)).toBe(false);
    }
  });
});
