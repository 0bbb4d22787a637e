/**
 * The index-lag case's write load (bench/cases/indexing.ts): creates issued at a steady rate over
 * several departments without waiting for one to finish before the next is due, so the offered
 * rate is the case's and not the storage's; each create's commit time is kept for the lag.
 */
import type { EmployeeService } from '../../src/directory';
import { benchEmployee } from '../employees';

const MAX_IN_FLIGHT = 64;

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
export const now = (): number => Number(process.hrtime.bigint()) / 1e6;
export const departmentName = (d: number): string => `Dept${String(d).padStart(2, '0')}`;

/** What {@link steadyWrites} saw. */
export interface SteadyWrites {
  /** Per `department/employeeId`: when its create returned. */
  committedAt: Map<string, number>;
  latencies: number[];
  /** How long issuing took (the offered rate); completion may trail behind. */
  seconds: number;
  failed: number;
}

/**
 * Creates employees 1..`count` at `writesPerSecond`, without waiting for one write to finish
 * before the next is due; returns per-id commit times and write latencies.
 */
export async function steadyWrites(
  employees: EmployeeService,
  count: number,
  writesPerSecond: number,
  departments: number,
): Promise<SteadyWrites> {
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  const failures: unknown[] = [];
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / writesPerSecond;
  const started = now();
  for (let i = 0; i < count; i++) {
    // Bounded: when storage falls behind, the offered rate drops instead of sockets piling up.
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    const due = started + i * interval;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    const n = i + 1;
    const body = benchEmployee(n);
    const department = departmentName(n % departments);
    const key = `${department}/${body.employeeId}`;
    const sent = now();
    const write: Promise<void> = employees.create(department, body).then(
      () => {
        const done = now();
        committedAt.set(key, done);
        latencies.push(done - sent);
      },
      (error: unknown) => {
        failures.push(error);
      },
    );
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
  }
  const issueSeconds = (now() - started) / 1000;
  await Promise.all(inFlight);
  // A saturated emulator drops the odd connection; a write that failed has no lag to measure, so
  // a few are reported, not fatal.
  if (failures.length > count / 100) {
    throw new Error(`${failures.length} of ${count} creates failed; first: ${String(failures[0])}`);
  }
  return { committedAt, latencies, seconds: issueSeconds, failed: failures.length };
}
