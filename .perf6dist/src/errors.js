"use strict";
/**
 * Domain errors. `src/` throws only these (or lets a bug surface as a plain Error); the function
 * adapters alone decide which HTTP status each one becomes.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotConfiguredError = exports.UnavailableError = exports.ThrottledError = exports.TooLargeError = exports.PreconditionFailedError = exports.ConflictError = exports.NotFoundError = exports.ForbiddenError = exports.UnauthenticatedError = exports.ValidationError = exports.DomainError = void 0;
/** Base class: a stable machine-readable `code` plus a human sentence. */
class DomainError extends Error {
    code;
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
        this.name = new.target.name;
    }
}
exports.DomainError = DomainError;
/** The caller's input is malformed or breaks a rule (nothing was stored). */
class ValidationError extends DomainError {
    target;
    kind = 'invalid';
    constructor(message, 
    /** Where in the input the problem is, e.g. `body.email` or `query.pageSize`. */
    target, code = 'InvalidInput') {
        super(code, message);
        this.target = target;
    }
}
exports.ValidationError = ValidationError;
/** No identity where one is needed. */
class UnauthenticatedError extends DomainError {
    kind = 'unauthenticated';
    constructor(message = 'This operation needs an authenticated caller.', code = 'Unauthenticated') {
        super(code, message);
    }
}
exports.UnauthenticatedError = UnauthenticatedError;
/** The caller is known but not allowed to do this. */
class ForbiddenError extends DomainError {
    kind = 'forbidden';
    constructor(message, code = 'Forbidden') {
        super(code, message);
    }
}
exports.ForbiddenError = ForbiddenError;
/** The thing asked for does not exist. */
class NotFoundError extends DomainError {
    kind = 'notFound';
    constructor(code, message, options) {
        super(code, message, options);
    }
}
exports.NotFoundError = NotFoundError;
/** It exists already, or the current state forbids the change. */
class ConflictError extends DomainError {
    kind = 'conflict';
    constructor(code, message, options) {
        super(code, message, options);
    }
}
exports.ConflictError = ConflictError;
/** An `If-Match` ETag no longer matches. */
class PreconditionFailedError extends DomainError {
    kind = 'preconditionFailed';
    constructor(message = 'The resource changed since it was read (ETag mismatch).', code = 'PreconditionFailed', options) {
        super(code, message, options);
    }
}
exports.PreconditionFailedError = PreconditionFailedError;
/** The input is larger than a storage or API limit allows. */
class TooLargeError extends DomainError {
    kind = 'tooLarge';
    constructor(message, code = 'TooLarge') {
        super(code, message);
    }
}
exports.TooLargeError = TooLargeError;
/** Storage kept throttling or timing out after the SDK's retries. */
class ThrottledError extends DomainError {
    retryAfterSeconds;
    kind = 'throttled';
    constructor(message, 
    /** Seconds the caller should wait before trying again. */
    retryAfterSeconds, options) {
        super('StorageBusy', message, options);
        this.retryAfterSeconds = retryAfterSeconds;
    }
}
exports.ThrottledError = ThrottledError;
/** Storage cannot be reached at all. */
class UnavailableError extends DomainError {
    kind = 'unavailable';
    constructor(message, options) {
        super('StorageUnavailable', message, options);
    }
}
exports.UnavailableError = UnavailableError;
/** A feature needs a setting (e.g. an account key) that this deployment does not have. */
class NotConfiguredError extends DomainError {
    kind = 'notConfigured';
    constructor(message, code = 'NotConfigured') {
        super(code, message);
    }
}
exports.NotConfiguredError = NotConfiguredError;
//# sourceMappingURL=errors.js.map