/**
 * Conversions between Node's HTTP messages and the RPC HTTP data the Functions host exchanges
 * with the worker. Incoming: method, absolute URL, lower-cased headers and query values (repeated
 * ones joined with ','), route parameters, and the body as raw bytes, as the host sends them
 * to a Node.js worker. Outgoing: status, headers, cookies and body bytes as the library produced
 * them.
 */
import type { RpcHttpCookie, RpcHttpData, RpcNullableString, RpcTypedData } from '../core/types';

/** What the host reads of an incoming HTTP request. */
export interface IncomingRequestParts {
  method: string;
  /** Absolute URL including the query string. */
  url: string;
  /** Header values per lower-cased name, as Node's `headersDistinct` gives them. */
  headers: Record<string, string[] | undefined>;
  params: Record<string, string>;
  body: Buffer;
}

function nullable(values: Record<string, string>): Record<string, RpcNullableString> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
}

/** Query values by key, repeated keys joined with ',' as ASP.NET's `StringValues` prints them. */
export function queryValues(url: string): Record<string, string> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of new URL(url).searchParams) {
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  return Object.fromEntries([...grouped].map(([key, values]) => [key, values.join(',')]));
}

/**
 * Builds the `http` typed data of an HTTP trigger invocation. A body sent without
 * `Content-Length` (chunked) is not passed, as the Functions host passes a body to out-of-process
 * workers only when its length is known (azure-functions-host#4926, #7930;
 * azure-functions-nodejs-library#171): the function sees its headers and no body.
 */
export function toRpcHttpRequest(parts: IncomingRequestParts): RpcHttpData {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(parts.headers)) {
    if (values !== undefined) headers[name.toLowerCase()] = values.join(',');
  }
  const data: RpcHttpData = {
    method: parts.method.toUpperCase(),
    url: parts.url,
    nullableHeaders: nullable(headers),
    nullableQuery: nullable(queryValues(parts.url)),
    nullableParams: nullable(parts.params),
  };
  if (parts.body.length > 0 && headers['content-length'] !== undefined) {
    data.body = { bytes: parts.body };
  }
  return data;
}

/** The bytes of a typed value, as the host writes a response body. */
export function typedDataToBuffer(data: RpcTypedData | null | undefined): Buffer {
  if (!data) return Buffer.alloc(0);
  if (data.bytes) return Buffer.from(data.bytes);
  if (data.stream) return Buffer.from(data.stream);
  if (typeof data.string === 'string') return Buffer.from(data.string, 'utf8');
  if (typeof data.json === 'string') return Buffer.from(data.json, 'utf8');
  if (typeof data.int === 'number') return Buffer.from(String(data.int));
  if (typeof data.double === 'number') return Buffer.from(String(data.double));
  return Buffer.alloc(0);
}

/** ASP.NET escapes cookie values with `Uri.EscapeDataString` (RFC 3986 unreserved kept). */
function escapeDataString(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A `Set-Cookie` header value in ASP.NET Core's attribute order and spelling. */
export function formatSetCookie(cookie: RpcHttpCookie): string {
  const parts = [`${cookie.name ?? ''}=${escapeDataString(cookie.value ?? '')}`];
  const expires = cookie.expires?.value?.seconds;
  if (typeof expires === 'number') parts.push(`expires=${new Date(expires * 1000).toUTCString()}`);
  const maxAge = cookie.maxAge?.value;
  if (typeof maxAge === 'number') parts.push(`max-age=${Math.trunc(maxAge)}`);
  if (cookie.domain?.value) parts.push(`domain=${cookie.domain.value}`);
  if (cookie.path?.value) parts.push(`path=${cookie.path.value}`);
  if (cookie.secure?.value) parts.push('secure');
  // 'none' is the library's "not specified"; 'explicitNone' is SameSite=None.
  const sameSite = { lax: 'lax', strict: 'strict', explicitNone: 'none' }[
    cookie.sameSite ?? ('none' as string)
  ];
  if (sameSite) parts.push(`samesite=${sameSite}`);
  if (cookie.httpOnly?.value) parts.push('httponly');
  return parts.join('; ');
}

/** An HTTP response ready to write: status, headers, cookies and body. */
export interface OutgoingResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

// Framing headers are the server's business, not the function's.
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Converts the function's HTTP output (the `http` typed data the library returned) into a
 * response. No output at all is a 200 with an empty body, as in Azure.
 *
 * @throws {Error} when the status code is not a number from 100 to 599.
 */
export function fromRpcHttpResponse(output: RpcTypedData | null | undefined): OutgoingResponse {
  const http = output?.http;
  if (!http) return { status: 200, headers: [], body: Buffer.alloc(0) };
  const status =
    http.statusCode === undefined || http.statusCode === null ? 200 : Number(http.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new Error(`The function returned an invalid HTTP status code "${http.statusCode}".`);
  }
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(http.headers ?? {})) {
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.push([name, value]);
  }
  for (const cookie of http.cookies ?? []) headers.push(['set-cookie', formatSetCookie(cookie)]);
  return { status, headers, body: typedDataToBuffer(http.body) };
}
