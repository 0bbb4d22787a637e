/**
 * The real-size workload of the scale case and the real-size scenario (the real-size issue): one
 * department of N employees imported in calls of 1,000 rows, a quarter of them sharing one last
 * name (so the org-wide last-name index holds N/4 members of one name), the others named as a real
 * organisation is (./surnames.ts: thousands of distinct names), and an hour of log lines.
 */
import type { BenchEmployee } from '../employees';
import { realisticSurname } from './surnames';

/** Rows per import call, the API's maximum. */
export const IMPORT_CALL_ROWS = 1000;
/** Entries per `POST /logs` call (the default `LOG_MAX_BATCH_ENTRIES`). */
export const LOG_CALL_ENTRIES = 1000;
/** The last name every fourth employee carries. */
export const SHARED_LAST_NAME = 'Scalesharedname';

/**
 * Employee number `n` (1-based) of a scale run: every fourth carries `sharedLastName`
 * ({@link SHARED_LAST_NAME} by default), the others a realistic last name.
 */
export function scaleEmployee(n: number, sharedLastName = SHARED_LAST_NAME): BenchEmployee {
  const employeeId = String(n).padStart(6, '0');
  return {
    employeeId,
    firstName: `First${n % 500}`,
    lastName: n % 4 === 0 ? sharedLastName : realisticSurname(n),
    email: `scale.${employeeId}@contoso.com`,
    age: 20 + (n % 45),
  };
}

/** How many of employees 1..`count` carry {@link SHARED_LAST_NAME}. */
export function sharedNameCount(count: number): number {
  return Math.floor(count / 4);
}

/**
 * The import calls for `count` employees: rows 1..count in calls of {@link IMPORT_CALL_ROWS}, every
 * fourth carrying `sharedLastName`.
 *
 * @throws {RangeError} when `count` is not a positive whole number below 1,000,000 (6-digit ids).
 */
export function importCalls(count: number, sharedLastName = SHARED_LAST_NAME): BenchEmployee[][] {
  if (!Number.isInteger(count) || count < 1 || count > 999_999)
    throw new RangeError(`An employee count must be 1..999999, got ${count}.`);
  const calls: BenchEmployee[][] = [];
  for (let first = 1; first <= count; first += IMPORT_CALL_ROWS) {
    const last = Math.min(count, first + IMPORT_CALL_ROWS - 1);
    calls.push(
      Array.from({ length: last - first + 1 }, (_, i) => scaleEmployee(first + i, sharedLastName)),
    );
  }
  return calls;
}

/** One log entry as `POST /logs` takes it. */
export interface LogEntryBody {
  at: string;
  level: string;
  message: string;
  seq: number;
}

/**
 * Entry `i` of an hour of `lines` entries starting at `hourStart` (a whole UTC hour): spread
 * evenly over the hour, in time order, each with its sequence number so a reader can check every
 * entry came back once and in order.
 */
export function logHourEntry(hourStart: Date, lines: number, i: number): LogEntryBody {
  const spacing = 3_600_000 / lines;
  return {
    at: new Date(hourStart.getTime() + Math.floor(i * spacing)).toISOString(),
    level: i % 10 === 0 ? 'Warning' : 'Information',
    message: `GET /api/departments/Scale/employees/${String(i % 1000).padStart(6, '0')} 200`,
    seq: i,
  };
}

/** A whole UTC hour at least two hours before `now` (so no live log of the host falls in it). */
export function pastHour(now: Date): Date {
  const hour = new Date(now.getTime() - 2 * 3_600_000);
  hour.setUTCMinutes(0, 0, 0);
  return hour;
}

/**
 * Checks that `seqs` (the `seq` of every entry read back, in the order read) is exactly
 * 0..lines-1, each once, in order; returns what is wrong, or `undefined` when exact.
 */
export function checkLogSequence(seqs: readonly number[], lines: number): string | undefined {
  if (seqs.length !== lines) return `read ${seqs.length} entries, expected ${lines}`;
  for (let i = 0; i < seqs.length; i++) {
    if (seqs[i] !== i) return `entry ${i} has seq ${seqs[i]} (duplicated, lost or out of order)`;
  }
  return undefined;
}
