/**
 * The storage layer's own errors, phrased once: give-ups of optimistic writes, limits of the
 * services, and guards of its helpers. (Storage faults become domain errors in errors.ts.)
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
 * The SDK-shaped error of a try that storage did not answer in time, so errors.ts maps it as a
 * connection failure (`ETIMEDOUT`) and the SDK's retry policy retries it.
 */
export function tryTimedOut(timeoutMs: number, request: PipelineRequest): RestError {
  return new RestError(
    `Storage did not answer within ${timeoutMs} ms (STORAGE_TRY_TIMEOUT_MS); the try was abandoned.`,
    { code: 'ETIMEDOUT', request },
  );
}

/** An entity group transaction over the service's operation limit (a bug in the caller). */
export function transactionTooLarge(operations: number, limit: number): Error {
  return new Error(`A transaction of ${operations} operations is over the ${limit} limit.`);
}
