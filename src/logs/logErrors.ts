/**
 * The log capability's errors, phrased once: bad queries and batches (4xx to the caller), queue
 * messages the flusher cannot read (the host retries, then moves them to the poison queue), and
 * the flusher's give-up when a log blob keeps changing or busy storage refuses a deferred batch.
 */
import {
  ThrottledError,
  TooLargeError,
  ValidationError,
  type ContentionError,
} from '../domainErrors';
import { contended } from '../storage/storageErrors';

/** 400: a query's source that is not a log source name. */
export function invalidQuerySource(): ValidationError {
  return new ValidationError(
    'query.source: must be 1-63 lowercase letters, digits or "-", starting with a letter or digit.',
    'query.source',
    'InvalidSource',
  );
}

/** 400: a query window that ends before it starts. */
export function reversedTimeWindow(): ValidationError {
  return new ValidationError(
    'query.to: must not be before query.from.',
    'query.to',
    'InvalidTimeWindow',
  );
}

/** 400: a level filter naming something that is not a level. */
export function unknownLevel(
  target: string,
  name: string,
  levels: readonly string[],
): ValidationError {
  return new ValidationError(
    `${target}: "${name}" is not a log level; use a comma-separated list of ${levels.join(', ')}.`,
    target,
    'InvalidLevel',
  );
}

/** 413: more entries in one request than a batch takes. */
export function tooManyLogEntries(count: number, max: number): TooLargeError {
  return new TooLargeError(
    `The batch holds ${count} entries; at most ${max} are accepted per request.`,
    'TooManyLogEntries',
  );
}

/** 413: one entry too large for a queue message once stored. */
export function logEntryTooLarge(index: number, size: number, budget: number): TooLargeError {
  return new TooLargeError(
    `body.entries[${index}] is ${size} bytes once stored; one entry may take at most ${budget} bytes.`,
    'LogEntryTooLarge',
  );
}

/** A queue message that is not a log message at all (`detail` says why, when known). */
export function invalidLogMessage(detail: string): ValidationError {
  return new ValidationError(detail, 'message', 'InvalidLogMessage');
}

/** A log message needs a part to carry (a bug in the caller). */
export function noLogMessageParts(): RangeError {
  return new RangeError('A log message needs at least one part.');
}

/** 503: the hour's blob kept changing under this flusher (the messages stay queued). */
export function logBlobContended(blobName: string, attempts: number): ContentionError {
  return contended(
    `Log blob ${blobName} kept changing; gave up after ${attempts} attempts.`,
    attempts,
    1,
  );
}

/** 503: busy storage refused a deferred batch's copy too (the trigger fails, to come back). */
export function logBatchDeferRefused(attempts: number): ThrottledError {
  return new ThrottledError(
    `Storage is busy: a log batch could be neither written nor queued again (${attempts} tries).`,
    5,
  );
}

/** A batch id or part number that cannot make a line tag (a bug in the caller). */
export function invalidLineTag(batchId: string, part: number): Error {
  return new Error(`Invalid batch id "${batchId}" or part ${part}.`);
}

/** A stored line with an escape the format does not define (`c` follows the backslash). */
export function malformedLineEscape(c: string): Error {
  return new Error(`Malformed escape "\\${c}" in a log line.`);
}

/** A stored line that does not start like a line of `version`. */
export function notALogLine(version: string, line: string): Error {
  return new Error(`Not a version ${version} log line: "${line.slice(0, 80)}".`);
}

/** A stored line whose header (time, level, tag) does not parse. */
export function malformedLineHeader(header: string): Error {
  return new Error(`Malformed log line header: "${header}".`);
}

/** A stored line with more or fewer fields than the format has. */
export function wrongFieldCount(line: string): Error {
  return new Error(`Log line has the wrong number of fields: "${line.slice(0, 80)}".`);
}

/** A stored line whose extra field is JSON but not an object. */
export function extraNotAnObject(): Error {
  return new Error('The extra field of a log line is not a JSON object.');
}

/** A line of a batch message tagged for another batch part (the message is then invalid). */
export function lineTagMismatch(found: string, expected: string): Error {
  return new Error(`line tag ${found} is not ${expected}`);
}

/** Blob metadata asked for no block at all (a bug in the caller). */
export function noBlocks(): Error {
  return new Error('A log blob needs at least one block.');
}

/** An hour blob asked for at an instant that does not start an hour (a bug in the caller). */
export function notHourStart(hourStart: Date): Error {
  return new Error(`${hourStart.toISOString()} is not the start of an hour.`);
}

/** A block summary out of the ranges a block id can carry (a bug in the caller). */
export function invalidBlockSummary(summary: unknown): Error {
  return new Error(`Invalid log block summary ${JSON.stringify(summary)}.`);
}
