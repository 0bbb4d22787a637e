/**
 * Forwards one request to the app's host and its answer back, both bodies streamed: the
 * reverse-proxy half of the Azure-mode front. The client's `Host` header is kept (the app builds
 * request URLs from it and compares `Origin` with it, as behind App Service's front end); status
 * and headers pass through, except the hop-by-hop ones that belong to each connection.
 */
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';

/** Headers of one connection (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The headers without the hop-by-hop ones (and those the `Connection` header names). */
export function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    kept[name] = value;
  }
  return kept;
}

const agent = new http.Agent({ keepAlive: true });

/**
 * Sends `request` to `upstream` (an `http://host:port` origin) at `path` with `headers`, and
 * streams the answer to `response`. An unreachable upstream gets 502 (when nothing was sent yet);
 * a client that goes away aborts the upstream request.
 */
export function forward(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: string,
  path: string,
  headers: IncomingHttpHeaders,
): Promise<void> {
  const target = new URL(upstream);
  return new Promise((resolve) => {
    const outgoing = http.request({
      agent,
      hostname: target.hostname,
      port: target.port,
      method: request.method,
      path,
      // `host` comes from the client's headers, so Node sends it instead of the upstream's.
      headers: endToEndHeaders(headers),
    });
    const fail = (): void => {
      if (!response.headersSent) {
        const body = 'The front could not reach the app.';
        response.writeHead(502, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
        });
        response.end(body);
      } else response.destroy();
      resolve();
    };
    outgoing.once('error', fail);
    outgoing.once('response', (answer) => {
      response.writeHead(
        answer.statusCode ?? 502,
        answer.statusMessage,
        endToEndHeaders(answer.headers),
      );
      answer.pipe(response);
      answer.once('end', () => resolve());
      answer.once('error', () => {
        response.destroy();
        resolve();
      });
    });
    response.once('close', () => {
      if (!response.writableFinished) outgoing.destroy();
      resolve();
    });
    request.pipe(outgoing);
  });
}
