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

/** An encoded key text with a `%` not followed by two hex digits (stored data, not input). */
export function malformedKeyEscape(encoded: string): Error {
  return new Error(`Malformed key escape in "${encoded}".`);
}

/** A text that `encodeKeyText` would not have produced (stored data, not input). */
export function notEncodedKeyText(encoded: string): Error {
  return new Error(`Not an encoded key text: "${encoded}".`);
}

/** `prefixRange` called with a prefix of only U+FFFF (a bug in the caller). */
export function noPrefixStem(): Error {
  return new Error('prefixRange needs a prefix with a character below U+FFFF.');
}

/** A key suffix this code never builds (a bug in the caller). */
export function invalidKeySuffix(suffix: string): Error {
  return new Error(`Key suffix "${suffix}" must be 1-64 of [A-Za-z0-9-].`);
}

/** The SDK handed back a continuation token of a shape this code does not know. */
export function unexpectedSdkToken(): Error {
  return new Error('Unexpected continuation token shape from @azure/data-tables.');
}

/** An org last-name shard outside 0-999 (a bug in the caller). */
export function lastNameShardOutOfRange(shard: number): Error {
  return new Error(`Last-name index shard ${shard} must be 0-999.`);
}

/** A log blob sequence outside 0-999999 (a bug in the caller). */
export function logSequenceOutOfRange(sequence: number): Error {
  return new Error(`Log blob sequence ${sequence} is outside 0-999999.`);
}

/** A name that is not a log hour blob's (a bug in the caller). */
export function notALogBlobName(logBlob: string): Error {
  return new Error(`${logBlob} is not a log blob name.`);
}

/** A log batch id this code never issues (a bug in the caller). */
export function invalidLogBatchId(batchId: string): Error {
  return new Error(`Log batch id "${batchId}" is invalid.`);
}

/** A SAS policy generation that is not a positive integer (a bug in the caller). */
export function invalidPolicyGeneration(generation: number): Error {
  return new Error(`SAS policy generation ${generation} must be a positive integer.`);
}
