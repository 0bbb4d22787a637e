/**
 * Storage throttling, counted where it happens: every try of a storage client that storage answers
 * `ServerBusy` (or `OperationTimedOut`, or any 503) — including the tries the SDK's retry then
 * repeats — is one throttle of its account and of the table partition, queue or container it was
 * for. Counted apart from lost optimistic races (storage/optimisticRetry.ts retries only those; a
 * throttle outlasting the SDK's retries ends the call as a `ThrottledError`), so the operations
 * view and the metrics tell "storage refused" from "another writer won" (docs/targets.md).
 *
 * The counts live in the process (since its start): enough to see which account and partition
 * meets its target; a bounded number of scopes is kept, the first seen dropped first.
 */
import { unescape } from 'node:querystring';
import type { PipelinePolicy, PipelineRequest, PipelineResponse } from '@azure/core-rest-pipeline';

/** One throttled try: the account, and the scope below it that the request was for. */
export interface ThrottleEvent {
  account: string;
  service: 'table' | 'queue' | 'blob';
  /** The table, queue or container. */
  resource: string;
  /** The table partition, when the request names one (a point operation, a partition query). */
  partitionKey?: string;
  /** Storage's `x-ms-error-code` (`ServerBusy`, `OperationTimedOut`), or the status. */
  code: string;
}

/** Where throttles are reported (the counts below, the metrics). */
export type ThrottleSink = (event: ThrottleEvent) => void;

/** The throttles of one scope below an account. */
export interface ScopeThrottles {
  service: ThrottleEvent['service'];
  resource: string;
  partitionKey?: string;
  throttled: number;
}

/** The throttles of one account, busiest scope first. */
export interface AccountThrottles {
  account: string;
  throttled: number;
  scopes: ScopeThrottles[];
}

/** What {@link ThrottleCounts.snapshot} returns. */
export interface ThrottleSnapshot {
  /** When counting started (the process's start, as the service was built). */
  since: Date;
  throttled: number;
  accounts: AccountThrottles[];
}

/** Scopes kept per process: far more than an app's hot partitions, bounded for a long life. */
export const MAX_SCOPES = 1_000;
/** Scopes listed per account in a snapshot (the busiest). */
export const SCOPES_SHOWN = 20;

/** In-process throttle counts, per account and per scope. */
export class ThrottleCounts {
  private readonly since: Date;
  private readonly accounts = new Map<string, number>();
  private readonly scopes = new Map<string, ScopeThrottles & { account: string }>();

  constructor(now: Date = new Date()) {
    this.since = now;
  }

  /** Counts one throttled try. */
  record(event: ThrottleEvent): void {
    this.accounts.set(event.account, (this.accounts.get(event.account) ?? 0) + 1);
    const key = JSON.stringify([event.account, event.service, event.resource, event.partitionKey]);
    if (!this.scopes.has(key) && this.scopes.size >= MAX_SCOPES) {
      this.scopes.delete(this.scopes.keys().next().value!);
    }
    const scope = this.scopes.get(key) ?? {
      account: event.account,
      service: event.service,
      resource: event.resource,
      ...(event.partitionKey !== undefined && { partitionKey: event.partitionKey }),
      throttled: 0,
    };
    scope.throttled++;
    this.scopes.set(key, scope);
  }

  /** The counts so far: every account throttled, each with its busiest scopes. */
  snapshot(): ThrottleSnapshot {
    const all = [...this.scopes.values()];
    const accounts = [...this.accounts].map(([account, throttled]) => ({
      account,
      throttled,
      scopes: all
        .filter((scope) => scope.account === account)
        .sort((a, b) => b.throttled - a.throttled)
        .slice(0, SCOPES_SHOWN)
        .map(({ account: _, ...scope }) => scope),
    }));
    return {
      since: this.since,
      throttled: accounts.reduce((n, a) => n + a.throttled, 0),
      accounts: accounts.sort((a, b) => b.throttled - a.throttled),
    };
  }
}

/** True for an answer that says storage is over a target (Azure: 503 `ServerBusy`, 500 timeout). */
export function isThrottleAnswer(status: number, code: string | undefined): boolean {
  return status === 503 || code === 'ServerBusy' || code === 'OperationTimedOut';
}

const PARTITION_IN_URL = /PartitionKey(?:='|\s+eq\s+')((?:[^']|'')*)'/;
const TABLE_IN_BATCH = /^(?:POST|PUT|PATCH|MERGE|DELETE|GET) \S*\/([A-Za-z][A-Za-z0-9]*)[(?\s]/m;
const PARTITION_IN_BATCH = /"PartitionKey"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/**
 * The scope a storage request was for: its table (and partition, where the URL or a batch body
 * names one), queue or container. Paths may start with the account (Azurite's path style).
 */
export function requestScope(
  service: ThrottleEvent['service'],
  account: string,
  request: Pick<PipelineRequest, 'url' | 'body'>,
): Pick<ThrottleEvent, 'resource' | 'partitionKey'> {
  const url = new URL(request.url);
  const segments = url.pathname.split('/').filter((s) => s !== '');
  if (segments[0] === account) segments.shift();
  const first = decodeURIComponent(segments[0] ?? '');
  if (service !== 'table') return { resource: first };
  let resource = first.replace(/\(.*$/, '');
  // A point operation's key is escaped once more in its path than a query's filter.
  const inPath = PARTITION_IN_URL.exec(decodeURIComponent(url.pathname))?.[1];
  let partition =
    inPath === undefined
      ? PARTITION_IN_URL.exec(decodeURIComponent(url.search))?.[1]
      : unescape(inPath);
  if (partition === undefined && typeof request.body === 'string') {
    // A batch: its operations name the table in their own request lines.
    resource = TABLE_IN_BATCH.exec(request.body)?.[1] ?? resource;
    const found = PARTITION_IN_BATCH.exec(request.body)?.[1];
    partition =
      found === undefined
        ? PARTITION_IN_URL.exec(request.body)?.[1]
        : (JSON.parse(`"${found}"`) as string);
  }
  return {
    resource,
    ...(partition !== undefined && { partitionKey: partition.replace(/''/g, "'") }),
  };
}

/**
 * A pipeline policy that reports every throttled try of one account's client (placed inside the
 * SDK's retry loop, so each retried try counts).
 */
export function throttleCountingPolicy(
  service: ThrottleEvent['service'],
  account: string,
  sink: ThrottleSink,
): PipelinePolicy {
  return {
    name: 'throttleCountingPolicy',
    async sendRequest(request, next): Promise<PipelineResponse> {
      const response = await next(request);
      const code = response.headers.get('x-ms-error-code') ?? undefined;
      if (isThrottleAnswer(response.status, code)) {
        try {
          sink({
            account,
            service,
            ...requestScope(service, account, request),
            code: code ?? String(response.status),
          });
        } catch {
          // Counting must never fail a request.
        }
      }
      return response;
    },
  };
}
