/**
 * Small HTTP helpers shared by the Azure-mode front and the test issuer (node:http): short
 * answers, bounded body reads, cookies and HTML escaping.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request body over the limit a small form or JSON endpoint accepts. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * Reads a (small) request body whole.
 *
 * @throws {BodyTooLargeError} past `limit` bytes.
 */
export async function readSmallBody(request: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError(`The body is over ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers with a short body of the given type (default plain text). */
export function sendText(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string | string[]> = {},
): void {
  const bytes = Buffer.from(body, 'utf8');
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
    'content-length': String(bytes.length),
  });
  response.end(bytes);
}

/** Answers with a JSON body. */
export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  sendText(response, status, JSON.stringify(value), {
    'content-type': 'application/json; charset=utf-8',
    ...headers,
  });
}

/** Answers 302 to `location`. */
export function redirect(
  response: ServerResponse,
  location: string,
  headers: Record<string, string | string[]> = {},
): void {
  response.writeHead(302, {
    location,
    'content-length': '0',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end();
}

/** The cookies of a `Cookie` header, by name (the first of a repeated name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Starts `server` listening and returns its `http://` origin (`localhost` names are written
 * `127.0.0.1`).
 *
 * @throws {Error} when the port is taken or the address cannot be bound.
 */
export async function listen(server: Server, port: number, address: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${bound.port}`;
}

/** Stops accepting connections, ends idle ones, and resolves once the server has closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
