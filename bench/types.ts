/**
 * The shape every benchmark case follows: the pattern and its naive baseline measured in the same
 * run, each with the figures that carry over to Azure (storage requests, entities, bytes on the
 * wire, counted by the fault proxy in pass-through mode) beside wall time on Azurite.
 */
import type { StorageClients } from '../src/storage/clients';
import type { GoalVerdict } from './goals';

/** What the counting proxy saw between two snapshots. */
export interface TrafficCounts {
  /** HTTP requests that reached storage (billable transactions / round trips). */
  requests: number;
  /** Requests per service and method, e.g. `table:POST`, `blob:PUT`. */
  byKind: Record<string, number>;
  bytesSent: number;
  bytesReceived: number;
  /** Entities storage returned to table queries and point reads. */
  entitiesRead: number;
}

/** One side of a comparison. */
export interface Measurement {
  label: string;
  wallMs: number;
  /** Logical operations done (lookups, entities written...), for ops/s. */
  operations: number;
  opsPerSecond: number;
  requests: number;
  bytes: number;
  /** Entities the service returned or had to scan, when the case can tell. */
  entities?: number;
  /** Latency percentiles in ms, when the case measures per-operation latency. */
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
}

/** A pattern beside its baseline. Ratios are baseline / pattern (higher = pattern better). */
export interface Comparison {
  name: string;
  pattern: Measurement;
  baseline: Measurement;
  /**
   * The goal the issue sets, judged by the case against its own figures (`judge` in
   * bench/goals.ts): its words, met / missed / not judged, what was measured and why.
   */
  goal?: GoalVerdict;
  notes?: string;
}

/**
 * What a case may return instead of bare comparisons: the comparisons and figures of its own that
 * a report renders (the scale case's steps), kept in `bench/results*.json` as the case's `data`.
 */
export interface CaseOutput {
  comparisons: Comparison[];
  data?: Record<string, unknown>;
}

/** What a case gets from the harness. */
export interface BenchEnv {
  /** Clients whose traffic goes through the counting proxy. */
  clients: StorageClients;
  /** Connection string of the counting proxy (for services or hosts a case starts itself). */
  connectionString: string;
  /** Connection string of Azurite itself, bypassing the proxy. */
  directConnectionString: string;
  /** Traffic since the last reset. */
  traffic(): TrafficCounts;
  resetTraffic(): void;
  /** A unique lowercase name (queues, containers) or, with `table: true`, a table name. */
  uniqueName(prefix: string, options?: { table?: boolean }): string;
  /** Times `fn`, counting proxy traffic during it. */
  measure(
    label: string,
    operations: number,
    fn: () => Promise<void | { entities?: number }>,
  ): Promise<Measurement>;
  /** Scales sizes down for a quick run (`BENCH_QUICK=1`): use `env.size(5000)`. */
  size(full: number): number;
  /** Aborted when the case is over (timed out, or done): long waits give up on it. */
  signal: AbortSignal;
  /**
   * Registers how to stop something the case started (a host, an emulator, a timer). The harness
   * runs these when the case ends, whether it passed, failed or timed out, last registered first,
   * so a case that timed out leaves nothing running behind it.
   */
  defer(cleanup: () => unknown): void;
}

/** A benchmark case: `bench/cases/<name>.ts` default-exports one (or an array). */
export interface BenchCase {
  name: string;
  /** Its own time bound, when longer than the run's `BENCH_CASE_TIMEOUT_MS` (a long case). */
  timeoutMs?: number;
  /** Left out of a run without filters (`npm run bench scale` runs it). */
  onlyWhenNamed?: boolean;
  run(env: BenchEnv): Promise<Comparison | Comparison[] | CaseOutput>;
}
