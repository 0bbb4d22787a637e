/**
 * The storage layer's own errors, phrased once: give-ups of optimistic writes, limits of the
 * services, and guards of its helpers. (Storage faults become domain errors in storageFaults.ts.)
 */
import { RestError, type PipelineRequest } from '@azure/core-rest-pipeline';
import { ContentionError, TooLargeError } from '../domainErrors';

/**
 * 503: an optimistic write kept losing its race (storage/optimisticRetry.ts).
 *
 * @param message - what kept changing, in the capability's words.
 * @param retryAfterSeconds - the wait suggested to the caller.
 */
export function contended(
  message: string,
  attempts: number,
  retryAfterSeconds: number,
): ContentionError {
  return new ContentionError(message, retryAfterSeconds, attempts);
}

/** 413: a queue message over the service's size limit. */
export function queueMessageTooLarge(bytes: number, limit: number): TooLargeError {
  return new TooLargeError(`Queue message of ${bytes} bytes is over the ${limit}-byte limit.`);
}

/** A helper's count option is not a positive integer (a bug in the caller). */
export function notPositiveInteger(name: string, value: number): RangeError {
  return new RangeError(`${name} must be a positive integer, not ${value}.`);
}

/**
 * The SDK-shaped error of a try that storage did not answer in time, so storageFaults.ts maps it
 * as a connection failure (`ETIMEDOUT`) and the SDK's retry policy retries it.
 */
export function tryTimedOut(timeoutMs: number, request: PipelineRequest): RestError {
  return new RestError(
    `Storage did not answer within ${timeoutMs} ms (STORAGE_TRY_TIMEOUT_MS); the try was abandoned.`,
    { code: 'ETIMEDOUT', request },
  );
}

/** An ETag with a line break cannot be placed in a changeset header (a bug in the caller). */
export function etagWithLineBreak(etag: string): Error {
  return new Error(`An ETag must not contain a line break: ${JSON.stringify(etag)}.`);
}

/** Two ETag conditions for one entity of a transaction (a bug in the caller). */
export function duplicateCondition(partitionKey: string, rowKey: string): Error {
  return new Error(`Two conditions name the entity (${partitionKey}, ${rowKey}).`);
}

/** A condition's entity is addressed by several operations of the transaction (a bug). */
export function ambiguousCondition(partitionKey: string, rowKey: string): Error {
  return new Error(`Several operations address the entity (${partitionKey}, ${rowKey}).`);
}

/** A condition that no delete or update of the transaction can carry (a bug in the caller). */
export function conditionWithoutOperation(partitionKey: string, rowKey: string): Error {
  return new Error(
    `No delete or update of (${partitionKey}, ${rowKey}) in the transaction ` +
      'can carry its ETag.',
  );
}

/** The SDK built a `$batch` body that is not text: nothing was sent. */
export function batchBodyNotText(): Error {
  return new Error(
    'An entity group transaction body is not text: its ETag conditions cannot be placed, ' +
      'so nothing was sent.',
  );
}

/** A transaction went out without the conditions policy (its deletes were unconditional). */
export function conditionsNotApplied(): Error {
  return new Error(
    'An entity group transaction was sent without passing the conditions policy: its deletes ' +
      'were unconditional.',
  );
}

/** A connection string with neither the service's endpoint nor an AccountName. */
export function missingEndpoint(service: string): Error {
  return new Error(
    `The storage connection string has no ${service[0]!.toUpperCase()}${service.slice(1)}Endpoint and no AccountName.`,
  );
}

/** A connection string without the shared key (AccountName and AccountKey). */
export function missingSharedKey(): Error {
  return new Error('The storage connection string needs AccountName and AccountKey.');
}

/**
 * 503: the time-keyed insert (storage/tables/timeKeyedInsert.ts) spent its attempts: every RowKey
 * suffix it drew was taken, or its connection kept dropping before the entity was stored.
 */
export function timeKeyedInsertGaveUp(attempts: number): ContentionError {
  return contended(
    `Could not insert a time-keyed entity after ${attempts} attempts ` +
      '(RowKey suffixes taken or the connection kept dropping).',
    attempts,
    1,
  );
}

/** An entity group transaction over the service's operation limit (a bug in the caller). */
export function transactionTooLarge(operations: number, limit: number): Error {
  return new Error(`A transaction of ${operations} operations is over the ${limit} limit.`);
}
