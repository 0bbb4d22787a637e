/**
 * Keys of the `Employees` table: one partition per department (department entity and count shards,
 * employees, email and last-name index rows, reviews) and the department listing.
 */
import { invalidCountShard, invalidYear } from '../keyErrors';
import {
  decodeKeyText,
  encodeKeyText,
  normalizeEmail,
  normalizeLastName,
  prefixRange,
} from '../text';
import { assertDepartment, assertEmployeeId, isDepartmentName, isEmployeeId } from '../identifiers';

/**
 * PartitionKey of a department's partition in `Employees` (and `EmployeesArchive`).
 *
 * @throws {ValidationError} for an invalid department name.
 */
export function departmentPartitionKey(department: string): string {
  assertDepartment(department);
  return department;
}

/** Reverses {@link departmentPartitionKey}; `undefined` for a key that is not a department. */
export function parseDepartmentPartitionKey(partitionKey: string): string | undefined {
  return isDepartmentName(partitionKey) ? partitionKey : undefined;
}

/** RowKey of the department entity inside its own partition. */
export const DEPARTMENT_ROW_KEY = 'department';

/**
 * RowKey prefix of the department's employee-count shards. They sort right after
 * {@link DEPARTMENT_ROW_KEY} and before every other entity of the partition, so the department and
 * its count are one range query ({@link departmentWithCountRowKeyRange}).
 */
const DEPARTMENT_COUNT_SHARD_PREFIX = `${DEPARTMENT_ROW_KEY}_count_`;

/** Most count shards a department may have (two-digit shard numbers). */
export const MAX_DEPARTMENT_COUNT_SHARDS = 100;

/**
 * RowKey of employee-count shard `shard` of a department: `department_count_07`.
 *
 * @throws {RangeError} for a shard that is not an integer in 0–99.
 */
export function departmentCountShardRowKey(shard: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard >= MAX_DEPARTMENT_COUNT_SHARDS)
    throw invalidCountShard(shard, MAX_DEPARTMENT_COUNT_SHARDS);
  return `${DEPARTMENT_COUNT_SHARD_PREFIX}${String(shard).padStart(2, '0')}`;
}

/** Reverses {@link departmentCountShardRowKey}; `undefined` for any other RowKey. */
export function parseDepartmentCountShardRowKey(rowKey: string): number | undefined {
  if (!rowKey.startsWith(DEPARTMENT_COUNT_SHARD_PREFIX)) return undefined;
  const digits = rowKey.slice(DEPARTMENT_COUNT_SHARD_PREFIX.length);
  return /^\d{2}$/.test(digits) ? Number(digits) : undefined;
}

/**
 * RowKey range `[ge, lt)` holding exactly the department entity and its count shards (every
 * other RowKey of a department partition sorts outside it).
 */
export function departmentWithCountRowKeyRange(): { ge: string; lt: string } {
  // '`' is the character after '_': the range ends right after the last possible shard key.
  return { ge: DEPARTMENT_ROW_KEY, lt: `${DEPARTMENT_ROW_KEY}_count\`` };
}

/**
 * PartitionKey of the department listing in `Employees` (one small entity per department, so
 * `GET /departments` is one partition range query instead of a table scan). It starts with `.`,
 * which no department name may contain, so it can never collide with a department partition and
 * {@link parseDepartmentPartitionKey} skips it.
 */
export const DEPARTMENT_LIST_PARTITION_KEY = '.departments';

/**
 * RowKey of one department in the department listing: the department name itself.
 *
 * @throws {ValidationError} for an invalid department name.
 */
export function departmentListRowKey(department: string): string {
  assertDepartment(department);
  return department;
}

/** Reverses {@link departmentListRowKey}; `undefined` for a key that is not a department. */
export function parseDepartmentListRowKey(rowKey: string): string | undefined {
  return isDepartmentName(rowKey) ? rowKey : undefined;
}

/**
 * RowKey prefixes of the entity types in a department's partition (also EmployeeIndex's
 * partitions).
 */
export const EMPLOYEE_PREFIX = 'empid_';
export const EMAIL_PREFIX = 'email_';
export const LASTNAME_PREFIX = 'lastname_';
const REVIEW_PREFIX = 'review_';

/**
 * RowKey of an employee entity: `empid_000223`.
 *
 * @throws {ValidationError} for an invalid employee id.
 */
export function employeeRowKey(employeeId: string): string {
  assertEmployeeId(employeeId);
  return EMPLOYEE_PREFIX + employeeId;
}

/** Reverses {@link employeeRowKey}. */
export function parseEmployeeRowKey(rowKey: string): string | undefined {
  if (!rowKey.startsWith(EMPLOYEE_PREFIX)) return undefined;
  const id = rowKey.slice(EMPLOYEE_PREFIX.length);
  return isEmployeeId(id) ? id : undefined;
}

/** Bounds of every employee RowKey in a partition, or of an inclusive id range. */
export function employeeRowKeyRange(fromId?: string, toId?: string): { ge: string; lt: string } {
  const all = prefixRange(EMPLOYEE_PREFIX);
  return {
    ge: fromId === undefined ? all.ge : employeeRowKey(fromId),
    // toId is inclusive in the API: stop before the next id's key (no control character in the
    // filter, which not every endpoint accepts); after 999999 the prefix's own end bound.
    lt:
      toId === undefined || employeeRowKey(toId) === EMPLOYEE_PREFIX + '999999'
        ? all.lt
        : employeeRowKey(String(Number(toId) + 1).padStart(6, '0')),
  };
}

/** RowKey of the email copy of an employee: `email_` + the escaped, normalised address. */
export function emailRowKey(email: string): string {
  return EMAIL_PREFIX + encodeKeyText(normalizeEmail(email));
}

/** Reverses {@link emailRowKey}, giving the normalised address. */
export function parseEmailRowKey(rowKey: string): string | undefined {
  if (!rowKey.startsWith(EMAIL_PREFIX)) return undefined;
  try {
    return decodeKeyText(rowKey.slice(EMAIL_PREFIX.length));
  } catch {
    return undefined;
  }
}

/** Bounds of email copies with normalised address in `[from, to)`; open ends when omitted. */
export function emailRowKeyRange(from?: string, to?: string): { ge: string; lt: string } {
  const all = prefixRange(EMAIL_PREFIX);
  return {
    ge: from === undefined ? all.ge : emailRowKey(from),
    lt: to === undefined ? all.lt : emailRowKey(to),
  };
}

/** RowKey of the same-partition last-name index entity (index entities, option 2). */
export function lastNameRowKey(lastName: string): string {
  return LASTNAME_PREFIX + encodeKeyText(normalizeLastName(lastName));
}

/** Reverses {@link lastNameRowKey}, giving the normalised last name. */
export function parseLastNameRowKey(rowKey: string): string | undefined {
  if (!rowKey.startsWith(LASTNAME_PREFIX)) return undefined;
  try {
    return decodeKeyText(rowKey.slice(LASTNAME_PREFIX.length));
  } catch {
    return undefined;
  }
}

/** Bounds of every last-name index entity in a partition. */
export function lastNameRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(LASTNAME_PREFIX);
}

/**
 * RowKey of a yearly review (compound key): `review_000223_2024`.
 *
 * @throws {ValidationError} for an invalid employee id or a year outside 1900–9999.
 */
export function reviewRowKey(employeeId: string, year: number): string {
  assertEmployeeId(employeeId);
  if (!Number.isInteger(year) || year < 1900 || year > 9999) {
    throw invalidYear(year, 1900, 9999);
  }
  return `${REVIEW_PREFIX}${employeeId}_${year}`;
}

/** Reverses {@link reviewRowKey}. */
export function parseReviewRowKey(
  rowKey: string,
): { employeeId: string; year: number } | undefined {
  const match = /^review_(\d{6})_(\d{4})$/.exec(rowKey);
  return match ? { employeeId: match[1]!, year: Number(match[2]) } : undefined;
}

/** Bounds of every review of one employee, ordered by year. */
export function reviewRowKeyRange(employeeId: string): { ge: string; lt: string } {
  assertEmployeeId(employeeId);
  return prefixRange(`${REVIEW_PREFIX}${employeeId}_`);
}

/**
 * Bounds of every review of every employee in a department partition (the index audit), or of
 * the employees of an inclusive id range (one page of the paged audit); open ends when omitted.
 */
export function reviewsRowKeyRange(fromId?: string, toId?: string): { ge: string; lt: string } {
  const all = prefixRange(REVIEW_PREFIX);
  if (fromId !== undefined) assertEmployeeId(fromId);
  if (toId !== undefined) assertEmployeeId(toId);
  return {
    ge: fromId === undefined ? all.ge : `${REVIEW_PREFIX}${fromId}_`,
    // `_` sorts before every digit's successor: the next id's prefix ends the range.
    lt:
      toId === undefined || toId === '999999' ? all.lt : `${REVIEW_PREFIX}${nextEmployeeId(toId)}_`,
  };
}

/** The id after `employeeId` (six digits), or `undefined` after 999999. */
export function nextEmployeeId(employeeId: string): string | undefined {
  assertEmployeeId(employeeId);
  return employeeId === '999999' ? undefined : String(Number(employeeId) + 1).padStart(6, '0');
}
