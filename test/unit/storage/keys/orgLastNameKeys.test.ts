/**
 * Keys of the grouped org-wide last-name index: one name's rows are exactly its RowKey range, so
 * a range query reads no neighbour's rows, and partitions follow the names' key order.
 */
import {
  orgLastNameFenceRowKey,
  orgLastNameGroupKey,
  orgLastNameRowRange,
  orgLastNameShardRowKey,
  parseOrgLastNameRowKey,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { encodeKeyText, normalizeLastName } from '../../../../src/storage/keys/text';

const NAMES = ['ab', 'ab%', 'a b', 'ab%~', 'ab~', 'abc', 'a', '%b', '李', '\u{1f600}x', "o'brien"];
const between = (key: string, range: { ge: string; lt: string }): boolean =>
  key >= range.ge && key < range.lt;

it("keeps every name's rows inside its own range and out of every other name's", () => {
  for (const name of NAMES) {
    const rows = [0, 1, 999].map((n) => orgLastNameShardRowKey(name, n));
    rows.push(orgLastNameFenceRowKey(name));
    for (const other of NAMES) {
      const range = orgLastNameRowRange(other);
      for (const row of rows) expect(between(row, range)).toBe(name === other);
    }
    // The fence sorts after every shard (slices read shards up to part_999 only).
    expect(orgLastNameFenceRowKey(name) > orgLastNameShardRowKey(name, 999)).toBe(true);
  }
});

it('groups names by their first character, partitions in the order of the names', () => {
  expect(orgLastNameGroupKey('Jones')).toBe('lastnames_j');
  expect(orgLastNameGroupKey('%b')).toBe('lastnames_%25');
  expect(orgLastNameGroupKey('\u{1f600}x')).toBe('lastnames_\u{1f600}');
  const sorted = [...NAMES].sort((a, b) => (encodeKeyText(a) < encodeKeyText(b) ? -1 : 1));
  const groups = sorted.map(orgLastNameGroupKey);
  expect([...groups].sort()).toEqual(groups);
});

it('reads back only the rows it writes', () => {
  expect(parseOrgLastNameRowKey(orgLastNameShardRowKey('Núñez', 3))).toEqual({
    lastName: normalizeLastName('Núñez'),
    shard: 3,
  });
  for (const rowKey of [
    'jones',
    'jones%~part_1',
    '%~part_000',
    'Jones%~part_000',
    'a%zz%~~fence',
  ]) {
    expect(parseOrgLastNameRowKey(rowKey)).toBeUndefined();
  }
});
