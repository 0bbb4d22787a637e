/**
 * The logs case's workload and figures (bench/cases/logs.ts): 100-entry batches spread over one
 * hour as a steady stream would write them, and the scaling of every path's figures to 10,000
 * lines, so paths measured on different numbers of lines (the table paths write a sample) compare
 * directly.
 */
import { parseLogBatch, type LogBatch } from '../../src/logs/entry';
import { LOG_LEVELS } from '../../src/logs/format/levels';
import type { Measurement, TrafficCounts } from '../types';

export const ENTRIES_PER_BATCH = 100;
const START = Date.parse('2026-11-22T15:30:00Z');
/** 100,000 entries 36 ms apart span one hour: two hour blobs, as a steady stream would. */
const STEP_MS = 36;

/** `count` batches of {@link ENTRIES_PER_BATCH} entries, 36 ms apart from 15:30 on. */
export function makeBatches(count: number): LogBatch[] {
  return Array.from({ length: count }, (_, b) =>
    parseLogBatch(
      {
        source: 'web',
        entries: Array.from({ length: ENTRIES_PER_BATCH }, (_, i) => {
          const n = b * ENTRIES_PER_BATCH + i;
          return {
            at: new Date(START + n * STEP_MS).toISOString(),
            level: LOG_LEVELS[n % 7 === 0 ? 3 : 1],
            message: `GET /api/departments/Sales/employees/${String(n % 1000).padStart(6, '0')} 200 in ${n % 97} ms`,
            requestId: `req-${n}`,
            userId: `user${n % 250}`,
          };
        }),
      },
      { maxBatchEntries: ENTRIES_PER_BATCH },
    ),
  );
}

/** Requests whose `service:METHOD` kind starts with `service:`. */
export function requestsOf(traffic: TrafficCounts, service: 'blob' | 'queue' | 'table'): number {
  return Object.entries(traffic.byKind)
    .filter(([kind]) => kind.startsWith(`${service}:`))
    .reduce((n, [, count]) => n + count, 0);
}

/** Requests per 10,000 lines. */
export function per10k(requests: number, lines: number): number {
  return Math.round((requests / lines) * 10_000 * 100) / 100;
}

/**
 * A measurement scaled to 10,000 lines (requests, bytes, wall time), so paths measured on
 * different numbers of lines compare directly. Throughput is unchanged.
 */
export function per10kLines(measurement: Measurement): Measurement {
  const scale = 10_000 / measurement.operations;
  return {
    ...measurement,
    label: `${measurement.label} (per 10,000 lines)`,
    wallMs: Math.round(measurement.wallMs * scale * 10) / 10,
    operations: 10_000,
    requests: Math.round(measurement.requests * scale * 100) / 100,
    bytes: Math.round(measurement.bytes * scale),
  };
}

/** A measurement restricted to some of its requests (the harness counted all). */
export function withRequests(
  measurement: Measurement,
  label: string,
  requests: number,
): Measurement {
  return { ...measurement, label, requests };
}
