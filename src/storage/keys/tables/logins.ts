/** Login attempts: one table per UTC day, one partition per user. */
import { invalidUserId } from '../keyErrors';
import { decodeKeyText, encodeKeyText } from '../text';
import { parseUtcDayStamp, utcDayStamp } from '../time';

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
    throw invalidUserId(userId.length, MAX_LOGIN_USER_ID_LENGTH);
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
