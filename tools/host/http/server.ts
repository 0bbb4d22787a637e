/**
 * The host's HTTP server: functions under `/<routePrefix>/`, and a small part of the Functions
 * host's admin API under `/admin/` (`GET /admin/host/status`, `GET /admin/functions`,
 * `POST /admin/functions/{name}` to run a non-HTTP function once). Like Core Tools, functions are
 * not key-protected locally; the server answers only to this machine's names and refuses writes
 * from other sites' pages (./requestGuard.ts). The host's own endpoints (admin API, Durable
 * webhooks) want the host key whenever the host has one, and a host behind the Azure-mode front
 * serves only what the front forwards (./hostKey.ts).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError, type Logger } from '../log';
import type { TriggerDriver } from '../drivers';
import type { HttpDriver } from './httpDriver';
import { hostAccessRefusal, type HostAccess } from './hostKey';
import { hostRefusal, localWriteRefusal, type Refusal } from './requestGuard';
import { errorJson, sendBare, sendJson } from './respond';

/** The Functions host's default request size limit (`FUNCTIONS_REQUEST_BODY_SIZE_LIMIT`). */
export const MAX_REQUEST_BODY_BYTES = 100 * 1024 * 1024;

/**
 * The request size limit as the Functions host reads it: the app setting
 * `FUNCTIONS_REQUEST_BODY_SIZE_LIMIT` in bytes, 100 MiB when absent or not a positive whole number.
 */
export function requestBodyLimit(setting: string | undefined): number {
  const value = Number(setting?.trim());
  return setting !== undefined && Number.isSafeInteger(value) && value > 0
    ? value
    : MAX_REQUEST_BODY_BYTES;
}

/** The admin routes the server serves besides the functions. */
export interface AdminApi {
  status(): Record<string, unknown>;
  functions(): unknown[];
  /**
   * Starts one run of a non-HTTP function.
   *
   * @returns the HTTP status and error to answer with, or undefined when the run was started.
   */
  invoke(
    name: string,
    input: string,
  ): { status: number; code: string; message: string } | undefined;
}

/** How to start the host's HTTP server. */
export interface HostServerOptions {
  routePrefix: string;
  httpDriver: HttpDriver;
  admin: AdminApi;
  logger: Logger;
  /** Drivers that serve host-level paths (tried after the admin API, before functions). */
  drivers: TriggerDriver[];
  /** Largest request body, bytes; a larger one is refused with 413 while it streams in. */
  maxRequestBodyBytes?: number;
  /**
   * Host names the server answers to besides loopback names and its listen address (and, when it
   * listens on every interface, the machine's own names); any other `Host` gets 421.
   */
  allowedHosts?: readonly string[];
  /** The host key and the front's secret, when the host has them (./hostKey.ts). */
  access?: HostAccess;
}

/** A started HTTP server: its URL and how to stop it. */
export interface HostServer {
  /** `http://address:port` once listening. */
  origin(): string;
  /** Listens and resolves with the bound port. */
  listen(port: number, address: string): Promise<number>;
  /** Stops accepting requests and waits up to `graceMs` for running ones. */
  close(graceMs: number): Promise<void>;
}

class BodyTooLargeError extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLargeError());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  sendJson(response, refusal.status, errorJson(refusal.code, refusal.message));
}

async function handleAdmin(
  admin: AdminApi,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  body: Buffer,
): Promise<void> {
  const method = request.method ?? 'GET';
  const refused = localWriteRefusal(method, request.headers, body.length);
  if (refused) {
    refuse(response, refused);
    return;
  }
  if (pathname === '/admin/host/status' && method === 'GET') {
    sendJson(response, 200, admin.status());
    return;
  }
  if (pathname === '/admin/functions' && method === 'GET') {
    sendJson(response, 200, admin.functions());
    return;
  }
  const invoke = /^\/admin\/functions\/([^/]+)$/.exec(pathname);
  if (invoke && method === 'POST') {
    let input = '';
    if (body.length > 0) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        sendJson(
          response,
          400,
          errorJson('InvalidJson', 'The request body must be JSON: {"input": "..."}.'),
        );
        return;
      }
      const value = (parsed as { input?: unknown } | null)?.input;
      input =
        value === undefined || value === null
          ? ''
          : typeof value === 'string'
            ? value
            : JSON.stringify(value);
    }
    const refused = admin.invoke(decodeURIComponent(invoke[1]!), input);
    if (refused) sendJson(response, refused.status, errorJson(refused.code, refused.message));
    else {
      response.writeHead(202, { 'content-length': '0' });
      response.end();
    }
    return;
  }
  sendJson(response, 404, errorJson('NotFound', `No admin API at ${method} ${pathname}.`));
}

/** The origin the client used (the host builds the function's URL from the Host header). */
function requestOrigin(request: IncomingMessage, fallback: string): string {
  const host = request.headers.host;
  if (!host) return fallback;
  try {
    return new URL(`http://${host}`).origin;
  } catch {
    return fallback;
  }
}

/** The server's state: its options and where it listens, and the requests being served. */
interface ServerState {
  options: HostServerOptions;
  bodyLimit: number;
  /** `/<routePrefix>` lower-cased, or empty. */
  prefix: string;
  origin: string;
  listenAddress: string;
  closing: boolean;
  active: Set<Promise<void>>;
}

/**
 * Starts the host's HTTP server: functions under the route prefix, the admin API and the durable
 * webhooks.
 */
export function createHostServer(options: HostServerOptions): HostServer {
  const { routePrefix, logger } = options;
  const state: ServerState = {
    options,
    bodyLimit: options.maxRequestBodyBytes ?? MAX_REQUEST_BODY_BYTES,
    prefix: routePrefix ? `/${routePrefix.toLowerCase()}` : '',
    origin: 'http://127.0.0.1',
    listenAddress: '127.0.0.1',
    closing: false,
    active: new Set<Promise<void>>(),
  };

  const server = http.createServer((request, response) => {
    const work = serve(state, request, response)
      .catch((error) => {
        logger.error(`Request ${request.method} ${request.url} failed: ${describeError(error)}`);
        if (!response.headersSent)
          sendJson(
            response,
            500,
            errorJson('InternalError', 'The local host failed to serve the request.'),
          );
        else response.destroy();
      })
      .finally(() => state.active.delete(work));
    state.active.add(work);
  });
  // Functions may legitimately take minutes (up to functionTimeout); do not cut them off.
  server.requestTimeout = 0;
  // Idle connections stay open for a minute, as behind Azure's front ends. With Node's 5 s a
  // client that reuses a connection just as the host closes it gets "other side closed": fetch
  // (undici) closes 1 s before the hinted timeout, a margin a loaded machine's event loop misses.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;

  return {
    origin: () => state.origin,
    listen: (port, address) => listen(server, state, port, address),
    close: (graceMs) => close(server, state, graceMs),
  };
}

/**
 * One request: refused by the host or access checks before its body is read, then its body
 * (413 past the limit), then the admin API, a driver's host-level path, or a function.
 */
async function serve(
  state: ServerState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { options, prefix } = state;
  const { logger } = options;
  if (state.closing) response.setHeader('connection', 'close');
  const [pathname = '/', query = ''] = (request.url ?? '/').split('?', 2);
  // Before the body is read: a refused page's request costs nothing.
  const refused =
    hostRefusal(request.headers.host, {
      listenAddress: state.listenAddress,
      allowedHosts: options.allowedHosts,
    }) ??
    // No cross-site rule for function routes: Azure's host has none, so the app's own
    // (functions/shared/requestGuards.ts) is what stands there, here as in Azure.
    hostAccessRefusal(options.access ?? {}, pathname, new URLSearchParams(query), request.headers);
  if (refused) {
    logger.warn(`Refused ${request.method} ${pathname} (${refused.status}): ${refused.message}`);
    refuse(response, refused);
    return;
  }
  const body = await receiveBody(state, request, response, pathname);
  if (body === undefined) return;
  if (pathname === '/admin' || pathname.startsWith('/admin/')) {
    await handleAdmin(options.admin, request, response, pathname, body);
    return;
  }
  const clientOrigin = requestOrigin(request, state.origin);
  for (const driver of options.drivers) {
    if (await driver.serveHttp?.({ request, response, pathname, body, origin: clientOrigin }))
      return;
  }
  const lower = pathname.toLowerCase();
  let below: string | undefined;
  if (prefix === '') below = pathname;
  else if (lower === prefix || lower.startsWith(`${prefix}/`))
    below = pathname.slice(prefix.length);
  if (below === undefined) {
    logger.debug(`No function matches ${request.method} ${pathname} (outside ${prefix || '/'}).`);
    sendBare(response, 404);
    return;
  }
  await options.httpDriver.handle(request, response, below, body, clientOrigin);
}

/**
 * The request's body, or `undefined` once answered: a bare 413 past the limit, as Azure's host
 * refuses a body over FUNCTIONS_REQUEST_BODY_SIZE_LIMIT (a broken stream: the socket dropped).
 */
async function receiveBody(
  { bodyLimit, options }: ServerState,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): Promise<Buffer | undefined> {
  try {
    const declared = Number(request.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > bodyLimit) throw new BodyTooLargeError();
    return await readBody(request, bodyLimit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      // The rest of the body is drained unbuffered, so the client can read this answer.
      options.logger.debug(
        `${request.method} ${pathname}: the request body is over ${bodyLimit} bytes.`,
      );
      sendBare(response, 413);
    } else response.destroy();
    return undefined;
  }
}

/** Listens on `address` and resolves with the bound port; the origin is then known. */
function listen(
  server: http.Server,
  state: ServerState,
  port: number,
  address: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      state.listenAddress = address;
      const bound = (server.address() as AddressInfo).port;
      // A wildcard address is reached over loopback (and the Host check accepts loopback).
      const host =
        address === '0.0.0.0'
          ? '127.0.0.1'
          : address === '::'
            ? '[::1]'
            : address.includes(':')
              ? `[${address}]`
              : address;
      state.origin = `http://${host}:${bound}`;
      resolve(bound);
    });
  });
}

/** Stops accepting, waits up to `graceMs` for the requests being served, then cuts the rest. */
async function close(server: http.Server, state: ServerState, graceMs: number): Promise<void> {
  state.closing = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...state.active]).then(() => closed),
    new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
  ]);
  clearTimeout(timer);
  server.closeAllConnections();
  await closed;
}
