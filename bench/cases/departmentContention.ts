/**
 * Concurrent creates into ONE department against the same creates spread over 16 departments
 * (issue 15, items 2 and 5): 16 writers, each creating its share of employees one after another
 * through the directory service, in-process, against the counting proxy. Every create of a
 * department must change what holds its employee count, so writers of one department contend on
 * it; the spread run shows the same work without that contention. Reports throughput, p50/p99
 * latency, requests per create and failures (a failure is what the API would answer 5xx or 503).
 */
import { createDirectory } from '../../src/directory';
import { percentile, requestsPerOperationByKind } from '../harness';
import { benchEmployee } from '../employees';
import type { BenchCase, BenchEnv, Measurement } from '../types';
import { atLeast, atMost, exactly, judge } from '../goals';

const WRITERS = 16;

async function run(
  env: BenchEnv,
  label: string,
  departments: readonly string[],
  count: number,
): Promise<{ measurement: Measurement; p99: number; failures: number; byKind: string }> {
  const directory = createDirectory({
    employees: env.clients.table(env.uniqueName('Contention', { table: true })),
  });
  for (const department of departments)
    await directory.departments.put(department, { description: 'Contention bench' });
  const latencies: number[] = [];
  const failures: unknown[] = [];
  let next = 1;
  env.resetTraffic();
  const measurement = await env.measure(label, count, async () => {
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next <= count) {
          const n = next++;
          const department = departments[n % departments.length]!;
          const started = process.hrtime.bigint();
          try {
            await directory.employees.create(department, benchEmployee(n));
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          } catch (error) {
            failures.push(error);
          }
        }
      }),
    );
  });
  const byKind = requestsPerOperationByKind(env.traffic(), count);
  let total = 0;
  for (const department of departments)
    total += (await directory.departments.get(department)).value.employeeCount;
  if (total !== count - failures.length)
    throw new Error(`Counts sum to ${total}, expected ${count - failures.length}.`);
  measurement.p50Ms = Math.round(percentile(latencies, 50) * 10) / 10;
  measurement.p95Ms = Math.round(percentile(latencies, 95) * 10) / 10;
  measurement.p99Ms = Math.round(percentile(latencies, 99) * 10) / 10;
  return {
    measurement,
    p99: measurement.p99Ms,
    failures: failures.length,
    byKind,
  };
}

const departmentContention: BenchCase = {
  name: 'contention: 16 concurrent writers, one department vs spread',
  async run(env) {
    const count = env.size(1600);
    const spread = await run(
      env,
      `spread over ${WRITERS} departments`,
      Array.from({ length: WRITERS }, (_, i) => `Spread${String(i).padStart(2, '0')}`),
      count,
    );
    const one = await run(env, 'one department', ['OneDept'], count);
    const ratio = one.measurement.opsPerSecond / spread.measurement.opsPerSecond;
    return {
      name: `${count} creates by ${WRITERS} concurrent writers: one department vs spread`,
      pattern: one.measurement,
      baseline: spread.measurement,
      goal: judge('one department ≥ 0.7× the spread throughput, p99 ≤ 1 s, no failure', [
        atLeast('throughput one / spread', ratio, 0.7, '×'),
        atMost('p99 one department', one.p99, 1000, ' ms'),
        exactly('failed creates', one.failures + spread.failures, 0),
      ]),
      notes:
        `one/spread throughput ${ratio.toFixed(2)}×; p99 one ${one.p99} ms, spread ${spread.p99} ms; ` +
        `requests per create one ${(one.measurement.requests / count).toFixed(2)}, spread ${(spread.measurement.requests / count).toFixed(2)}; ` +
        `failures one ${one.failures}, spread ${spread.failures}; ` +
        `by kind one: ${one.byKind}; spread: ${spread.byKind}.`,
    };
  },
};

export default departmentContention;
