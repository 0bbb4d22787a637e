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
 * last-name partitions (`lastname_…`, which `~` sorts after).
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

/** PartitionKey of an org-wide last-name index entity (option 3): `lastname_jones`. */
export function orgLastNamePartitionKey(lastName: string): string {
  return LASTNAME_PREFIX + encodeKeyText(normalizeLastName(lastName));
}

/** Reverses {@link orgLastNamePartitionKey}, giving the normalised last name. */
export function parseOrgLastNamePartitionKey(partitionKey: string): string | undefined {
  return parseLastNameRowKey(partitionKey);
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

const LASTNAME_SHARD_PREFIX = 'part_';

/**
 * RowKey of one shard of an org-wide last-name index entity (option 3): `part_000`. A last name
 * whose member list outgrows one entity continues in `part_001`, ... of the same partition, so one
 * partition query still reads all of it.
 *
 * @throws {Error} for a shard number outside 0-999.
 */
export function orgLastNameShardRowKey(shard: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard > 999) {
    throw lastNameShardOutOfRange(shard);
  }
  return LASTNAME_SHARD_PREFIX + String(shard).padStart(3, '0');
}

/** Reverses {@link orgLastNameShardRowKey}. */
export function parseOrgLastNameShardRowKey(rowKey: string): number | undefined {
  const match = /^part_(\d{3})$/.exec(rowKey);
  return match ? Number(match[1]) : undefined;
}

/** Bounds of every org-wide last-name index partition (option 3) in `EmployeeIndex`. */
export function orgLastNamePartitionKeyRange(): { ge: string; lt: string } {
  return prefixRange(LASTNAME_PREFIX);
}
