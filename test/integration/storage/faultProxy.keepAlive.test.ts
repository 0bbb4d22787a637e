/**
 * The fault proxy's connections to storage: kept alive between requests, but never offered to a
 * request after sitting idle long enough for the server to be closing them. The upstream here is
 * a plain Node HTTP server (as Azurite's are) in a worker thread, so that its event loop can be
 * blocked while the proxy's runs: that is how a loaded emulator's keep-alive timer fires late.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';

// Announces `Keep-Alive: timeout=3`; Node 22 closes an idle connection 1 s after that.
const UPSTREAM_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const ids = new WeakMap();
let next = 0;
const server = http.createServer((request, response) => {
  if (!ids.has(request.socket)) ids.set(request.socket, ++next);
  response.setHeader('x-connection', String(ids.get(request.socket)));
  const answer = () => response.end(request.url);
  if (request.url === '/slow') setTimeout(answer, 2500);
  else answer();
});
server.keepAliveTimeout = 3000;
parentPort.on('message', (message) => {
  parentPort.postMessage({ blocking: message.blockMs });
  // The whole event loop stops: no timer, no read, no close until it is over.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, message.blockMs);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

interface Upstream {
  port: number;
  /** Blocks the server's event loop for `ms`; resolves once it is blocked. */
  block(ms: number): Promise<void>;
  stop(): Promise<number>;
}

async function startUpstream(): Promise<Upstream> {
  const worker = new Worker(UPSTREAM_SOURCE, { eval: true });
  const nextMessage = (): Promise<{ port?: number; blocking?: number }> =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const { port } = await nextMessage();
  return {
    port: port!,
    async block(ms) {
      const blocked = nextMessage();
      worker.postMessage({ blockMs: ms });
      await blocked;
    },
    stop: () => worker.terminate(),
  };
}

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
}

/** One GET through the proxy, on a connection of its own (the client side is not under test). */
function get(proxy: FaultProxy, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: proxy.ports.table, path, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            connection: response.headers['x-connection'] as string | undefined,
          }),
        );
      })
      .on('error', reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let upstream: Upstream;
let proxy: FaultProxy;
beforeEach(async () => {
  upstream = await startUpstream();
  const port = upstream.port;
  proxy = await startFaultProxy({ target: { blob: port, queue: port, table: port } });
});
afterEach(async () => {
  await proxy.stop();
  await upstream.stop();
});

describe('upstream connections', () => {
  it('reuses a connection for back-to-back requests', async () => {
    const first = await get(proxy, '/a');
    const second = await get(proxy, '/b');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toBe('/b');
    expect(second.connection).toBe(first.connection);
  });

  it('opens a new connection after 1 s idle, although the server would still keep the old one', async () => {
    const first = await get(proxy, '/a');
    await sleep(1_800);
    const second = await get(proxy, '/b');
    expect(second.status).toBe(200);
    expect(second.connection).not.toBe(first.connection);
  });

  it('does not write on a connection a lagging server closes: 200, not a 502 for a request storage never saw', async () => {
    // The pooled connection's keep-alive timer (3–4 s) is due while the server is blocked; when
    // the server resumes, timers run before reads, so it closes that connection with the request
    // unread (a reset). The proxy must have dropped the connection itself after 1 s idle.
    const first = await get(proxy, '/a');
    await upstream.block(6_000);
    await sleep(2_000);
    const second = await get(proxy, '/b');
    expect(second).toMatchObject({ status: 200, body: '/b' });
    expect(second.connection).not.toBe(first.connection);
    expect(proxy.counts().byStatus).toEqual({ '200': 2 });
  });

  it('lets a request run longer than the idle limit', async () => {
    const slow = await get(proxy, '/slow');
    expect(slow).toMatchObject({ status: 200, body: '/slow' });
  });
});
