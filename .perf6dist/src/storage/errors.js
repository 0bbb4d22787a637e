"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.storageStatus = storageStatus;
exports.storageCode = storageCode;
exports.isNotFound = isNotFound;
exports.isAlreadyExists = isAlreadyExists;
exports.isPreconditionFailed = isPreconditionFailed;
exports.toDomainError = toDomainError;
exports.withStorageErrors = withStorageErrors;
exports.tookEffect = tookEffect;
/**
 * Storage error codes become domain errors here, and nowhere else.
 *
 * The SDKs throw `RestError` (Tables, and Blob/Queue through core-rest-pipeline) with an HTTP
 * `statusCode` and the service's error `code`; a failed entity group transaction reports the
 * failing operation's code. Callers say what the missing or conflicting thing *is* through
 * {@link StorageErrorContext}, so messages name the domain object, not a storage detail.
 */
const core_rest_pipeline_1 = require("@azure/core-rest-pipeline");
const errors_1 = require("../errors");
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
function storageStatus(error) {
    if (error instanceof core_rest_pipeline_1.RestError || error?.name === 'RestError') {
        return error.statusCode;
    }
    const status = error?.statusCode;
    return typeof status === 'number' ? status : undefined;
}
/** The service's error code (`x-ms-error-code` / `odata.error.code`), if any. */
function storageCode(error) {
    const e = error;
    const fromDetails = e?.details?.errorCode ?? e?.details?.odataError?.code;
    if (typeof fromDetails === 'string')
        return fromDetails;
    return typeof e?.code === 'string' ? e.code : undefined;
}
/** True when the error says the entity, table, queue, container or blob does not exist. */
function isNotFound(error) {
    const code = storageCode(error);
    return storageStatus(error) === 404 || (code !== undefined && NOT_FOUND_CODES.has(code));
}
/** True when the error says the entity (or table, queue, container) exists already. */
function isAlreadyExists(error) {
    return storageStatus(error) === 409;
}
/** True when a conditional write lost (ETag mismatch, `UpdateConditionNotSatisfied`). */
function isPreconditionFailed(error) {
    return storageStatus(error) === 412;
}
/**
 * Translates a storage error into a domain error; anything unknown is returned unchanged (a bug
 * should surface as such).
 */
function toDomainError(error, context = {}) {
    if (error instanceof errors_1.DomainError)
        return error;
    const status = storageStatus(error);
    const code = storageCode(error);
    if (status === 404 || (code !== undefined && NOT_FOUND_CODES.has(code))) {
        return context.notFound
            ? new errors_1.NotFoundError(context.notFound.code, context.notFound.message, { cause: error })
            : new errors_1.NotFoundError(code ?? 'NotFound', 'The requested item does not exist.', {
                cause: error,
            });
    }
    if (status === 409 && context.conflict) {
        return new errors_1.ConflictError(context.conflict.code, context.conflict.message, { cause: error });
    }
    if (status === 412) {
        return new errors_1.PreconditionFailedError(context.preconditionFailed, 'PreconditionFailed', {
            cause: error,
        });
    }
    if (status === 503 || status === 500 || status === 429 || code === 'ServerBusy') {
        return new errors_1.ThrottledError(`Storage is busy (${code ?? status}) and did not recover within the retry budget.`, retryAfterSeconds(error), { cause: error });
    }
    if (status === undefined && code !== undefined && CONNECTION_CODES.has(code)) {
        return new errors_1.UnavailableError(`Storage could not be reached (${code}).`, { cause: error });
    }
    return error;
}
/**
 * Runs a storage call and rethrows its failure as a domain error.
 *
 * @throws {DomainError} for the storage faults {@link toDomainError} knows; the original error otherwise.
 */
async function withStorageErrors(operation, context = {}) {
    try {
        return await operation();
    }
    catch (error) {
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
async function tookEffect(write) {
    try {
        await write();
        return true;
    }
    catch (error) {
        if (isPreconditionFailed(error) || isAlreadyExists(error) || isNotFound(error))
            return false;
        throw toDomainError(error);
    }
}
function retryAfterSeconds(error) {
    const headers = error
        ?.response?.headers;
    const raw = headers?.get?.('retry-after');
    const seconds = raw === undefined ? NaN : Number(raw);
    return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 5;
}
//# sourceMappingURL=errors.js.map