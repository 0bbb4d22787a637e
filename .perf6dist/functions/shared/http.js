"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MAX_JSON_BYTES = void 0;
exports.json = json;
exports.errorBody = errorBody;
exports.errorResponse = errorResponse;
exports.handleErrors = handleErrors;
exports.validationErrorFrom = validationErrorFrom;
exports.validate = validate;
exports.readJson = readJson;
exports.readQuery = readQuery;
exports.readParams = readParams;
exports.ifMatch = ifMatch;
const errors_1 = require("../../src/errors");
/** Largest JSON body accepted by default (API.md: 413 above it). */
exports.DEFAULT_MAX_JSON_BYTES = 1024 * 1024;
const STATUS = {
    invalid: 400,
    unauthenticated: 401,
    forbidden: 403,
    notFound: 404,
    conflict: 409,
    preconditionFailed: 412,
    tooLarge: 413,
    throttled: 503,
    unavailable: 503,
    notConfigured: 501,
};
/** A JSON response. */
function json(status, body, headers = {}) {
    return {
        status,
        jsonBody: body,
        headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    };
}
/** The API's error body: `{"error": {"code", "message"}}`. */
function errorBody(code, message, target) {
    return { error: target ? { code, message, target } : { code, message } };
}
/**
 * Maps an error to the API's JSON error response. Domain errors get their status; anything else
 * is a bug: logged with its stack and answered 500 without internals.
 */
function errorResponse(error, context) {
    if (error instanceof errors_1.DomainError) {
        const headers = {};
        if (error.kind === 'throttled' || error.kind === 'unavailable') {
            headers['retry-after'] = String('retryAfterSeconds' in error
                ? error.retryAfterSeconds
                : 5);
            context?.warn(`${error.code}: ${error.message}`);
        }
        const target = error instanceof errors_1.ValidationError ? error.target : undefined;
        return json(STATUS[error.kind], errorBody(error.code, error.message, target), headers);
    }
    context?.error('Unhandled error', error);
    return json(500, errorBody('InternalError', 'An unexpected error occurred.'));
}
/** Wraps a handler so that every thrown error becomes the API's JSON error response. */
function handleErrors(handler) {
    return async (request, context) => {
        try {
            return await handler(request, context);
        }
        catch (error) {
            return errorResponse(error, context);
        }
    };
}
/** Turns zod issues into one {@link ValidationError} naming the first bad field. */
function validationErrorFrom(issues, where) {
    const issue = issues[0];
    const field = issue && issue.path.length > 0 ? `${where}.${issue.path.join('.')}` : where;
    return new errors_1.ValidationError(`${field}: ${issue?.message ?? 'invalid value'}.`, field);
}
/**
 * Validates any value against a schema.
 *
 * @throws {ValidationError} naming the first bad field.
 */
function validate(schema, value, where) {
    const result = schema.safeParse(value);
    if (!result.success)
        throw validationErrorFrom(result.error.issues, where);
    return result.data;
}
/**
 * Reads, size-checks, parses and validates a JSON body.
 *
 * @throws {TooLargeError} over `maxBytes`.
 * @throws {ValidationError} for a missing or malformed body, or one the schema refuses.
 */
async function readJson(request, schema, maxBytes = exports.DEFAULT_MAX_JSON_BYTES) {
    const declared = Number(request.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
        throw new errors_1.TooLargeError(`Request body of ${declared} bytes is over the ${maxBytes}-byte limit.`);
    }
    const bytes = Buffer.from(await request.arrayBuffer());
    if (bytes.length > maxBytes) {
        throw new errors_1.TooLargeError(`Request body of ${bytes.length} bytes is over the ${maxBytes}-byte limit.`);
    }
    if (bytes.length === 0) {
        return validate(schema, {}, 'body');
    }
    let parsed;
    try {
        parsed = JSON.parse(bytes.toString('utf8'));
    }
    catch {
        throw new errors_1.ValidationError('The request body is not valid JSON.', 'body', 'InvalidJson');
    }
    return validate(schema, parsed, 'body');
}
/**
 * Validates the query string (repeated keys: last wins) against a schema of strings.
 *
 * @throws {ValidationError} naming the first bad parameter.
 */
function readQuery(request, schema) {
    const query = {};
    request.query.forEach((value, key) => {
        query[key] = value;
    });
    return validate(schema, query, 'query');
}
/**
 * Validates route parameters against a schema.
 *
 * @throws {ValidationError} naming the first bad parameter.
 */
function readParams(request, schema) {
    return validate(schema, { ...request.params }, 'route');
}
/** The `If-Match` ETag of a request, if it sent one (`*` counts as none). */
function ifMatch(request) {
    const value = request.headers.get('if-match')?.trim();
    return value && value !== '*' ? value : undefined;
}
//# sourceMappingURL=http.js.map