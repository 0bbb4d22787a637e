/**
 * The emulator case's measured comparisons (bench/cases/emulator.ts): the same calls against the
 * patched and the published emulator, one after the other so each has the machine to itself; their
 * answers must be equal (a difference fails the case), and the patched side's time is judged flat
 * against the smallest size's.
 */
import { mapBounded } from '../../src/storage/parallel';
import type { TableClient } from '@azure/data-tables';
import { FLAT, flatAgainst } from '../caseGoals';
import { holds, judge } from '../goals';
import { percentile, trafficBetween } from '../harness';
import type { Comparison, Measurement } from '../types';
import type { Emulator } from './pair';

/** How a comparison calls the emulators: `calls` calls, each worth `perCall` operations. */
export interface Calls {
  label: string;
  calls: number;
  perCall?: number;
  concurrency: number;
}

/** Times the calls of `work` against one emulator; latencies are per call. */
async function timed(
  emulator: Emulator,
  { label, calls, perCall = 1, concurrency }: Calls,
  work: (i: number) => Promise<unknown>,
): Promise<{ measurement: Measurement; answers: unknown[] }> {
  const operations = calls * perCall;
  const before = emulator.proxy.counts();
  const latencies: number[] = [];
  const started = performance.now();
  const answers = await mapBounded(
    Array.from({ length: calls }, (_, i) => i),
    concurrency,
    async (i) => {
      const t0 = performance.now();
      const answer = await work(i);
      latencies.push(performance.now() - t0);
      return answer;
    },
  );
  const wallMs = performance.now() - started;
  const traffic = trafficBetween(before, emulator.proxy.counts());
  return {
    answers,
    measurement: {
      label: `${emulator.name}: ${label}`,
      wallMs: Math.round(wallMs * 10) / 10,
      operations,
      opsPerSecond: Math.round((operations / wallMs) * 10_000) / 10,
      requests: traffic.requests,
      bytes: traffic.bytesSent + traffic.bytesReceived,
      entities: traffic.entitiesRead,
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p95Ms: Math.round(percentile(latencies, 95) * 10) / 10,
    },
  };
}

/**
 * The same measured calls against both emulators, one after the other (each has the machine to
 * itself while measured); their answers must be equal.
 */
export async function compare(
  emulators: readonly [Emulator, Emulator],
  name: string,
  calls: Calls,
  work: (emulator: Emulator, i: number) => Promise<unknown>,
  notes?: string,
): Promise<Comparison> {
  const [patched, published] = emulators;
  const a = await timed(patched, calls, (i) => work(patched, i));
  const b = await timed(published, calls, (i) => work(published, i));
  if (JSON.stringify(a.answers) !== JSON.stringify(b.answers))
    throw new Error(`${name}: the patched and the published emulator answered differently.`);
  return { name: `emulator: ${name}`, pattern: a.measurement, baseline: b.measurement, notes };
}

/**
 * The goal of each comparison: the same answers (a difference failed the case already) and the
 * patched side's time flat in `growing`: each comparison (`perSize` per size, in the sizes' order)
 * against the same call at the smallest size.
 */
export function withFlatGoals(
  comparisons: Comparison[],
  sizes: readonly number[],
  perSize: number,
  growing: string,
): Comparison[] {
  const smallest = sizes.indexOf(Math.min(...sizes));
  return comparisons.map((c, i) => ({
    ...c,
    goal: judge(`same answers; time flat in ${growing} (p50 ≤ ${FLAT}× the smallest size's)`, [
      holds('same answers as the published emulator', true),
      flatAgainst(
        'patched p50',
        c.pattern,
        comparisons[smallest * perSize + (i % perSize)]?.pattern,
      ),
    ]),
  }));
}

/** Keys of a query's first `pages` pages of up to `pageSize` entities (with their continuation). */
export async function firstPages(
  client: TableClient,
  filter: string,
  pageSize: number,
  pages: number,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const page of client
    .listEntities({ queryOptions: { filter, select: ['RowKey'] } })
    .byPage({ maxPageSize: pageSize })) {
    seen.push([page.length, page[0]?.rowKey, page.at(-1)?.rowKey, page.continuationToken]);
    if (seen.length >= pages) break;
  }
  return seen;
}

/** A pseudo-random sequence, the same for both emulators. */
export function sequence(count: number, below: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state % below;
  });
}
