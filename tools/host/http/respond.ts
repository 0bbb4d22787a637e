/**
 * Writing responses on Node's server: the function's converted response, or the host's own JSON.
 */
import type { ServerResponse } from 'node:http';
import type { OutgoingResponse } from './rpcHttp';

const NO_BODY = new Set([204, 205, 304]);

/** Writes a converted function response; repeated headers are combined as HTTP allows. */
export function sendResponse(response: ServerResponse, outgoing: OutgoingResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of outgoing.headers) {
    const key = name.toLowerCase();
    const existing = headers[key];
    if (key === 'set-cookie') headers[key] = [...((existing as string[] | undefined) ?? []), value];
    else headers[key] = existing === undefined ? value : `${existing as string}, ${value}`;
  }
  const body = NO_BODY.has(outgoing.status) ? Buffer.alloc(0) : outgoing.body;
  if (!NO_BODY.has(outgoing.status)) headers['content-length'] = String(body.length);
  response.writeHead(outgoing.status, headers);
  response.end(body);
}

/**
 * Writes one of the answers the Functions host gives itself (no route: 404; body over the limit:
 * 413): a status without a body, as Azure's host (ASP.NET Core, Kestrel) sends them; the API's
 * JSON shape is the app's, not the host's.
 */
export function sendBare(response: ServerResponse, status: number): void {
  response.writeHead(status, { 'content-length': '0' });
  response.end();
}

/** Writes a JSON response of the host's local-only endpoints (admin API, refusals). */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body), 'utf8');
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(text.length),
    'cache-control': 'no-store',
  });
  response.end(text);
}

/** The host's JSON error body, in the API's shape. */
export function errorJson(
  code: string,
  message: string,
): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
