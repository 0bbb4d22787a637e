/**
 * What every HTTP route checks before its handler, so that no page on another site can make a
 * signed-in browser change anything (API.md "Cross-site requests"). In Azure the console is
 * authenticated by App Service authentication's session cookie, which the browser attaches to any
 * request to the app, including one a foreign page makes with `fetch(..., {mode: 'no-cors'})` or a
 * form POST. Two independent defences:
 * - Fetch Metadata and Origin: an unsafe method (POST, PUT, PATCH, DELETE) from another site is
 *   refused (403 `CrossSiteRequest`); browsers send `Sec-Fetch-Site` and `Origin` on such requests
 *   and a page cannot forge them.
 * - Content type: a body must be `application/json` (or a raw type the route declares), which a
 *   cross-site page cannot send without a CORS preflight the app never answers; a route without a
 *   body takes none or `{}` (415 otherwise).
 */
import type { HttpRequest } from '@azure/functions';
import {
  ForbiddenError,
  LengthRequiredError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../src/domainErrors';
import { JSON_MEDIA_TYPE, mediaType, notJson, readBody } from './http';

/** Methods that change something: the ones a foreign page must never get the app to perform. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a request's method is one that changes state. */
export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/**
 * Whether `origin` (an `Origin` header) is the app's own: the same host and port as the request's
 * URL, which the host builds from the `Host` header. The scheme is not compared: behind App
 * Service's front ends the worker may see `http` for an `https` request, and a page on another
 * scheme of the same host is the app's own host anyway. `null` (opaque origins: sandboxed frames,
 * `data:` pages) is never the app's.
 */
export function isOwnOrigin(origin: string, requestUrl: string): boolean {
  if (origin.trim().toLowerCase() === 'null') return false;
  try {
    return new URL(origin).host === new URL(requestUrl).host;
  } catch {
    return false;
  }
}

/**
 * Refuses an unsafe request that a browser says comes from another site.
 *
 * @throws {ForbiddenError} `CrossSiteRequest` for `Sec-Fetch-Site: cross-site`, or an `Origin`
 *   that is not the app's own.
 */
export function refuseCrossSite(request: HttpRequest): void {
  if (!isUnsafeMethod(request.method)) return;
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  const origin = request.headers.get('origin');
  if (site === 'cross-site' || (origin !== null && !isOwnOrigin(origin, request.url))) {
    throw new ForbiddenError(
      `${request.method} requests from another site are refused` +
        (origin !== null ? ` (Origin ${origin.slice(0, 200)})` : '') +
        ': call the API from its own origin, or without a browser.',
      'CrossSiteRequest',
    );
  }
}

/** Whether a media type is one of `accepted` (`image/*` admits any image type). */
export function mediaTypeMatches(type: string, accepted: readonly string[]): boolean {
  return accepted.some((pattern) =>
    pattern.endsWith('/*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern,
  );
}

/** What a route says of its body (route.ts `RouteSchemas`): JSON, raw types, or neither. */
export interface BodySchemas {
  body?: unknown;
  rawBodies?: readonly string[];
  /** A body must be sent even where `{}` would pass (route.ts `RouteSchemas.bodyRequired`). */
  bodyRequired?: boolean;
}

/**
 * Refuses a body sent without `Content-Length` (chunked): the Functions host passes such a body to
 * a Node.js worker as nothing (docs/local-host.md), so reading it would act on an empty body.
 *
 * @throws {LengthRequiredError} 411 `LengthRequired`.
 */
function refuseUnmeasuredBody(request: HttpRequest): void {
  if (request.headers.get('transfer-encoding') === null) return;
  if (request.headers.get('content-length') !== null) return;
  throw new LengthRequiredError(
    'The request body was sent without Content-Length (chunked transfer encoding), which Azure Functions does not pass to the app: send it with its length.',
  );
}

/** Whether the request carries no body at all (no length, or 0, and not chunked). */
function hasNoBody(request: HttpRequest): boolean {
  const length = request.headers.get('content-length');
  if (request.headers.get('transfer-encoding') !== null) return false;
  return length === null ? request.body === null : Number(length) === 0;
}

/** Largest body a route without one still reads to see that it is `{}`. */
const MAX_EMPTY_BODY_BYTES = 1024;

/**
 * Checks the body of an unsafe request against what the route takes: its declared types only, a
 * body always with a content type, and for a route that takes no body, none or `{}`. A route that
 * takes JSON has its body checked again as it is read (`readJson`).
 *
 * @throws {UnsupportedMediaTypeError} for a content type the route does not take, or a body sent
 *   without one.
 * @throws {ValidationError} `UnexpectedBody` for a route without a body that got JSON other than
 *   `{}`; `InvalidInput` for a route that needs a body (`bodyRequired`) and got none.
 */
export async function checkRequestBody(request: HttpRequest, schemas: BodySchemas): Promise<void> {
  if (!isUnsafeMethod(request.method)) return;
  refuseUnmeasuredBody(request);
  if (schemas.bodyRequired && hasNoBody(request)) {
    throw new ValidationError(
      `${request.method} ${new URL(request.url).pathname} needs a JSON body (content-type: application/json); send {} to set none of its optional fields.`,
      'body',
      'InvalidInput',
      [{ field: 'body', problem: 'is required' }],
    );
  }
  const type = mediaType(request);
  const accepted = [...(schemas.body ? [JSON_MEDIA_TYPE] : []), ...(schemas.rawBodies ?? [])];
  if (accepted.length > 0) {
    if (type !== undefined && !mediaTypeMatches(type, accepted)) {
      throw new UnsupportedMediaTypeError(
        `This operation takes ${accepted.join(' or ')}, not ${type}.`,
      );
    }
    const length = Number(request.headers.get('content-length') ?? 0);
    if (type === undefined && length > 0) throw notJson(type);
    return;
  }
  // No body is taken: none, or `{}` as JSON.
  if (type !== undefined && type !== JSON_MEDIA_TYPE) throw notJson(type);
  const text = (
    await readBody(
      request,
      MAX_EMPTY_BODY_BYTES,
      () =>
        new UnsupportedMediaTypeError('This operation takes no request body.', 'UnexpectedBody'),
    )
  )
    .toString('utf8')
    .trim();
  if (text === '') return;
  if (type === undefined) throw notJson(type);
  if (!/^\{\s*\}$/.test(text)) {
    throw new ValidationError(
      'This operation takes no request body (send none, or {}).',
      'body',
      'UnexpectedBody',
    );
  }
}
