/**
 * What the fault proxy counts: every request that arrives (faulted or not), per service and
 * method, the bytes each way, the faults it injected and the statuses it answered with.
 *
 * Bytes are counted at the HTTP layer: the request or status line and the header block (rebuilt
 * from the raw headers, so within a few bytes of the wire) plus the body bytes exactly. Chunked
 * transfer framing and TCP/TLS overhead are not counted.
 */
import type { FaultKind, StorageService } from './faultPlan';

/** What the proxy saw since the last reset: requests (per kind), bytes and entities. */
export interface ProxyCounts {
  /** Requests that arrived, faulted or not. */
  requests: number;
  /** Requests per `service:METHOD`, e.g. `table:POST`, `blob:PUT`. */
  byKind: Record<string, number>;
  /** Request bytes from the clients (request line, headers, body). */
  bytesSent: number;
  /** Response bytes to the clients (status line, headers, body). */
  bytesReceived: number;
  /** Entities in successful table query and point-read answers (what storage had to return). */
  entitiesRead: number;
  faultsInjected: number;
  /** Faults per kind, e.g. `503`, `reset`. */
  byFault: Record<string, number>;
  /** Responses per status code the clients received, e.g. `200`, `503` (none for dropped ones). */
  byStatus: Record<string, number>;
}

/** Bytes of an HTTP/1.1 header block: start line, `name: value` lines, blank line. */
function headBytes(startLine: string, rawHeaders: readonly string[]): number {
  let bytes = Buffer.byteLength(startLine) + 2 + 2;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    bytes += Buffer.byteLength(rawHeaders[i]!) + 2 + Buffer.byteLength(rawHeaders[i + 1]!) + 2;
  }
  return bytes;
}

/** Size of a request's head on the wire. `rawHeaders` alternates names and values. */
export function requestHeadBytes(
  method: string,
  url: string,
  rawHeaders: readonly string[],
): number {
  return headBytes(`${method} ${url} HTTP/1.1`, rawHeaders);
}

/** Size of a response's head on the wire. `rawHeaders` alternates names and values. */
export function responseHeadBytes(
  status: number,
  statusMessage: string,
  rawHeaders: readonly string[],
): number {
  return headBytes(`HTTP/1.1 ${status} ${statusMessage}`, rawHeaders);
}

/** Flattens a header map into the alternating name/value form of `rawHeaders`. */
export function toRawHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}

/**
 * Entities in the JSON body of a successful table read: the length of a query's `value` array,
 * 1 for a point read (an object with a `PartitionKey`), 0 for anything else (table listings carry
 * `TableName`, not entities; a body that is not JSON counts nothing).
 */
export function entitiesInTableAnswer(body: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 0;
  }
  if (parsed === null || typeof parsed !== 'object') return 0;
  const value = (parsed as { value?: unknown }).value;
  if (Array.isArray(value))
    return value.filter(
      (item) => item !== null && typeof item === 'object' && 'PartitionKey' in item,
    ).length;
  return 'PartitionKey' in parsed ? 1 : 0;
}

function emptyCounts(): ProxyCounts {
  return {
    requests: 0,
    byKind: {},
    bytesSent: 0,
    bytesReceived: 0,
    entitiesRead: 0,
    faultsInjected: 0,
    byFault: {},
    byStatus: {},
  };
}

function increment(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Running totals, with copies handed out so callers cannot change them. */
export class TrafficCounter {
  private counts = emptyCounts();

  request(service: StorageService, method: string, headBytes: number): void {
    this.counts.requests += 1;
    increment(this.counts.byKind, `${service}:${method.toUpperCase()}`);
    this.counts.bytesSent += headBytes;
  }

  sent(bytes: number): void {
    this.counts.bytesSent += bytes;
  }

  received(bytes: number): void {
    this.counts.bytesReceived += bytes;
  }

  entities(count: number): void {
    this.counts.entitiesRead += count;
  }

  status(status: number): void {
    increment(this.counts.byStatus, String(status));
  }

  fault(kind: FaultKind): void {
    this.counts.faultsInjected += 1;
    increment(this.counts.byFault, kind);
  }

  snapshot(): ProxyCounts {
    return {
      ...this.counts,
      byKind: { ...this.counts.byKind },
      byFault: { ...this.counts.byFault },
      byStatus: { ...this.counts.byStatus },
    };
  }

  reset(): void {
    this.counts = emptyCounts();
  }
}
