/**
 * Storage error codes become domain errors here, and nowhere else.
 *
 * The SDKs throw `RestError` (Tables, and Blob/Queue through core-rest-pipeline) with an HTTP
 * `statusCode` and the service's error `code`; a failed entity group transaction reports the
 * failing operation's code. Callers say what the missing or conflicting thing *is* through
 * {@link StorageErrorContext}, so messages name the domain object, not a storage detail.
 */
import { RestError } from '@azure/core-rest-pipeline';
import {
  ConflictError,
  DomainError,
  NotFoundError,
  PreconditionFailedError,
  ThrottledError,
  UnavailableError,
} from '../domainErrors';

/** What the failed operation was about, to phrase the domain error. */
export interface StorageErrorContext {
  /** Thrown as `NotFoundError(code, message)` for 404s. */
  notFound?: { code: string; message: string };
  /** Thrown as `ConflictError(code, message)` for 409s. */
  conflict?: { code: string; message: string };
  /** Message for 412s (ETag mismatch). */
  preconditionFailed?: string;
}

/** Storage error codes meaning "the thing is not there". */
const NOT_FOUND_CODES = new Set([
  'ResourceNotFound',
  'EntityNotFound',
  'TableNotFound',
  'QueueNotFound',
  'ContainerNotFound',
  'BlobNotFound',
  'MessageNotFound',
]);

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'REQUEST_SEND_ERROR',
]);

/** The HTTP status of a storage error, if it has one. */
export function storageStatus(error: unknown): number | undefined {
  if (error instanceof RestError || (error as { name?: string } | null)?.name === 'RestError') {
    return (error as RestError).statusCode;
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The service's error code (`x-ms-error-code` / `odata.error.code`), if any. */
export function storageCode(error: unknown): string | undefined {
  const e = error as {
    code?: unknown;
    details?: { errorCode?: unknown; odataError?: { code?: unknown } };
  } | null;
  const fromDetails = e?.details?.errorCode ?? e?.details?.odataError?.code;
  if (typeof fromDetails === 'string') return fromDetails;
  return typeof e?.code === 'string' ? e.code : undefined;
}

/** True when the error says the entity, table, queue, container or blob does not exist. */
export function isNotFound(error: unknown): boolean {
  const code = storageCode(error);
  return storageStatus(error) === 404 || (code !== undefined && NOT_FOUND_CODES.has(code));
}

/** True when the error says the entity (or table, queue, container) exists already. */
export function isAlreadyExists(error: unknown): boolean {
  return storageStatus(error) === 409;
}

/** True when a conditional write lost (ETag mismatch, `UpdateConditionNotSatisfied`). */
export function isPreconditionFailed(error: unknown): boolean {
  return storageStatus(error) === 412;
}

/**
 * 409 codes that say the thing is going away anyway (its container is being deleted). Every other
 * 409 on a delete is a refusal (`SnapshotsPresent`, an immutability policy...) and is reported, not
 * taken for "already gone".
 */
const GOING_AWAY_CODES = new Set(['ContainerBeingDeleted']);

/**
 * 412 codes of a failed `If-Match`/`If-None-Match`/`If-Unmodified-Since` condition. Lease
 * refusals (`LeaseIdMissing`, `LeaseIdMismatchWithBlobOperation`...) are 412 too, and are not the
 * caller's condition.
 */
const CONDITION_CODES = new Set(['ConditionNotMet', 'UpdateConditionNotSatisfied']);

/**
 * True when a delete found nothing to delete: 404 (the blob or its container is not there), or one
 * of the few 409 codes meaning it is being deleted already. Not any other 409.
 */
export function isAlreadyGone(error: unknown): boolean {
  if (isNotFound(error)) return true;
  const code = storageCode(error);
  return storageStatus(error) === 409 && code !== undefined && GOING_AWAY_CODES.has(code);
}

/** True when the request's own condition (an ETag or date) failed; not a lease refusal. */
export function isConditionNotMet(error: unknown): boolean {
  const code = storageCode(error);
  return storageStatus(error) === 412 && code !== undefined && CONDITION_CODES.has(code);
}

/**
 * Translates a storage error into a domain error; anything unknown is returned unchanged (a bug
 * should surface as such).
 */
export function toDomainError(error: unknown, context: StorageErrorContext = {}): unknown {
  if (error instanceof DomainError) return error;
  const status = storageStatus(error);
  const code = storageCode(error);
  if (status === 404 || (code !== undefined && NOT_FOUND_CODES.has(code))) {
    return context.notFound
      ? new NotFoundError(context.notFound.code, context.notFound.message, { cause: error })
      : new NotFoundError(code ?? 'NotFound', 'The requested item does not exist.', {
          cause: error,
        });
  }
  if (status === 409 && context.conflict) {
    return new ConflictError(context.conflict.code, context.conflict.message, { cause: error });
  }
  if (status === 412) {
    return new PreconditionFailedError(context.preconditionFailed, 'PreconditionFailed', {
      cause: error,
    });
  }
  if (status === 503 || status === 500 || status === 429 || code === 'ServerBusy') {
    return new ThrottledError(
      `Storage is busy (${code ?? status}) and did not recover within the retry budget.`,
      retryAfterSeconds(error),
      { cause: error },
    );
  }
  if (status === undefined && code !== undefined && CONNECTION_CODES.has(code)) {
    return new UnavailableError(`Storage could not be reached (${code}).`, { cause: error });
  }
  return error;
}

/**
 * Seconds to wait when `error` is storage throttling past the SDK's retries (`ServerBusy`, 503 or
 * 500 after the budget: Azure's scalability targets) or another {@link ThrottledError} (a
 * relocation's freeze, contention), else `undefined`: a failure that passes, for work that
 * should slow down rather than spend its queue deliveries.
 */
export function throttleWaitSeconds(error: unknown): number | undefined {
  const domain = toDomainError(error);
  return domain instanceof ThrottledError ? domain.retryAfterSeconds : undefined;
}

/**
 * Runs a storage call and rethrows its failure as a domain error.
 *
 * @throws {DomainError} for the storage faults {@link toDomainError} knows; the original error
 *   otherwise.
 */
export async function withStorageErrors<T>(
  operation: () => Promise<T>,
  context: StorageErrorContext = {},
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toDomainError(error, context);
  }
}

/**
 * Runs a storage read whose target may be absent: its result, or `undefined` on 404.
 *
 * @throws {DomainError} for the other storage faults {@link toDomainError} knows; the original
 *   error otherwise.
 */
export async function unlessNotFound<T>(
  read: () => Promise<T>,
  context: StorageErrorContext = {},
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw toDomainError(error, context);
  }
}

/**
 * Runs a conditional write (an ETag-conditional update or delete, or a create): true when it took
 * effect, false when a concurrent change won the race (412, 409 or 404), so the caller re-reads
 * and decides again instead of failing.
 *
 * @throws {DomainError} for other storage faults (see {@link toDomainError}).
 */
export async function tookEffect(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isPreconditionFailed(error) || isAlreadyExists(error) || isNotFound(error)) return false;
    throw toDomainError(error);
  }
}

function retryAfterSeconds(error: unknown): number {
  const headers = (error as { response?: { headers?: { get?(name: string): string | undefined } } })
    ?.response?.headers;
  const raw = headers?.get?.('retry-after');
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 5;
}
