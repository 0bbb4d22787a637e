/**
 * The key families' errors, phrased once: a name or value that cannot become (or come from) a
 * key is the caller's input error, named after the field it came from.
 */
import { ValidationError } from '../../domainErrors';

/** 400: a continuation token that this query did not produce (malformed, tampered or foreign). */
export function foreignContinuationToken(): ValidationError {
  return new ValidationError(
    'continuationToken is not a token this query produced; start again without it.',
    'continuationToken',
    'InvalidContinuationToken',
  );
}

/** 400: a department name that cannot be a key. */
export function invalidDepartment(department: string): ValidationError {
  return new ValidationError(
    `Department "${department}" is invalid: use 1-64 letters, digits, spaces, "-" or "_".`,
    'department',
    'InvalidDepartment',
  );
}

/** 400: an employee id that is not six digits. */
export function invalidEmployeeId(employeeId: string): ValidationError {
  return new ValidationError(
    `Employee id "${employeeId}" is invalid: use exactly six digits, e.g. 000223.`,
    'employeeId',
    'InvalidEmployeeId',
  );
}

/** 400: a year outside `from`-`to`. */
export function invalidYear(year: number, from: number, to: number): ValidationError {
  return new ValidationError(`Year ${year} is invalid: use ${from}-${to}.`, 'year', 'InvalidYear');
}

/** 400: an archive incarnation that is not one this code writes. */
export function invalidIncarnation(incarnation: string): ValidationError {
  return new ValidationError(
    `Incarnation "${incarnation}" is invalid.`,
    'incarnation',
    'InvalidIncarnation',
  );
}

/** 400: an outbox sequence that cannot be part of a RowKey. */
export function invalidOutboxSequence(sequence: string): ValidationError {
  return new ValidationError(
    `Outbox sequence "${sequence}" is invalid: use 1-40 characters of 0-9 and a-z.`,
    'sequence',
    'InvalidOutboxSequence',
  );
}

/** 400: a RowKey that is not an outbox row's. */
export function notAnOutboxRowKey(rowKey: string): ValidationError {
  return new ValidationError(
    `"${rowKey}" is not the RowKey of an outbox row.`,
    'rowKey',
    'InvalidOutboxRowKey',
  );
}

/** 400: a login user id of the wrong length. */
export function invalidUserId(length: number, maxLength: number): ValidationError {
  return new ValidationError(
    `User id must be 1-${maxLength} characters, got ${length}.`,
    'userId',
    'InvalidUserId',
  );
}

/** 400: an instant a table key cannot hold. */
export function unstorableTime(at: Date): ValidationError {
  return new ValidationError(
    `Time ${Number.isNaN(at.getTime()) ? 'Invalid Date' : at.toISOString()} cannot be stored: use 1601-01-01 to 9999-12-31 UTC.`,
    'at',
    'InvalidTime',
  );
}

/** 400: a log source that cannot be a blob name prefix. */
export function invalidLogSource(source: string): ValidationError {
  return new ValidationError(
    `Log source "${source}" is invalid: use 1-63 lowercase letters, digits or "-".`,
    'source',
    'InvalidSource',
  );
}

/** 400: a timer name that is not a Functions name. */
export function invalidTimerName(timerName: string): ValidationError {
  return new ValidationError(
    `Timer name "${timerName}" is invalid: use a Functions name (a letter, then letters, digits, "_" or "-").`,
    'timer',
    'InvalidTimerName',
  );
}

/** A count shard outside the department's shards (a bug in the caller). */
export function invalidCountShard(shard: number, shards: number): RangeError {
  return new RangeError(`Count shard ${shard} is invalid: use 0-${shards - 1}.`);
}

/** A fence version or change-marker id this code never writes (a bug, not input). */
export function invalidFenceVersion(value: number | string): RangeError {
  return new RangeError(
    `Fence ${typeof value === 'number' ? 'version' : 'marker id'} ${String(value)} is invalid: versions are whole numbers up to 10 digits, ids 32 hex digits.`,
  );
}
