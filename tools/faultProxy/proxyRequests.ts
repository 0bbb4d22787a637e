/**
 * How the fault proxy (faultProxy.ts) handles one request: counts it, then breaks it as the fault
 * plan says, holds it to Azure's targets, or forwards it to Azurite and streams the answer back.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AzuritePorts } from '../azurite';
import type { FaultKind, FaultPlan, StorageService } from './faultPlan';
import { storageErrorResponse, type SyntheticStatus } from './errorResponses';
import { admitRequest, THROTTLE_MESSAGES, type Admission } from '../targets/admission';
import type { TargetsLimiter } from '../targets/targetsLimiter';
import {
  requestHeadBytes,
  responseHeadBytes,
  toRawHeaders,
  entitiesInTableAnswer,
  type TrafficCounter,
} from './trafficCounter';

/** A running proxy's state, shared by its requests. */
export interface ProxyState {
  /** Interface the proxy listens on, and where Azurite runs. */
  host: string;
  /** Azurite's ports. */
  target: AzuritePorts;
  counter: TrafficCounter;
  /** The faults to inject (`undefined`: pass-through); replaced by `setFaults`. */
  plan: FaultPlan | undefined;
  /** Azure's targets to enforce (`undefined`: none); replaced by `setTargets`. */
  targets: TargetsLimiter | undefined;
  upstreamAgent: http.Agent;
  /** Timers of the requests held unanswered (`timeout` faults), cleared at stop. */
  heldTimers: Set<NodeJS.Timeout>;
}

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

/** Answers as storage would fail: `status`, with the service's error body. */
function answer(
  proxy: ProxyState,
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
  proxy.counter.status(status);
  proxy.counter.received(
    responseHeadBytes(status, statusMessage, toRawHeaders(synthetic.headers)) +
      Buffer.byteLength(synthetic.body),
  );
  response.writeHead(status, statusMessage, synthetic.headers);
  response.end(synthetic.body);
}

/** Holds the request unanswered; drops its connection after `timeoutMs`. */
function hold(
  proxy: ProxyState,
  request: IncomingMessage,
  response: ServerResponse,
  timeoutMs: number,
): void {
  const timer = setTimeout(() => {
    proxy.heldTimers.delete(timer);
    request.socket.destroy();
  }, timeoutMs);
  proxy.heldTimers.add(timer);
  // The client usually gives up first (its try timeout); then there is nothing left to hold.
  response.once('close', () => {
    clearTimeout(timer);
    proxy.heldTimers.delete(timer);
  });
}

/** Counts the entities of a table read's answer once it has all arrived. */
function countEntities(
  proxy: ProxyState,
  upstreamResponse: IncomingMessage,
  partition?: string,
): void {
  const chunks: Buffer[] = [];
  upstreamResponse.on('data', (chunk: Buffer) => chunks.push(chunk));
  upstreamResponse.once('end', () => {
    const entities = entitiesInTableAnswer(Buffer.concat(chunks).toString('utf8'));
    proxy.counter.entities(entities);
    if (partition !== undefined) void proxy.targets?.chargeRead(partition, entities);
  });
}

/**
 * Forwards the request to Azurite and streams the answer back, counted; with `dropAnswer` the
 * client gets a reset once storage has answered. `admitted`: the body the targets read already.
 */
function forward(
  proxy: ProxyState,
  service: StorageService,
  request: IncomingMessage,
  response: ServerResponse,
  dropAnswer: boolean,
  admitted?: Admission,
): void {
  const upstream = http.request(
    {
      host: proxy.host,
      port: proxy.target[service],
      method: request.method,
      path: request.url,
      headers: endToEndHeaders(request.rawHeaders),
      agent: proxy.upstreamAgent,
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
      proxy.counter.status(status);
      proxy.counter.received(responseHeadBytes(status, statusMessage, headers));
      upstreamResponse.on('data', (chunk: Buffer) => proxy.counter.received(chunk.length));
      if (service === 'table' && request.method === 'GET' && status === 200)
        countEntities(proxy, upstreamResponse, admitted?.units.partition?.key);
      response.writeHead(status, statusMessage, headers);
      // Storage dropping the connection mid-answer: the client sees its connection drop too.
      upstreamResponse.once('error', () => response.destroy());
      upstreamResponse.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (response.headersSent) response.destroy();
    else afterBody(request, () => answer(proxy, service, response, 502));
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
  proxy: ProxyState,
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
        if (!admission.throttle)
          return forward(proxy, service, request, response, false, admission);
        const { scope } = admission.throttle;
        const message = scope === 'account' ? THROTTLE_MESSAGES.account : THROTTLE_MESSAGES.other;
        answer(proxy, service, response, 503, undefined, message);
      },
      () => answer(proxy, service, response, 500),
    );
  });
}

/** Breaks the request the way `fault` says. */
function inject(
  proxy: ProxyState,
  fault: FaultKind,
  service: StorageService,
  request: IncomingMessage,
  response: ServerResponse,
  timeoutMs: number,
): void {
  switch (fault) {
    case '500':
      return afterBody(request, () => answer(proxy, service, response, 500));
    case '503':
      return afterBody(request, () => answer(proxy, service, response, 503));
    case '503-retry-after':
      return afterBody(request, () => answer(proxy, service, response, 503, 1));
    case 'timeout':
      return afterBody(request, () => hold(proxy, request, response, timeoutMs));
    case 'reset':
      return afterBody(request, () => resetConnection(request.socket));
    case 'reset-after':
      return forward(proxy, service, request, response, true);
  }
}

/** One request to the proxy's port of `service`: counted, then faulted, limited or forwarded. */
export function handleRequest(
  proxy: ProxyState,
  service: StorageService,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const method = request.method ?? 'GET';
  proxy.counter.request(
    service,
    method,
    requestHeadBytes(method, request.url ?? '/', request.rawHeaders),
  );
  request.on('data', (chunk: Buffer) => proxy.counter.sent(chunk.length));
  // Clients aborting mid-request are routine here (their try timeouts); never crash on it.
  request.on('error', () => undefined);
  const current = proxy.plan;
  const fault = current?.next(service);
  if (!fault || !current) {
    if (proxy.targets) throughTargets(proxy, proxy.targets, service, request, response);
    else forward(proxy, service, request, response, false);
    return;
  }
  proxy.counter.fault(fault);
  // A faulted request that is not forwarded still has its body read, so the client finishes
  // sending and sees the fault, not a broken pipe.
  if (fault !== 'reset-after') request.resume();
  inject(proxy, fault, service, request, response, current.timeoutMs);
}
