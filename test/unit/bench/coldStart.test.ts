/**
 * The cold-start case's figures and verdict (bench/cases/coldStart.ts): p50 and max of the
 * starts, and the goal — the package starts no slower than the unbundled layout (p50, within
 * 10%); its slowest start is reported beside Flex Consumption's 30 s, not judged.
 */
import { coldStartGoal, FLEX_INIT_MS, p50AndMax } from '../../../bench/cases/coldStart';

it('takes the middle start as the p50 and the slowest as the max', () => {
  expect(p50AndMax([900, 400, 500, 2_000, 600])).toEqual({ p50: 600, max: 2_000 });
  expect(p50AndMax([4, 1, 3, 2])).toEqual({ p50: 2.5, max: 4 });
});

it('is met when the package starts as fast or faster, and reports the slowest beside 30 s', () => {
  const goal = coldStartGoal('health', [900, 1_000, FLEX_INIT_MS + 1], [1_500, 1_600, 1_700]);
  expect(goal.verdict).toBe('met');
  expect(goal.measured).toContain('packaged p50 / unbundled p50 0.63×');
  expect(goal.measured).toContain('packaged max 30,001 ms');
});

it('is missed when the package is slower by more than 10%', () => {
  const slower = coldStartGoal('create', [1_200, 1_200, 1_200], [1_000, 1_000, 1_000]);
  expect(slower.verdict).toBe('missed');
  expect(slower.why).toContain('above 1.1×');
  expect(coldStartGoal('create', [1_090], [1_000]).verdict).toBe('met');
});
