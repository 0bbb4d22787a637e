/**
 * A fault-injecting HTTP proxy in front of Azurite: one listening port per storage service, each
 * forwarding to the matching Azurite port, with a connection string that points the clients at
 * the proxy. It counts every request (the benchmarks use it in pass-through mode for that) and,
 * when told to, breaks a seeded fraction of them the ways Azure can fail: 500, 503 (with or without
 * `Retry-After`), a request that never gets an answer, a connection reset before the request
 * reaches storage, and a reset after storage applied it (`reset-after`, for idempotency tests).
 *
 * Bodies are streamed through untouched, so multipart entity group transactions (`/$batch`) and
 * blob blocks arrive byte for byte.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { azuriteConnectionString, type AzuritePorts } from '../azurite';
import {
  createFaultPlan,
  STORAGE_SERVICES,
  type FaultKind,
  type FaultPlan,
  type FaultSettings,
  type StorageService,
} from './faultPlan';
import { storageErrorResponse, type SyntheticStatus } from './errorResponses';
import { admitRequest, THROTTLE_MESSAGES, type Admission } from '../targets/admission';
import type { TargetsLimiter } from '../targets/targetsLimiter';
import {
  requestHeadBytes,
  responseHeadBytes,
  toRawHeaders,
  entitiesInTableAnswer,
  TrafficCounter,
  type ProxyCounts,
} from './trafficCounter';

export type { FaultKind, FaultSettings, StorageService } from './faultPlan';
export type { ProxyCounts } from './trafficCounter';

/** A started fault proxy: its connection string and ports, its fault plan and traffic counts. */
export interface FaultProxy {
  /** A storage connection string whose blob, queue and table endpoints are the proxy's ports. */
  connectionString: string;
  /** The proxy's own ports (not Azurite's). */
  ports: AzuritePorts;
  /** Starts, changes or (with `null`) stops injecting faults; restarts the seeded sequence. */
  setFaults(faults: FaultSettings | null): void;
  /** Starts, changes or (with `null`) stops enforcing Azure's targets. */
  setTargets(targets: TargetsLimiter | null): void;
  /** What arrived since the start or the last {@link FaultProxy.resetCounts}. */
  counts(): ProxyCounts;
  resetCounts(): void;
  /** Closes the ports, drops open connections and held requests. */
  stop(): Promise<void>;
}

/** How to start the fault proxy in front of the storage emulator. */
export interface FaultProxyOptions {
  /** Azurite's ports, which the proxy forwards to. */
  target: AzuritePorts;
  /** Faults from the start; pass-through when omitted. */
  faults?: FaultSettings;
  /** Interface to listen on and where Azurite runs (default `127.0.0.1`). */
  host?: string;
  /**
   * Azure's scalability targets to enforce (tools/targets): past them the proxy answers 503
   * `ServerBusy` as Azure does, before storage sees the request.
   */
  targets?: TargetsLimiter;
}

/**
 * Idle upstream connections are closed after this long, well inside Azurite's keep-alive (5 s
 * announced, 6 s on Node 22): a request written on a connection the emulator is closing is reset,
 * and would reach the client as a 502 for a request storage never saw. Without a `timeout` an
 * `http.Agent` keeps idle sockets forever and races the server's close (docs/testing.md, "Upstream
 * connections"). A busy socket only gets a 'timeout' event nobody listens to.
 */
const UPSTREAM_IDLE_MS = 1_000;

// Hop-by-hop headers describe one connection; each side of the proxy has its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade']);

function endToEndHeaders(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i]!.toLowerCase()))
      kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/** Runs `then` once the whole request body has arrived (and been counted). */
function afterBody(request: IncomingMessage, then: () => void): void {
  if (request.readableEnded) then();
  else request.once('end', then);
}

/** Drops the client's connection with a TCP reset, so the client sees `ECONNRESET`. */
function resetConnection(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

/**
 * Starts the proxy and resolves once its three ports listen.
 *
 * @throws {RangeError} when `faults` are invalid.
 * @throws {Error} when a port cannot be opened.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const host = options.host ?? '127.0.0.1';
  const counter = new TrafficCounter();
  let plan: FaultPlan | undefined = options.faults ? createFaultPlan(options.faults) : undefined;
  let targets: TargetsLimiter | undefined = options.targets;
  const upstreamAgent = new http.Agent({
    keepAlive: true,
    maxSockets: 128,
    timeout: UPSTREAM_IDLE_MS,
  });
  const heldTimers = new Set<NodeJS.Timeout>();

  function answer(
    service: StorageService,
    response: ServerResponse,
    status: SyntheticStatus,
    retryAfterSeconds?: number,
    message?: string,
  ): void {
    // The client may have gone already (its own timeout): nobody to answer.
    if (response.destroyed || response.writableEnded) return;
    const synthetic = storageErrorResponse(service, status, { retryAfterSeconds, message });
    const statusMessage = http.STATUS_CODES[status] ?? '';
    counter.status(status);
    counter.received(
      responseHeadBytes(status, statusMessage, toRawHeaders(synthetic.headers)) +
        Buffer.byteLength(synthetic.body),
    );
    response.writeHead(status, statusMessage, synthetic.headers);
    response.end(synthetic.body);
  }

  function hold(request: IncomingMessage, response: ServerResponse, timeoutMs: number): void {
    const timer = setTimeout(() => {
      heldTimers.delete(timer);
      request.socket.destroy();
    }, timeoutMs);
    heldTimers.add(timer);
    // The client usually gives up first (its try timeout); then there is nothing left to hold.
    response.once('close', () => {
      clearTimeout(timer);
      heldTimers.delete(timer);
    });
  }

  /** Counts the entities of a table read's answer once it has all arrived. */
  function countEntities(upstreamResponse: IncomingMessage, partition?: string): void {
    const chunks: Buffer[] = [];
    upstreamResponse.on('data', (chunk: Buffer) => chunks.push(chunk));
    upstreamResponse.once('end', () => {
      const entities = entitiesInTableAnswer(Buffer.concat(chunks).toString('utf8'));
      counter.entities(entities);
      if (partition !== undefined) void targets?.chargeRead(partition, entities);
    });
  }

  function forward(
    service: StorageService,
    request: IncomingMessage,
    response: ServerResponse,
    dropAnswer: boolean,
    admitted?: Admission,
  ): void {
    const upstream = http.request(
      {
        host,
        port: options.target[service],
        method: request.method,
        path: request.url,
        headers: endToEndHeaders(request.rawHeaders),
        agent: upstreamAgent,
      },
      (upstreamResponse) => {
        if (dropAnswer) {
          // Storage has applied the request; the client never learns the outcome.
          upstreamResponse.resume();
          upstreamResponse.once('end', () => resetConnection(request.socket));
          return;
        }
        const status = upstreamResponse.statusCode ?? 502;
        const statusMessage = upstreamResponse.statusMessage ?? '';
        const headers = endToEndHeaders(upstreamResponse.rawHeaders);
        counter.status(status);
        counter.received(responseHeadBytes(status, statusMessage, headers));
        upstreamResponse.on('data', (chunk: Buffer) => counter.received(chunk.length));
        if (service === 'table' && request.method === 'GET' && status === 200)
          countEntities(upstreamResponse, admitted?.units.partition?.key);
        response.writeHead(status, statusMessage, headers);
        // Storage dropping the connection mid-answer: the client sees its connection drop too.
        upstreamResponse.once('error', () => response.destroy());
        upstreamResponse.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (response.headersSent) response.destroy();
      else afterBody(request, () => answer(service, response, 502));
    });
    // A client that gives up (its own timeout) must not leave the upstream request running.
    response.once('close', () => {
      if (!response.writableFinished && !dropAnswer) upstream.destroy();
    });
    // A client that drops its connection mid-body must not leave half a request upstream.
    request.once('error', () => upstream.destroy());
    if (admitted) upstream.end(admitted.body);
    else request.pipe(upstream);
  }

  /** With targets: the whole body, then the targets' decision, then forward or ServerBusy. */
  function throughTargets(
    targets: TargetsLimiter,
    service: StorageService,
    request: IncomingMessage,
    response: ServerResponse,
  ): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    afterBody(request, () => {
      const method = request.method ?? 'GET';
      const url = request.url ?? '/';
      admitRequest(targets, service, { method, url, body: Buffer.concat(chunks) }).then(
        (admission) => {
          if (!admission.throttle) return forward(service, request, response, false, admission);
          const { scope } = admission.throttle;
          const message = scope === 'account' ? THROTTLE_MESSAGES.account : THROTTLE_MESSAGES.other;
          answer(service, response, 503, undefined, message);
        },
        () => answer(service, response, 500),
      );
    });
  }

  function inject(
    fault: FaultKind,
    service: StorageService,
    request: IncomingMessage,
    response: ServerResponse,
    timeoutMs: number,
  ): void {
    switch (fault) {
      case '500':
        return afterBody(request, () => answer(service, response, 500));
      case '503':
        return afterBody(request, () => answer(service, response, 503));
      case '503-retry-after':
        return afterBody(request, () => answer(service, response, 503, 1));
      case 'timeout':
        return afterBody(request, () => hold(request, response, timeoutMs));
      case 'reset':
        return afterBody(request, () => resetConnection(request.socket));
      case 'reset-after':
        return forward(service, request, response, true);
    }
  }

  function handle(
    service: StorageService,
    request: IncomingMessage,
    response: ServerResponse,
  ): void {
    const method = request.method ?? 'GET';
    counter.request(
      service,
      method,
      requestHeadBytes(method, request.url ?? '/', request.rawHeaders),
    );
    request.on('data', (chunk: Buffer) => counter.sent(chunk.length));
    // Clients aborting mid-request are routine here (their try timeouts); never crash on it.
    request.on('error', () => undefined);
    const current = plan;
    const fault = current?.next(service);
    if (!fault || !current) {
      if (targets) throughTargets(targets, service, request, response);
      else forward(service, request, response, false);
      return;
    }
    counter.fault(fault);
    // A faulted request that is not forwarded still has its body read, so the client finishes
    // sending and sees the fault, not a broken pipe.
    if (fault !== 'reset-after') request.resume();
    inject(fault, service, request, response, current.timeoutMs);
  }

  const servers = new Map<StorageService, http.Server>();
  const ports = {} as AzuritePorts;
  try {
    for (const service of STORAGE_SERVICES) {
      const server = http.createServer((request, response) => handle(service, request, response));
      // Requests are held on purpose (timeout faults); the server must not cut them short itself.
      server.requestTimeout = 0;
      server.keepAliveTimeout = 30_000;
      servers.set(service, server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      ports[service] = (server.address() as AddressInfo).port;
    }
  } catch (error) {
    for (const server of servers.values()) server.close();
    throw error;
  }

  return {
    connectionString: azuriteConnectionString(ports, host),
    ports,
    setFaults(faults) {
      plan = faults ? createFaultPlan(faults) : undefined;
    },
    setTargets(limiter) {
      targets = limiter ?? undefined;
    },
    counts: () => counter.snapshot(),
    resetCounts: () => counter.reset(),
    async stop() {
      for (const timer of heldTimers) clearTimeout(timer);
      heldTimers.clear();
      await Promise.all(
        [...servers.values()].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      upstreamAgent.destroy();
    },
  };
}
