/**
 * The headers Azure's front ends add to every request before it reaches the Functions host
 * (App Service: TLS ends at the front, so "inspect the X-Forwarded-Proto header" to know whether
 * the client used HTTPS; learn.microsoft.com azure/app-service/configure-language-nodejs, "Detect
 * HTTPS session"). The local host is its own front and serves plain HTTP, so it says `http`: the
 * scheme the client really used, as Azure says `https`. A client's own copies are replaced.
 */
import type { IncomingMessage } from 'node:http';

/** The forwarding headers the front sets (lower-case names). */
export const FORWARDED_HEADERS = [
  'x-forwarded-proto',
  'x-forwarded-for',
  'x-original-url',
  'x-client-ip',
  'x-client-port',
] as const;

/**
 * The request's headers as the front passes them on: its own forwarding headers set from the
 * connection (`X-Forwarded-For` appends the client's address to any earlier proxies' list, as
 * a proxy does; App Service writes `address:port`).
 */
export function withForwardedHeaders(request: IncomingMessage): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (values !== undefined) headers[name] = values;
  }
  const address = request.socket.remoteAddress ?? '';
  const port = String(request.socket.remotePort ?? '');
  const client = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  const earlier = headers['x-forwarded-for']?.join(', ');
  headers['x-forwarded-proto'] = ['http'];
  headers['x-forwarded-for'] = [earlier ? `${earlier}, ${client}` : client];
  headers['x-original-url'] = [request.url ?? '/'];
  headers['x-client-ip'] = [address];
  headers['x-client-port'] = [port];
  return headers;
}
