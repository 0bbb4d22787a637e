/**
 * Every PartitionKey, RowKey, table, queue and blob name, built and parsed here in pure
 * encode/decode pairs. Nothing else in the code base concatenates keys.
 *
 * Rules this module enforces (Azure Table service): PartitionKey and RowKey are at most 1 KiB and
 * may not contain `/`, `\`, `#`, `?` or control characters (U+0000–U+001F, U+007F–U+009F).
 * Free text (emails, last names) is made key-safe with a reversible escape ({@link encodeKeyText}).
 *
 * Parsers of stored keys return `undefined` for a key of another type, so that readers can skip
 * entity types they do not know (heterogeneous tables).
 */
import { ValidationError } from '../errors';

// ---------------------------------------------------------------------------------------------
// Free text in keys
// ---------------------------------------------------------------------------------------------

/** Characters that may not appear in a key, plus `%`, the escape character itself. */
// eslint-disable-next-line no-control-regex
const KEY_UNSAFE = /[%/\\#?\u0000-\u001f\u007f-\u009f]/g;

/** Largest key size the service accepts, in UTF-16 code units (1 KiB of key). */
export const MAX_KEY_LENGTH = 1024;

/**
 * Makes free text safe for a PartitionKey/RowKey: `%`, `/`, `\`, `#`, `?` and control characters
 * become `%XX` (upper-case hex); every other character, including non-Latin letters and emoji, is
 * kept, so keys stay readable and mostly in the text's own sort order.
 */
export function encodeKeyText(text: string): string {
  return text.replace(
    KEY_UNSAFE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * Reverses {@link encodeKeyText}.
 *
 * @throws {Error} when the text holds a malformed escape or a character no encoded key can hold.
 */
export function decodeKeyText(encoded: string): string {
  if (/%(?![0-9A-F]{2})/.test(encoded)) throw new Error(`Malformed key escape in "${encoded}".`);
  const decoded = encoded.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  if (encodeKeyText(decoded) !== encoded) throw new Error(`Not an encoded key text: "${encoded}".`);
  return decoded;
}

/** Canonical form of an email for keys: Unicode NFC, lower case, trimmed. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

/** Canonical form of a last name for index keys: Unicode NFC, lower case, trimmed. */
export function normalizeLastName(lastName: string): string {
  return lastName.normalize('NFC').trim().toLowerCase();
}

/** `[ge, lt)` bounds that select every key starting with `prefix`. */
export function prefixRange(prefix: string): { ge: string; lt: string } {
  // Trailing U+FFFF cannot be incremented: drop it and carry into the previous character.
  const stem = prefix.replace(/\uffff+$/, '');
  if (stem === '') throw new Error('prefixRange needs a prefix with a character below U+FFFF.');
  const last = stem.charCodeAt(stem.length - 1);
  return { ge: prefix, lt: stem.slice(0, -1) + String.fromCharCode(last + 1) };
}

// ---------------------------------------------------------------------------------------------
// Identifiers from the API
// ---------------------------------------------------------------------------------------------

const DEPARTMENT = /^[A-Za-z0-9 _-]{1,64}$/;
const EMPLOYEE_ID = /^\d{6}$/;

/** True for a valid department name: 1–64 letters, digits, space, `-`, `_`. */
export function isDepartmentName(value: string): boolean {
  return DEPARTMENT.test(value);
}

/** True for a valid employee id: exactly six digits. */
export function isEmployeeId(value: string): boolean {
  return EMPLOYEE_ID.test(value);
}

function assertDepartment(department: string): void {
  if (!isDepartmentName(department)) {
    throw new ValidationError(
      `Department "${department}" is invalid: use 1-64 letters, digits, spaces, "-" or "_".`,
      'department',
      'InvalidDepartment',
    );
  }
}

function assertEmployeeId(employeeId: string): void {
  if (!isEmployeeId(employeeId)) {
    throw new ValidationError(
      `Employee id "${employeeId}" is invalid: use exactly six digits, e.g. 000223.`,
      'employeeId',
      'InvalidEmployeeId',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Employees table: one partition per department
// ---------------------------------------------------------------------------------------------

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
    throw new RangeError(
      `Count shard ${shard} is invalid: use 0-${MAX_DEPARTMENT_COUNT_SHARDS - 1}.`,
    );
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

const EMPLOYEE_PREFIX = 'empid_';
const EMAIL_PREFIX = 'email_';
const LASTNAME_PREFIX = 'lastname_';
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
    throw new ValidationError(`Year ${year} is invalid: use 1900-9999.`, 'year', 'InvalidYear');
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

/** Bounds of every review of every employee in a department partition (the index audit). */
export function reviewsRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(REVIEW_PREFIX);
}

// ---------------------------------------------------------------------------------------------
// EmployeeIndex table: inter-partition secondary indexes and org-wide last-name index (option 3)
// ---------------------------------------------------------------------------------------------

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

/** RowKey in a by-id index partition: the bare employee id. */
export function idIndexRowKey(employeeId: string): string {
  assertEmployeeId(employeeId);
  return employeeId;
}

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
    throw new Error(`Last-name index shard ${shard} must be 0-999.`);
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

// ---------------------------------------------------------------------------------------------
// Per-employee partitions (expenses, message stats, access log)
// ---------------------------------------------------------------------------------------------

/**
 * PartitionKey of per-employee data: `Sales_000223`. Spreads writes over one partition per
 * employee rather than one per time bucket (prepend/append anti-pattern).
 *
 * @throws {ValidationError} for an invalid department or employee id.
 */
export function employeePartitionKey(department: string, employeeId: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  return `${department}_${employeeId}`;
}

/** Reverses {@link employeePartitionKey}; the fixed-width id makes `_` in departments safe. */
export function parseEmployeePartitionKey(
  partitionKey: string,
): { department: string; employeeId: string } | undefined {
  const match = /^(.+)_(\d{6})$/.exec(partitionKey);
  if (!match || !isDepartmentName(match[1]!)) return undefined;
  return { department: match[1]!, employeeId: match[2]! };
}

// ---------------------------------------------------------------------------------------------
// Time in keys (.NET ticks: 100 ns intervals since 0001-01-01T00:00:00Z)
// ---------------------------------------------------------------------------------------------

/** Ticks between 0001-01-01 and the Unix epoch. */
const EPOCH_TICKS = 621_355_968_000_000_000n;
/** `DateTime.MaxValue.Ticks` (9999-12-31T23:59:59.9999999Z). */
export const MAX_TICKS = 3_155_378_975_999_999_999n;
const TICKS_PER_MS = 10_000n;

/** Earliest instant that key encodings and Azure Table `DateTime` properties accept. */
export const MIN_STORABLE_DATE = new Date(Date.UTC(1601, 0, 1));
/** Latest instant accepted. */
export const MAX_STORABLE_DATE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

/** .NET ticks of an instant (millisecond precision). */
export function toTicks(at: Date): bigint {
  return EPOCH_TICKS + BigInt(at.getTime()) * TICKS_PER_MS;
}

/** The instant of .NET ticks (truncated to milliseconds). */
export function fromTicks(ticks: bigint): Date {
  return new Date(Number((ticks - EPOCH_TICKS) / TICKS_PER_MS));
}

function assertStorableDate(at: Date): void {
  if (Number.isNaN(at.getTime()) || at < MIN_STORABLE_DATE || at > MAX_STORABLE_DATE) {
    throw new ValidationError(
      `Time ${Number.isNaN(at.getTime()) ? 'Invalid Date' : at.toISOString()} cannot be stored: use 1601-01-01 to 9999-12-31 UTC.`,
      'at',
      'InvalidTime',
    );
  }
}

const SUFFIX = /^[A-Za-z0-9-]{1,64}$/;

function assertSuffix(suffix: string): void {
  if (!SUFFIX.test(suffix)) throw new Error(`Key suffix "${suffix}" must be 1-64 of [A-Za-z0-9-].`);
}

/**
 * Log-tail RowKey: 19-digit `MAX_TICKS - ticks`, then `_` and a unique suffix, so that the newest
 * entity sorts first and two entities of the same tick stay distinct.
 *
 * @throws {ValidationError} for an instant outside 1601–9999.
 */
export function invertedTicksRowKey(at: Date, uniqueSuffix: string): string {
  assertStorableDate(at);
  assertSuffix(uniqueSuffix);
  return `${(MAX_TICKS - toTicks(at)).toString().padStart(19, '0')}_${uniqueSuffix}`;
}

/** Reverses {@link invertedTicksRowKey}. */
export function parseInvertedTicksRowKey(
  rowKey: string,
): { at: Date; uniqueSuffix: string } | undefined {
  const match = /^(\d{19})_([A-Za-z0-9-]{1,64})$/.exec(rowKey);
  if (!match) return undefined;
  return { at: fromTicks(MAX_TICKS - BigInt(match[1]!)), uniqueSuffix: match[2]! };
}

/**
 * Time-ordered RowKey: 19-digit ticks, then `_` and a unique suffix (oldest first).
 *
 * @throws {ValidationError} for an instant outside 1601–9999.
 */
export function ticksRowKey(at: Date, uniqueSuffix: string): string {
  assertStorableDate(at);
  assertSuffix(uniqueSuffix);
  return `${toTicks(at).toString().padStart(19, '0')}_${uniqueSuffix}`;
}

/** Reverses {@link ticksRowKey}. */
export function parseTicksRowKey(rowKey: string): { at: Date; uniqueSuffix: string } | undefined {
  const match = /^(\d{19})_([A-Za-z0-9-]{1,64})$/.exec(rowKey);
  if (!match) return undefined;
  return { at: fromTicks(BigInt(match[1]!)), uniqueSuffix: match[2]! };
}

/** `[ge, lt)` RowKey bounds of {@link ticksRowKey} keys with time in `[from, to)`. */
export function ticksRowKeyRange(from: Date, to: Date): { ge: string; lt: string } {
  assertStorableDate(from);
  assertStorableDate(to);
  return {
    ge: toTicks(from).toString().padStart(19, '0'),
    lt: toTicks(to).toString().padStart(19, '0'),
  };
}

function pad(value: number, width: number): string {
  return value.toString().padStart(width, '0');
}

/** `YYYYMMDD` of an instant's UTC day. */
export function utcDayStamp(at: Date): string {
  return `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}`;
}

/** Reverses {@link utcDayStamp}: midnight UTC of that day, or `undefined` if not a real date. */
export function parseUtcDayStamp(stamp: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(stamp);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC treats years 0-99 as 1900-1999; setUTCFullYear keeps them literal.
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
    ? date
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Login attempts: one table per UTC day
// ---------------------------------------------------------------------------------------------

/** Table name of one UTC day's login attempts: `LoginAttempts20261122`. */
export function loginTableName(prefix: string, day: Date): string {
  return prefix + utcDayStamp(day);
}

/**
 * Reverses {@link loginTableName}: the UTC day of a table named exactly `<prefix>YYYYMMDD`
 * (case-sensitive), or `undefined` for any other table.
 */
export function parseLoginTableName(prefix: string, tableName: string): Date | undefined {
  if (!tableName.startsWith(prefix)) return undefined;
  return parseUtcDayStamp(tableName.slice(prefix.length));
}

/** Longest accepted login user id, in UTF-16 code units (before escaping). */
export const MAX_LOGIN_USER_ID_LENGTH = 256;

/**
 * PartitionKey of one user's login attempts in a day table: the user id made key-safe with
 * {@link encodeKeyText}, so any id a user can type round-trips exactly.
 *
 * @throws {ValidationError} for an empty id or one longer than {@link MAX_LOGIN_USER_ID_LENGTH}.
 */
export function loginAttemptPartitionKey(userId: string): string {
  if (userId.length === 0 || userId.length > MAX_LOGIN_USER_ID_LENGTH) {
    throw new ValidationError(
      `User id must be 1-${MAX_LOGIN_USER_ID_LENGTH} characters, got ${userId.length}.`,
      'userId',
      'InvalidUserId',
    );
  }
  return encodeKeyText(userId);
}

/** Reverses {@link loginAttemptPartitionKey}; `undefined` for a key no user id encodes to. */
export function parseLoginAttemptPartitionKey(partitionKey: string): string | undefined {
  try {
    const userId = decodeKeyText(partitionKey);
    return userId.length > 0 && userId.length <= MAX_LOGIN_USER_ID_LENGTH ? userId : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Message statistics: data series and wide entities
// ---------------------------------------------------------------------------------------------

/** RowKey of one day's 24 hourly counters: `day_20261122`. */
export function hourlyStatsRowKey(day: Date): string {
  return `day_${utcDayStamp(day)}`;
}

/** Reverses {@link hourlyStatsRowKey}. */
export function parseHourlyStatsRowKey(rowKey: string): Date | undefined {
  return rowKey.startsWith('day_') ? parseUtcDayStamp(rowKey.slice(4)) : undefined;
}

/** RowKeys of the two physical entities of one year's 366 daily counters. */
export function yearlyStatsRowKeys(year: number): [string, string] {
  if (!Number.isInteger(year) || year < 1601 || year > 9999) {
    throw new ValidationError(`Year ${year} is invalid: use 1601-9999.`, 'year', 'InvalidYear');
  }
  return [`year_${pad(year, 4)}_1`, `year_${pad(year, 4)}_2`];
}

/** Reverses {@link yearlyStatsRowKeys} for one of its keys. */
export function parseYearlyStatsRowKey(rowKey: string): { year: number; part: 1 | 2 } | undefined {
  const match = /^year_(\d{4})_([12])$/.exec(rowKey);
  return match ? { year: Number(match[1]), part: Number(match[2]) as 1 | 2 } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Blobs
// ---------------------------------------------------------------------------------------------

const LOG_SOURCE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** True for a valid log source: 1–63 lowercase letters, digits and `-`, starting alphanumeric. */
export function isLogSource(source: string): boolean {
  return LOG_SOURCE.test(source);
}

/** Prefix of one UTC hour of one source's log blobs: `web/2026/11/22/1500/`. */
export function logHourPrefix(source: string, hour: Date): string {
  if (!isLogSource(source)) {
    throw new ValidationError(
      `Log source "${source}" is invalid: use 1-63 lowercase letters, digits or "-".`,
      'source',
      'InvalidSource',
    );
  }
  return (
    `${source}/${pad(hour.getUTCFullYear(), 4)}/${pad(hour.getUTCMonth() + 1, 2)}/` +
    `${pad(hour.getUTCDate(), 2)}/${pad(hour.getUTCHours(), 2)}00/`
  );
}

/** Blob name of the `sequence`-th log blob of an hour: `web/2026/11/22/1500/000000.log`. */
export function logBlobName(source: string, hour: Date, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > 999_999) {
    throw new Error(`Log blob sequence ${sequence} is outside 0-999999.`);
  }
  return `${logHourPrefix(source, hour)}${pad(sequence, 6)}.log`;
}

/** Reverses {@link logBlobName}. */
export function parseLogBlobName(
  blobName: string,
): { source: string; hour: Date; sequence: number } | undefined {
  const match =
    /^([a-z0-9][a-z0-9-]{0,62})\/(\d{4})\/(\d{2})\/(\d{2})\/(\d{2})00\/(\d{6})\.log$/.exec(
      blobName,
    );
  if (!match) return undefined;
  const day = parseUtcDayStamp(`${match[2]}${match[3]}${match[4]}`);
  const hours = Number(match[5]);
  if (!day || hours > 23) return undefined;
  return {
    source: match[1]!,
    hour: new Date(day.getTime() + hours * 3_600_000),
    sequence: Number(match[6]),
  };
}

/**
 * Root of everything the log pipeline keeps in the logs container besides the log blobs: tag
 * ledgers and staged batches. `_` can start no log source (`[a-z0-9][a-z0-9-]*`), so no
 * `<source>/` prefix, and thus no hour prefix a query or a Storage Analytics reader lists, ever
 * holds one of these blobs.
 */
export const LOG_PIPELINE_PREFIX = '_pipeline/';
const LOG_LEDGER_PREFIX = `${LOG_PIPELINE_PREFIX}ledgers/`;
const LOG_STAGING_PREFIX = `${LOG_PIPELINE_PREFIX}staging/`;
/** Where staged batches lived before {@link LOG_PIPELINE_PREFIX}; pointers may still name it. */
const LEGACY_LOG_STAGING_PREFIX = '_staging/';

/**
 * Name of the tag ledger of a log blob: `_pipeline/ledgers/web/2026/11/22/1500/000000.tags` for
 * `web/2026/11/22/1500/000000.log` (an append blob of `<block id> <tag>,<tag>…` lines; see
 * src/logs/tagLedger.ts). It mirrors the log blob's name under the pipeline prefix, so it is
 * never listed with the hour and still ages out with it (same lifecycle rule).
 *
 * @throws {Error} when `logBlob` is not a log blob name (a bug).
 */
export function logTagLedgerName(logBlob: string): string {
  if (!parseLogBlobName(logBlob)) throw new Error(`${logBlob} is not a log blob name.`);
  return `${LOG_LEDGER_PREFIX}${logBlob.slice(0, -'.log'.length)}.tags`;
}

/** Reverses {@link logTagLedgerName}: the log blob a ledger belongs to, `undefined` otherwise. */
export function parseLogTagLedgerName(ledgerName: string): string | undefined {
  if (!ledgerName.startsWith(LOG_LEDGER_PREFIX) || !ledgerName.endsWith('.tags')) return undefined;
  const logBlob = `${ledgerName.slice(LOG_LEDGER_PREFIX.length, -'.tags'.length)}.log`;
  return parseLogBlobName(logBlob) ? logBlob : undefined;
}

/**
 * Where the tag ledger of a log blob lived before {@link logTagLedgerName}: beside it in the hour
 * prefix (`…/1500/000000.tags`). Only read, as a fallback, for blocks committed by a flusher of
 * that earlier version; nothing writes there any more.
 *
 * @throws {Error} when `logBlob` is not a log blob name (a bug).
 */
export function legacyLogTagLedgerName(logBlob: string): string {
  if (!parseLogBlobName(logBlob)) throw new Error(`${logBlob} is not a log blob name.`);
  return `${logBlob.slice(0, -'.log'.length)}.tags`;
}

const LOG_BATCH_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Blob name of a staged log batch (one too large for a queue message):
 * `_pipeline/staging/<batchId>.json` in the logs container (see {@link LOG_PIPELINE_PREFIX}).
 *
 * @throws {Error} when `batchId` is not 1–64 letters, digits or `-` (a bug: ids are UUIDs).
 */
export function logStagingBlobName(batchId: string): string {
  if (!LOG_BATCH_ID.test(batchId)) throw new Error(`Log batch id "${batchId}" is invalid.`);
  return `${LOG_STAGING_PREFIX}${batchId}.json`;
}

/**
 * Reverses {@link logStagingBlobName}: the batch id, `undefined` for any other name. Also accepts
 * the earlier `_staging/<batchId>.json`, which pointer messages queued before the move still name.
 */
export function parseLogStagingBlobName(blobName: string): string | undefined {
  const prefix = [LOG_STAGING_PREFIX, LEGACY_LOG_STAGING_PREFIX].find((p) =>
    blobName.startsWith(p),
  );
  if (prefix === undefined || !blobName.endsWith('.json')) return undefined;
  const batchId = blobName.slice(prefix.length, -'.json'.length);
  return LOG_BATCH_ID.test(batchId) ? batchId : undefined;
}

/** Blob name of one version of an employee photo: `Sales/000223/<version>`. */
export function photoBlobName(department: string, employeeId: string, version: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  assertSuffix(version);
  return `${department}/${employeeId}/${version}`;
}

/** Reverses {@link photoBlobName}. */
export function parsePhotoBlobName(
  blobName: string,
): { department: string; employeeId: string; version: string } | undefined {
  const match = /^([A-Za-z0-9 _-]{1,64})\/(\d{6})\/([A-Za-z0-9-]{1,64})$/.exec(blobName);
  return match ? { department: match[1]!, employeeId: match[2]!, version: match[3]! } : undefined;
}

/** Prefix of every photo blob of one employee. */
export function photoBlobPrefix(department: string, employeeId: string): string {
  assertDepartment(department);
  assertEmployeeId(employeeId);
  return `${department}/${employeeId}/`;
}

// ---------------------------------------------------------------------------------------------
// Stored access policies (signed identifiers on a table, at most 5 per table, ids ≤ 64 chars)
// ---------------------------------------------------------------------------------------------

const SAS_POLICY_PREFIX = 'directory-sas-v';

/**
 * Id of one generation of the stored access policy that table SAS are bound to:
 * `directory-sas-v7`. Rotating the policy moves to the next generation.
 *
 * @throws {Error} for a generation that is not a positive safe integer.
 */
export function sasPolicyId(generation: number): string {
  if (!Number.isSafeInteger(generation) || generation < 1) {
    throw new Error(`SAS policy generation ${generation} must be a positive integer.`);
  }
  return `${SAS_POLICY_PREFIX}${generation}`;
}

/** Reverses {@link sasPolicyId}; `undefined` for a signed identifier someone else created. */
export function parseSasPolicyId(id: string): number | undefined {
  const match = /^directory-sas-v([1-9]\d{0,15})$/.exec(id);
  const generation = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(generation) ? generation : undefined;
}

// ---------------------------------------------------------------------------------------------
// Queues
// ---------------------------------------------------------------------------------------------

/** Name of the queue the Functions host moves a message to after its last failed attempt. */
export function poisonQueueName(queueName: string): string {
  return `${queueName}-poison`;
}

/** Reverses {@link poisonQueueName}. */
export function parsePoisonQueueName(queueName: string): string | undefined {
  return queueName.endsWith('-poison') ? queueName.slice(0, -'-poison'.length) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Continuation tokens
// ---------------------------------------------------------------------------------------------

/** The service's continuation position in a table query. */
export interface TableContinuation {
  nextPartitionKey: string;
  nextRowKey?: string;
}

/**
 * Opaque continuation token handed to API clients: base64url of a versioned JSON object.
 * `scope` binds the token to the query that produced it (e.g. `Sales|id|000100|000199`), so a
 * token cannot be replayed against another partition or range.
 */
export function encodeContinuationToken(scope: string, position: TableContinuation): string {
  return Buffer.from(
    JSON.stringify({ v: 1, s: scope, pk: position.nextPartitionKey, rk: position.nextRowKey }),
    'utf8',
  ).toString('base64url');
}

/**
 * The `@azure/data-tables` SDK's own continuation token for a position (what `byPage` accepts):
 * base64 of `{"nextPartitionKey","nextRowKey"}`. Non-ASCII characters are written as JSON `\uXXXX`
 * escapes because the SDK decodes the token's bytes one by one as Latin-1, not as UTF-8.
 */
export function toSdkContinuationToken(position: TableContinuation): string {
  const json = JSON.stringify(
    position.nextRowKey === undefined
      ? { nextPartitionKey: position.nextPartitionKey }
      : { nextPartitionKey: position.nextPartitionKey, nextRowKey: position.nextRowKey },
  ).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Buffer.from(json, 'ascii').toString('base64');
}

/**
 * Reverses {@link toSdkContinuationToken}: the position inside a page's `continuationToken`.
 *
 * @throws {Error} when the SDK's token is not in the expected shape (an SDK change).
 */
export function fromSdkContinuationToken(sdkToken: string): TableContinuation {
  const parsed = JSON.parse(Buffer.from(sdkToken, 'base64').toString('utf8')) as {
    nextPartitionKey?: unknown;
    nextRowKey?: unknown;
  };
  if (
    typeof parsed.nextPartitionKey !== 'string' ||
    (parsed.nextRowKey !== undefined && typeof parsed.nextRowKey !== 'string')
  ) {
    throw new Error('Unexpected continuation token shape from @azure/data-tables.');
  }
  return { nextPartitionKey: parsed.nextPartitionKey, nextRowKey: parsed.nextRowKey };
}

/**
 * Reverses {@link encodeContinuationToken} and checks the token belongs to `scope`.
 *
 * @throws {ValidationError} for a malformed, tampered or foreign token.
 */
export function decodeContinuationToken(scope: string, token: string): TableContinuation {
  const invalid = (): ValidationError =>
    new ValidationError(
      'continuationToken is not a token this query produced; start again without it.',
      'continuationToken',
      'InvalidContinuationToken',
    );
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const p = parsed as { v?: unknown; s?: unknown; pk?: unknown; rk?: unknown } | null;
  if (
    p === null ||
    typeof p !== 'object' ||
    p.v !== 1 ||
    p.s !== scope ||
    typeof p.pk !== 'string' ||
    (p.rk !== undefined && typeof p.rk !== 'string') ||
    encodeContinuationToken(scope, { nextPartitionKey: p.pk, nextRowKey: p.rk }) !== token
  ) {
    throw invalid();
  }
  return { nextPartitionKey: p.pk, nextRowKey: p.rk };
}

// ---------------------------------------------------------------------------------------------
// Index outbox rows in a department partition of `Employees` (transactional outbox)
// ---------------------------------------------------------------------------------------------

const OUTBOX_PREFIX = 'outbox_';
/** A sequence token: lowercase letters and digits, fixed order when compared as strings. */
const OUTBOX_SEQUENCE = /^[0-9a-z]{1,40}$/;

/**
 * RowKey of an index outbox row: `outbox_000223_<sequence>`. The employee id comes first, so one
 * employee's rows are contiguous, and the partition's rows are one range (`outboxRowKeyRange`).
 *
 * @throws {ValidationError} for an invalid employee id or a sequence that is not 1–40 characters
 *   of `[0-9a-z]`.
 */
export function outboxRowKey(employeeId: string, sequence: string): string {
  assertEmployeeId(employeeId);
  if (!OUTBOX_SEQUENCE.test(sequence)) {
    throw new ValidationError(
      `Outbox sequence "${sequence}" is invalid: use 1-40 characters of 0-9 and a-z.`,
      'sequence',
      'InvalidOutboxSequence',
    );
  }
  return `${OUTBOX_PREFIX}${employeeId}_${sequence}`;
}

/** Reverses {@link outboxRowKey}; `undefined` for any other RowKey. */
export function parseOutboxRowKey(
  rowKey: string,
): { employeeId: string; sequence: string } | undefined {
  if (!rowKey.startsWith(OUTBOX_PREFIX)) return undefined;
  const rest = rowKey.slice(OUTBOX_PREFIX.length);
  const employeeId = rest.slice(0, 6);
  const sequence = rest.slice(7);
  return isEmployeeId(employeeId) && rest[6] === '_' && OUTBOX_SEQUENCE.test(sequence)
    ? { employeeId, sequence }
    : undefined;
}

/** Bounds of every outbox row in a department partition (one range query drains them). */
export function outboxRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(OUTBOX_PREFIX);
}
