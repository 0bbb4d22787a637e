/**
 * Keys of department placement (src/accounts/): the placement table's rows, the relocation fence
 * rows that live in every partition a department's data occupies, and the registry of a
 * department's per-employee partitions (docs/accounts.md "The fence").
 */
import { invalidFenceVersion } from '../keyErrors';
import { assertDepartment, assertEmployeeId, isEmployeeId } from '../identifiers';
import { prefixRange } from '../text';
import { parseDepartmentListRowKey } from './employees';

/**
 * PartitionKey of every row of the placement table (one small partition: one row per department).
 */
export const PLACEMENT_PARTITION_KEY = 'department';

/**
 * RowKey of a department's placement row: the department name.
 *
 * @throws {ValidationError} for an invalid department name.
 */
export function placementRowKey(department: string): string {
  assertDepartment(department);
  return department;
}

/** Reverses {@link placementRowKey}; `undefined` for any other RowKey. */
export const parsePlacementRowKey: (rowKey: string) => string | undefined =
  parseDepartmentListRowKey;

/**
 * RowKey of a partition's fence epoch: the placement version the partition was last brought to
 * and whether it is open for writes. `~` sorts after every entity type's prefix, and no index
 * entry can have it (ids are digits, emails hold `@`).
 */
export const FENCE_EPOCH_ROW_KEY = '~placement';

const OPEN_PREFIX = `${FENCE_EPOCH_ROW_KEY}_open_`;
const CHANGED_PREFIX = `${FENCE_EPOCH_ROW_KEY}_changed_`;

function versionText(version: number): string {
  if (!Number.isInteger(version) || version < 0 || version > 9_999_999_999) {
    throw invalidFenceVersion(version);
  }
  return String(version).padStart(10, '0');
}

/**
 * RowKey of the row that exists while a partition is open for writes at placement `version`;
 * every fenced write carries a merge of it (`If-Match: *`), which fails once it is gone.
 *
 * @throws {RangeError} for a version that is not a whole number in 0–9,999,999,999.
 */
export function fenceOpenRowKey(version: number): string {
  return OPEN_PREFIX + versionText(version);
}

/**
 * RowKey of a change marker: a write made while the department was being copied records the keys
 * it touched here, in the same transaction (`<version>_<32 hex digits>`).
 *
 * @throws {RangeError} for a bad version or id.
 */
export function fenceChangeRowKey(version: number, id: string): string {
  if (!/^[0-9a-f]{32}$/.test(id)) throw invalidFenceVersion(id);
  return `${CHANGED_PREFIX}${versionText(version)}_${id}`;
}

/** Bounds of every change marker of one placement version in a partition. */
export function fenceChangeRowKeyRange(version: number): { ge: string; lt: string } {
  return prefixRange(`${CHANGED_PREFIX}${versionText(version)}_`);
}

/** Bounds of every fence row (epoch, open rows, change markers): none of them is ever copied. */
export function fenceRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(FENCE_EPOCH_ROW_KEY);
}

/** True for a RowKey of a fence row ({@link fenceRowKeyRange}). */
export function isFenceRowKey(rowKey: string): boolean {
  const { ge, lt } = fenceRowKeyRange();
  return rowKey >= ge && rowKey < lt;
}

/** The tables whose per-employee partitions a department registers (short, stable codes). */
export type RegisteredTable = 'expenses' | 'stats' | 'access';

const REGISTERED_TABLES: readonly RegisteredTable[] = ['expenses', 'stats', 'access'];
const REGISTRY_PREFIX = '~registered_';

/**
 * RowKey, in the department's own partition, that records that the per-employee partition of
 * `employeeId` in `table` exists in this account (so a relocation finds and fences it).
 *
 * @throws {ValidationError} for an invalid employee id.
 */
export function partitionRegistryRowKey(table: RegisteredTable, employeeId: string): string {
  assertEmployeeId(employeeId);
  return `${REGISTRY_PREFIX}${table}_${employeeId}`;
}

/** Reverses {@link partitionRegistryRowKey}; `undefined` for any other RowKey. */
export function parsePartitionRegistryRowKey(
  rowKey: string,
): { table: RegisteredTable; employeeId: string } | undefined {
  if (!rowKey.startsWith(REGISTRY_PREFIX)) return undefined;
  const rest = rowKey.slice(REGISTRY_PREFIX.length);
  const at = rest.lastIndexOf('_');
  const table = REGISTERED_TABLES.find((t) => t === rest.slice(0, at));
  const employeeId = rest.slice(at + 1);
  return table && isEmployeeId(employeeId) ? { table, employeeId } : undefined;
}

/** Bounds of every registry row of a department partition. */
export function partitionRegistryRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(REGISTRY_PREFIX);
}
