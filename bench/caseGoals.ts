/**
 * The goals of cases whose verdict depends on more than one comparison or on the machine: two
 * data accounts' throughput (not meaningful on a small machine), and "flat" times across sizes.
 * Pure, so each verdict is tested (test/unit/bench/goals.test.ts).
 */
import {
  atLeast,
  atMost,
  holds,
  judge,
  notJudged,
  num,
  type Criterion,
  type GoalVerdict,
} from './goals';
import type { Measurement } from './types';

/**
 * Below this many cores the two data accounts' emulators and the 32 writers share too few cores
 * for a second account to add throughput: the client, not storage, is the ceiling.
 */
export const CORES_TO_JUDGE_THROUGHPUT = 4;
/** "Requests per create unchanged": within this fraction of one account's. */
const SAME_REQUESTS = 0.05;

const perOperation = (m: Measurement): number =>
  m.operations > 0 ? m.requests / m.operations : m.requests;

/**
 * Two data accounts' throughput against one's and requests per create. On a machine with fewer
 * than {@link CORES_TO_JUDGE_THROUGHPUT} cores it is not judged, unless the requests miss anyway.
 */
export function spreadGoal(
  pattern: Measurement,
  baseline: Measurement,
  cores: number,
): GoalVerdict {
  const text = 'two data accounts ≥ 1.4× the throughput of one, requests per create unchanged';
  const [two, one] = [perOperation(pattern), perOperation(baseline)];
  const apart = one > 0 ? Math.abs(two / one - 1) : Infinity;
  const requests = holds(
    `requests per create ${num(two)} vs ${num(one)}`,
    apart <= SAME_REQUESTS,
    `requests per create ${num(two)} vs ${num(one)}, more than ${SAME_REQUESTS * 100}% apart`,
  );
  const throughput = atLeast('throughput', pattern.opsPerSecond / baseline.opsPerSecond, 1.4, '×');
  if (cores >= CORES_TO_JUDGE_THROUGHPUT) return judge(text, [throughput, requests]);
  if (!requests.ok) return judge(text, [requests]);
  return notJudged(
    text,
    `${throughput.measured}; ${requests.measured}`,
    `two accounts on a ${cores}-core machine: the client is the ceiling (judged from ` +
      `${CORES_TO_JUDGE_THROUGHPUT} cores; requests per create unchanged)`,
  );
}

/** How far above the smallest size's time per operation a larger size may go and be "flat". */
export const FLAT = 1.5;

/**
 * "Time flat" for one size: its p50 per operation (the wall time per operation when no p50 was
 * taken) at most {@link FLAT}× the smallest size's, measured on the same side the same way.
 */
export function flatAgainst(
  what: string,
  at: Measurement,
  smallest: Measurement | undefined,
): Criterion {
  const perOp = (m: Measurement): number => m.p50Ms ?? m.wallMs / Math.max(1, m.operations);
  if (smallest === undefined || smallest === at)
    return holds(`${what}: the smallest size, the reference (${num(perOp(at))} ms)`, true);
  return atMost(`${what} / the smallest size's`, perOp(at) / perOp(smallest), FLAT, '×');
}
