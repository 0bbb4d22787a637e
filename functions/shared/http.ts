/**
 * What every HTTP adapter shares: reading and validating input, and turning results and domain
 * errors into responses. The mapping of domain errors to status codes lives here and only here.
 */
import { inspect } from 'node:util';
import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import type { z } from 'zod';
import {
  DomainError,
  type InputProblem,
  TooLargeError,
  UnsupportedMediaTypeError,
  validateInput,
  ValidationError,
} from '../../src/domainErrors';
import { redactText } from '../../src/telemetry/redaction';

/** Largest JSON body accepted by default (API.md: 413 above it). */
const DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

const STATUS: Record<DomainError['kind'], number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  preconditionFailed: 412,
  lengthRequired: 411,
  tooLarge: 413,
  unsupportedMediaType: 415,
  throttled: 503,
  unavailable: 503,
  notConfigured: 501,
};

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponseInit {
  return {
    status,
    jsonBody: body,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  };
}

/** A JSON response of a stored value with its ETag (`ETag` header: what `If-Match` takes next). */
export function versionedJson(
  status: number,
  result: { value: unknown; etag: string },
): HttpResponseInit {
  return json(status, result.value, { etag: result.etag });
}

/**
 * The API's error body: `{"error": {"code", "message"}}`, with `target` (the first offending
 * input) and `details` (every invalid field, `[{field, problem}]`) for invalid input.
 */
export function errorBody(
  code: string,
  message: string,
  target?: string,
  details?: readonly InputProblem[],
): unknown {
  return {
    error: {
      code,
      message,
      ...(target ? { target } : {}),
      ...(details && details.length > 0 ? { details } : {}),
    },
  };
}

/**
 * Maps an error to the API's JSON error response. Domain errors get their status; anything else
 * is a bug: logged with its stack and answered 500 without internals. The log is redacted as spans
 * are (src/telemetry/redaction.ts): a failed Durable client call's error carries its URL, with the
 * host key as `code=`.
 */
export function errorResponse(error: unknown, context?: InvocationContext): HttpResponseInit {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (error.kind === 'throttled' || error.kind === 'unavailable') {
      headers['retry-after'] = String(
        'retryAfterSeconds' in error
          ? (error as { retryAfterSeconds: number }).retryAfterSeconds
          : 5,
      );
      context?.warn(`${error.code}: ${error.message}`);
    }
    const invalid = error instanceof ValidationError ? error : undefined;
    return json(
      STATUS[error.kind],
      errorBody(error.code, error.message, invalid?.target, invalid?.details),
      headers,
    );
  }
  context?.error(`Unhandled error: ${redactText(inspect(error))}`);
  return json(500, errorBody('InternalError', 'An unexpected error occurred.'));
}

/** HTTP handler signature of `@azure/functions`. */
export type HttpHandler = (
  request: HttpRequest,
  context: InvocationContext,
) => Promise<HttpResponseInit>;

/** Wraps a handler so that every thrown error becomes the API's JSON error response. */
export function handleErrors(handler: HttpHandler): HttpHandler {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error, context);
    }
  };
}

/** Deepest nesting of arrays and objects a JSON body may have (400 `InvalidJson` past it). */
const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`. Scans the text once without
 * parsing it, so a hostile body cannot exhaust the stack of a recursive reader or writer later.
 */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Reads a request body while it streams in, stopping as soon as it passes `maxBytes` (a body sent
 * chunked has no length to check up front).
 *
 * @throws {DomainError} from `tooLarge` (default a {@link TooLargeError}) when the declared or the
 *   received length passes the limit.
 */
export async function readBody(
  request: HttpRequest,
  maxBytes: number,
  tooLarge: (bytes: number) => DomainError = (bytes) =>
    new TooLargeError(`Request body of ${bytes} bytes is over the ${maxBytes}-byte limit.`),
): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared);
  if (request.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) throw tooLarge(received);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, received);
}

/** The one media type JSON bodies are accepted with. */
export const JSON_MEDIA_TYPE = 'application/json';

/** The request's media type (`content-type` without parameters, lower case), if it names one. */
export function mediaType(request: HttpRequest): string | undefined {
  const type = request.headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();
  return type ? type : undefined;
}

/** The 415 of a body that is not `application/json`. */
export function notJson(type: string | undefined): UnsupportedMediaTypeError {
  return new UnsupportedMediaTypeError(
    `The request body must be sent as ${JSON_MEDIA_TYPE}${type ? `, not ${type}` : ' (no content-type was given)'}.`,
  );
}

/**
 * Reads, size-checks, parses and validates a JSON body.
 *
 * @throws {TooLargeError} over `maxBytes`.
 * @throws {UnsupportedMediaTypeError} when the body is not sent as `application/json` (an empty
 *   body may come without a content type).
 * @throws {ValidationError} for a missing or malformed body, one nested deeper than
 *   {@link MAX_JSON_DEPTH}, or one the schema refuses.
 */
export async function readJson<S extends z.ZodType>(
  request: HttpRequest,
  schema: S,
  maxBytes = DEFAULT_MAX_JSON_BYTES,
): Promise<z.infer<S>> {
  const bytes = await readBody(request, maxBytes);
  // A body the browser may send cross-site without asking first (text/plain, a form, none) is
  // never read as JSON (API.md "Cross-site requests").
  const type = mediaType(request);
  if (type !== undefined ? type !== JSON_MEDIA_TYPE : bytes.length > 0) {
    throw notJson(type);
  }
  if (bytes.length === 0) {
    return validateInput(schema, {}, 'body');
  }
  const text = bytes.toString('utf8');
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ValidationError(
      `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      'body',
      'InvalidJson',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', 'body', 'InvalidJson');
  }
  return validateInput(schema, parsed, 'body');
}

/**
 * Validates the query string (repeated keys: last wins) against a schema of strings.
 *
 * @throws {ValidationError} naming every bad parameter.
 */
export function readQuery<S extends z.ZodType>(request: HttpRequest, schema: S): z.infer<S> {
  const query: Record<string, string> = {};
  request.query.forEach((value, key) => {
    query[key] = value;
  });
  return validateInput(schema, query, 'query');
}

/**
 * Validates route parameters against a schema.
 *
 * @throws {ValidationError} naming every bad parameter.
 */
export function readParams<S extends z.ZodType>(request: HttpRequest, schema: S): z.infer<S> {
  return validateInput(schema, { ...request.params }, 'route');
}

/** The `If-Match` ETag of a request, if it sent one (`*` counts as none). */
export function ifMatch(request: HttpRequest): string | undefined {
  const value = request.headers.get('if-match')?.trim();
  return value && value !== '*' ? value : undefined;
}

/** The request's write conditions, as the services take them (`{ifMatch}`). */
export function conditions(request: HttpRequest): { ifMatch?: string } {
  return { ifMatch: ifMatch(request) };
}
