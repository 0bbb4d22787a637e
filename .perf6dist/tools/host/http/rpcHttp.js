"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.queryValues = queryValues;
exports.toRpcHttpRequest = toRpcHttpRequest;
exports.typedDataToBuffer = typedDataToBuffer;
exports.formatSetCookie = formatSetCookie;
exports.fromRpcHttpResponse = fromRpcHttpResponse;
function nullable(values) {
    return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
}
/** Query values by key, repeated keys joined with ',' as ASP.NET's `StringValues` prints them. */
function queryValues(url) {
    const grouped = new Map();
    for (const [key, value] of new URL(url).searchParams) {
        grouped.set(key, [...(grouped.get(key) ?? []), value]);
    }
    return Object.fromEntries([...grouped].map(([key, values]) => [key, values.join(',')]));
}
/** Builds the `http` typed data of an HTTP trigger invocation. */
function toRpcHttpRequest(parts) {
    const headers = {};
    for (const [name, values] of Object.entries(parts.headers)) {
        if (values !== undefined)
            headers[name.toLowerCase()] = values.join(',');
    }
    const data = {
        method: parts.method.toUpperCase(),
        url: parts.url,
        nullableHeaders: nullable(headers),
        nullableQuery: nullable(queryValues(parts.url)),
        nullableParams: nullable(parts.params),
    };
    if (parts.body.length > 0)
        data.body = { bytes: parts.body };
    return data;
}
/** The bytes of a typed value, as the host writes a response body. */
function typedDataToBuffer(data) {
    if (!data)
        return Buffer.alloc(0);
    if (data.bytes)
        return Buffer.from(data.bytes);
    if (data.stream)
        return Buffer.from(data.stream);
    if (typeof data.string === 'string')
        return Buffer.from(data.string, 'utf8');
    if (typeof data.json === 'string')
        return Buffer.from(data.json, 'utf8');
    if (typeof data.int === 'number')
        return Buffer.from(String(data.int));
    if (typeof data.double === 'number')
        return Buffer.from(String(data.double));
    return Buffer.alloc(0);
}
/** ASP.NET escapes cookie values with `Uri.EscapeDataString` (RFC 3986 unreserved kept). */
function escapeDataString(value) {
    return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
/** A `Set-Cookie` header value in ASP.NET Core's attribute order and spelling. */
function formatSetCookie(cookie) {
    const parts = [`${cookie.name ?? ''}=${escapeDataString(cookie.value ?? '')}`];
    const expires = cookie.expires?.value?.seconds;
    if (typeof expires === 'number')
        parts.push(`expires=${new Date(expires * 1000).toUTCString()}`);
    const maxAge = cookie.maxAge?.value;
    if (typeof maxAge === 'number')
        parts.push(`max-age=${Math.trunc(maxAge)}`);
    if (cookie.domain?.value)
        parts.push(`domain=${cookie.domain.value}`);
    if (cookie.path?.value)
        parts.push(`path=${cookie.path.value}`);
    if (cookie.secure?.value)
        parts.push('secure');
    // 'none' is the library's "not specified"; 'explicitNone' is SameSite=None.
    const sameSite = { lax: 'lax', strict: 'strict', explicitNone: 'none' }[cookie.sameSite ?? 'none'];
    if (sameSite)
        parts.push(`samesite=${sameSite}`);
    if (cookie.httpOnly?.value)
        parts.push('httponly');
    return parts.join('; ');
}
// Framing headers are the server's business, not the function's.
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);
/**
 * Converts the function's HTTP output (the `http` typed data the library returned) into a
 * response. No output at all is a 200 with an empty body, as in Azure.
 *
 * @throws {Error} when the status code is not a number from 100 to 599.
 */
function fromRpcHttpResponse(output) {
    const http = output?.http;
    if (!http)
        return { status: 200, headers: [], body: Buffer.alloc(0) };
    const status = http.statusCode === undefined || http.statusCode === null ? 200 : Number(http.statusCode);
    if (!Number.isInteger(status) || status < 100 || status > 599) {
        throw new Error(`The function returned an invalid HTTP status code "${http.statusCode}".`);
    }
    const headers = [];
    for (const [name, value] of Object.entries(http.headers ?? {})) {
        if (!HOP_BY_HOP.has(name.toLowerCase()))
            headers.push([name, value]);
    }
    for (const cookie of http.cookies ?? [])
        headers.push(['set-cookie', formatSetCookie(cookie)]);
    return { status, headers, body: typedDataToBuffer(http.body) };
}
//# sourceMappingURL=rpcHttp.js.map