/**
 * Keys of the `EmployeeIndex` table (inter-partition secondary indexes) and of the org-wide last-
 * name index (entities and blobs).
 */
import {
  decodeKeyText,
  encodeKeyText,
  normalizeEmail,
  normalizeLastName,
  prefixRange,
} from '../text';
import { assertDepartment, assertEmployeeId, isDepartmentName } from '../identifiers';
import {
  EMAIL_PREFIX,
  EMPLOYEE_PREFIX,
  LASTNAME_PREFIX,
  nextEmployeeId,
  parseLastNameRowKey,
  lastNameRowKeyRange,
} from './employees';
import { isFenceRowKey } from './placement';
import { lastNameShardOutOfRange } from '../keyErrors';

/** PartitionKey of the by-id index of one department: `empid_Sales`. */
export function idIndexPartitionKey(department: string): string {
  assertDepartment(department);
  return EMPLOYEE_PREFIX + department;
}

/** PartitionKey of the by-email index of one department: `email_Sales`. */
export function emailIndexPartitionKey(department: string): string {
  assertDepartment(department);
  return EMAIL_PREFIX + department;
}

/** Reverses {@link idIndexPartitionKey} and {@link emailIndexPartitionKey}. */
export function parseIndexPartitionKey(
  partitionKey: string,
): { index: 'id' | 'email'; department: string } | undefined {
  for (const [prefix, index] of [
    [EMPLOYEE_PREFIX, 'id'],
    [EMAIL_PREFIX, 'email'],
  ] as const) {
    if (partitionKey.startsWith(prefix)) {
      const department = partitionKey.slice(prefix.length);
      return isDepartmentName(department) ? { index, department } : undefined;
    }
  }
  return undefined;
}

/**
 * Bounds of the by-id entries of an inclusive id range (open ends when omitted); the partition's
 * drain fence ({@link INDEX_FENCE_ROW_KEY}) sorts after every id and is never inside.
 */
export function idIndexRowKeyRange(fromId?: string, toId?: string): { ge: string; lt: string } {
  const next = toId === undefined ? undefined : nextEmployeeId(toId);
  return {
    ge: fromId === undefined ? '0' : idIndexRowKey(fromId),
    lt: next === undefined ? ':' : idIndexRowKey(next),
  };
}

/** RowKey in a by-id index partition: the bare employee id. */
export function idIndexRowKey(employeeId: string): string {
  assertEmployeeId(employeeId);
  return employeeId;
}

/**
 * RowKey of the drain fence of a by-id or by-email index partition
 * (src/indexing/drain/outboxDrain.ts). No entry can have it: id entries are six digits and every
 * email entry holds an `@`.
 */
export const INDEX_FENCE_ROW_KEY = '~fence';

/**
 * True for the RowKey of a row of an index partition that is no entry: its drain fence ({@link
 * INDEX_FENCE_ROW_KEY}) or a relocation fence row (placement.ts, `isFenceRowKey`).
 */
export function isIndexFenceRowKey(rowKey: string): boolean {
  return rowKey === INDEX_FENCE_ROW_KEY || isFenceRowKey(rowKey);
}

/**
 * PartitionKey of a department's drain lease (src/indexing/drain/drainLease.ts): `~drain_Sales`.
 * Its own partition, apart from the index partitions the audit reads whole and from the org-wide
 * last-name partitions (`lastnames_…`, which `~` sorts after).
 */
export function drainLeasePartitionKey(department: string): string {
  assertDepartment(department);
  return DRAIN_LEASE_PREFIX + department;
}

/** Reverses {@link drainLeasePartitionKey}. */
export function parseDrainLeasePartitionKey(partitionKey: string): string | undefined {
  if (!partitionKey.startsWith(DRAIN_LEASE_PREFIX)) return undefined;
  const department = partitionKey.slice(DRAIN_LEASE_PREFIX.length);
  return isDepartmentName(department) ? department : undefined;
}

const DRAIN_LEASE_PREFIX = '~drain_';

/** RowKey of the drain lease in its partition ({@link drainLeasePartitionKey}). */
export const DRAIN_LEASE_ROW_KEY = 'lease';

/** RowKey in a by-email index partition: the escaped, normalised address. */
export function emailIndexRowKey(email: string): string {
  return encodeKeyText(normalizeEmail(email));
}

/** Reverses {@link emailIndexRowKey}. */
export function parseEmailIndexRowKey(rowKey: string): string | undefined {
  try {
    return decodeKeyText(rowKey);
  } catch {
    return undefined;
  }
}

/** Blob name of an org-wide last-name index blob (option 1) in `lastname-index`. */
export function lastNameBlobName(lastName: string): string {
  return `${encodeKeyText(normalizeLastName(lastName))}.json`;
}

/** Reverses {@link lastNameBlobName}. */
export function parseLastNameBlobName(blobName: string): string | undefined {
  if (!blobName.endsWith('.json')) return undefined;
  try {
    return decodeKeyText(blobName.slice(0, -'.json'.length));
  } catch {
    return undefined;
  }
}

// The org-wide last-name index entities (option 3), grouped: the names that start with the same
// character share one partition (`lastnames_j` holds jones, johnson, ...), so one entity group
// transaction writes many names' lists at once. Within it each name has its shard rows
// `<name>%~part_000`, `part_001`, ... and its own drain fence `<name>%~~fence`: a change is
// conditional on its own name's rows only, never on its neighbours'. The separator `%~` cannot
// occur inside an encoded name (`%` there is always followed by two hex digits), so one name's
// rows are exactly one RowKey prefix. Partitions sort in name order, and within a partition rows
// sort by name, so listing the index walks names in (almost) key order.

/** PartitionKey prefix of the grouped org-wide last-name partitions. */
export const ORG_LAST_NAME_GROUP_PREFIX = 'lastnames_';

const SEPARATOR = '%~';
const SHARD = 'part_';
const FENCE = '~fence';

/** The encoded normalised name. */
function encodedName(lastName: string): string {
  return encodeKeyText(normalizeLastName(lastName));
}

/**
 * PartitionKey of the group holding `lastName`: `lastnames_` and the first character of the
 * encoded normalised name (a whole `%XX` escape, a whole surrogate pair).
 */
export function orgLastNameGroupKey(lastName: string): string {
  const encoded = encodedName(lastName);
  const first = encoded.startsWith('%') ? encoded.slice(0, 3) : (Array.from(encoded)[0] ?? '');
  return ORG_LAST_NAME_GROUP_PREFIX + first;
}

/** Bounds of every grouped org-wide last-name partition. */
export function orgLastNameGroupKeyRange(): { ge: string; lt: string } {
  return prefixRange(ORG_LAST_NAME_GROUP_PREFIX);
}

/** `[ge, lt)` bounds of every row of one name (its shards and its fence) in its group. */
export function orgLastNameRowRange(lastName: string): { ge: string; lt: string } {
  return prefixRange(encodedName(lastName) + SEPARATOR);
}

/**
 * RowKey of shard `shard` of a name's member list: `jones%~part_000`.
 *
 * @throws {Error} for a shard number outside 0-999.
 */
export function orgLastNameShardRowKey(lastName: string, shard: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard > 999) {
    throw lastNameShardOutOfRange(shard);
  }
  return `${encodedName(lastName)}${SEPARATOR}${SHARD}${String(shard).padStart(3, '0')}`;
}

/** RowKey of a name's drain fence: `jones%~~fence` (sorts after the name's shards). */
export function orgLastNameFenceRowKey(lastName: string): string {
  return `${encodedName(lastName)}${SEPARATOR}${FENCE}`;
}

/** What a grouped row is: a name's shard (`shard`) or its fence (`shard` undefined). */
export interface OrgLastNameRow {
  /** The normalised last name. */
  lastName: string;
  shard?: number;
}

/** Reverses {@link orgLastNameShardRowKey} and {@link orgLastNameFenceRowKey}. */
export function parseOrgLastNameRowKey(rowKey: string): OrgLastNameRow | undefined {
  const at = rowKey.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const rest = rowKey.slice(at + SEPARATOR.length);
  const match = /^part_(\d{3})$/.exec(rest);
  if (!match && rest !== FENCE) return undefined;
  let lastName: string;
  try {
    lastName = decodeKeyText(rowKey.slice(0, at));
  } catch {
    return undefined;
  }
  if (normalizeLastName(lastName) !== lastName) return undefined;
  return match ? { lastName, shard: Number(match[1]) } : { lastName };
}

// The per-name layout of the org-wide last-name index before 2026-12-07: one partition per name
// (`lastname_jones`), shard rows `part_000`, `part_001`, ... and the drain fence `~fence`. Nothing
// writes it any more; these keys let the search read what an upgrade left there and the sweep move
// it into the grouped layout (src/indexing/lastNames/legacyLastNames.ts).

const LEGACY_SHARD = /^part_(\d{3})$/;

/** PartitionKey of a name in the per-name layout: `lastname_jones`. */
export function legacyOrgLastNamePartitionKey(lastName: string): string {
  return LASTNAME_PREFIX + encodedName(lastName);
}

/** Reverses {@link legacyOrgLastNamePartitionKey}, giving the normalised last name. */
export function parseLegacyOrgLastNamePartitionKey(partitionKey: string): string | undefined {
  const lastName = parseLastNameRowKey(partitionKey);
  return lastName !== undefined && normalizeLastName(lastName) === lastName ? lastName : undefined;
}

/**
 * Bounds of every partition of the per-name layout (`lastnames_…` sorts after them): the same
 * `lastname_` prefix a department's own last-name RowKeys carry.
 */
export const legacyOrgLastNamePartitionKeyRange = lastNameRowKeyRange;

/**
 * RowKey of shard `shard` in the per-name layout: `part_000`.
 *
 * @throws {Error} for a shard number outside 0-999.
 */
export function legacyOrgLastNameShardRowKey(shard: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard > 999) {
    throw lastNameShardOutOfRange(shard);
  }
  return SHARD + String(shard).padStart(3, '0');
}

/** Reverses {@link legacyOrgLastNameShardRowKey}; `undefined` for the fence or anything else. */
export function parseLegacyOrgLastNameShardRowKey(rowKey: string): number | undefined {
  const match = LEGACY_SHARD.exec(rowKey);
  return match ? Number(match[1]) : undefined;
}
