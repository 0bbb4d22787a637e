/**
 * Keys of the per-name layout the org-wide last-name index had before 2026-12-07, kept to read
 * and move what an upgrade left: they match what that version wrote, and their range holds no
 * grouped partition.
 */
import {
  legacyOrgLastNamePartitionKey,
  legacyOrgLastNamePartitionKeyRange,
  legacyOrgLastNameShardRowKey,
  orgLastNameGroupKey,
  parseLegacyOrgLastNamePartitionKey,
  parseLegacyOrgLastNameShardRowKey,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../../../src/storage/keys/text';

const NAMES = ['Jones', "O'Brien", 'a b', '李', '\u{1f600}x', 'ab%~'];
const within = (key: string, range: { ge: string; lt: string }): boolean =>
  key >= range.ge && key < range.lt;

it('writes and reads the old keys as the per-name version wrote them', () => {
  expect(legacyOrgLastNamePartitionKey('Jones')).toBe('lastname_jones');
  expect(legacyOrgLastNameShardRowKey(0)).toBe('part_000');
  expect(legacyOrgLastNameShardRowKey(12)).toBe('part_012');
  expect(parseLegacyOrgLastNameShardRowKey('part_999')).toBe(999);
  expect(parseLegacyOrgLastNameShardRowKey('~fence')).toBeUndefined();
  expect(parseLegacyOrgLastNameShardRowKey('part_1')).toBeUndefined();
  expect(() => legacyOrgLastNameShardRowKey(1000)).toThrow();
  for (const name of NAMES) {
    const key = legacyOrgLastNamePartitionKey(name);
    expect(parseLegacyOrgLastNamePartitionKey(key)).toBe(normalizeLastName(name));
    expect(within(key, legacyOrgLastNamePartitionKeyRange())).toBe(true);
    // The grouped partitions (`lastnames_…`) are outside the old range.
    expect(within(orgLastNameGroupKey(name), legacyOrgLastNamePartitionKeyRange())).toBe(false);
  }
  expect(parseLegacyOrgLastNamePartitionKey('lastname_Jones')).toBeUndefined();
  expect(parseLegacyOrgLastNamePartitionKey('empid_Sales')).toBeUndefined();
});
