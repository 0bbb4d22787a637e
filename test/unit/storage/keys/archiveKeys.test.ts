/**
 * Archive row keys per incarnation: legacy records keep the `Employees` row key, other
 * incarnations get a suffix; parsing reverses it, and one employee's range holds exactly its
 * records.
 */
import {
  archivedEmployeeRowKeyRange,
  archiveRowKey,
  isIncarnation,
  LEGACY_INCARNATION,
  parseArchiveRowKey,
} from '../../../../src/storage/keys/tables/archive';

const INCARNATION = '0123456789abcdef0123456789abcdef';

it('accepts 32 lowercase hex digits or "legacy" as an incarnation', () => {
  expect(isIncarnation(INCARNATION)).toBe(true);
  expect(isIncarnation(LEGACY_INCARNATION)).toBe(true);
  for (const bad of ['', 'ABCDEF0123456789abcdef0123456789', INCARNATION + '0', 'x/y', 'Legacy']) {
    expect(isIncarnation(bad)).toBe(false);
  }
});

it('keeps the row key of a legacy incarnation and suffixes any other, reversibly', () => {
  expect(archiveRowKey('empid_000223', LEGACY_INCARNATION)).toBe('empid_000223');
  expect(archiveRowKey('review_000223_2024', INCARNATION)).toBe(
    `review_000223_2024.${INCARNATION}`,
  );
  for (const rowKey of ['empid_000223', 'review_000223_2024']) {
    for (const incarnation of [LEGACY_INCARNATION, INCARNATION]) {
      expect(parseArchiveRowKey(archiveRowKey(rowKey, incarnation))).toEqual({
        rowKey,
        incarnation,
      });
    }
  }
  expect(() => archiveRowKey('empid_000223', 'nope')).toThrow(/Incarnation/);
});

it("reads a key with a dot but no incarnation suffix as a legacy record's", () => {
  expect(parseArchiveRowKey('email_jo.jones%40contoso.com')).toEqual({
    rowKey: 'email_jo.jones%40contoso.com',
    incarnation: LEGACY_INCARNATION,
  });
});

it("bounds exactly one employee's records, of every incarnation", () => {
  const { ge, lt } = archivedEmployeeRowKeyRange('000223');
  const inRange = (key: string) => key >= ge && key < lt;
  expect(inRange(archiveRowKey('empid_000223', LEGACY_INCARNATION))).toBe(true);
  expect(inRange(archiveRowKey('empid_000223', INCARNATION))).toBe(true);
  expect(inRange('empid_000224')).toBe(false);
  expect(inRange('empid_000222.' + INCARNATION)).toBe(false);
  expect(inRange(archiveRowKey('review_000223_2024', INCARNATION))).toBe(false);
});
