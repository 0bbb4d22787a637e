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
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { azuriteConnectionString, type AzuritePorts } from '../azurite';
import {
  createFaultPlan,
  STORAGE_SERVICES,
  type FaultSettings,
  type StorageService,
} from './faultPlan';
import type { TargetsLimiter } from '../targets/targetsLimiter';
import { TrafficCounter, type ProxyCounts } from './trafficCounter';
import { handleRequest, type ProxyState } from './proxyRequests';

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

/**
 * Starts the proxy and resolves once its three ports listen.
 *
 * @throws {RangeError} when `faults` are invalid.
 * @throws {Error} when a port cannot be opened.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const proxy: ProxyState = {
    host: options.host ?? '127.0.0.1',
    target: options.target,
    counter: new TrafficCounter(),
    plan: options.faults ? createFaultPlan(options.faults) : undefined,
    targets: options.targets,
    upstreamAgent: new http.Agent({ keepAlive: true, maxSockets: 128, timeout: UPSTREAM_IDLE_MS }),
    heldTimers: new Set<NodeJS.Timeout>(),
  };
  const { servers, ports } = await listenAll(proxy);
  return {
    connectionString: azuriteConnectionString(ports, proxy.host),
    ports,
    setFaults(faults) {
      proxy.plan = faults ? createFaultPlan(faults) : undefined;
    },
    setTargets(limiter) {
      proxy.targets = limiter ?? undefined;
    },
    counts: () => proxy.counter.snapshot(),
    resetCounts: () => proxy.counter.reset(),
    stop: () => stopAll(proxy, servers),
  };
}

/**
 * One listening port per storage service, each handing its requests to {@link handleRequest}.
 *
 * @throws {Error} when a port cannot be opened (the ones opened are closed).
 */
async function listenAll(
  proxy: ProxyState,
): Promise<{ servers: Map<StorageService, http.Server>; ports: AzuritePorts }> {
  const servers = new Map<StorageService, http.Server>();
  const ports = {} as AzuritePorts;
  try {
    for (const service of STORAGE_SERVICES) {
      const server = http.createServer((request, response) =>
        handleRequest(proxy, service, request, response),
      );
      // Requests are held on purpose (timeout faults); the server must not cut them short itself.
      server.requestTimeout = 0;
      server.keepAliveTimeout = 30_000;
      servers.set(service, server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, proxy.host, () => {
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
  return { servers, ports };
}

/** Closes the ports, drops open connections and held requests. */
async function stopAll(proxy: ProxyState, servers: Map<StorageService, http.Server>) {
  for (const timer of proxy.heldTimers) clearTimeout(timer);
  proxy.heldTimers.clear();
  await Promise.all(
    [...servers.values()].map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
  proxy.upstreamAgent.destroy();
}
