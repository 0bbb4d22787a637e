/**
 * Goals that judge: a case states a goal in words and checks the figures it states against what
 * it measured itself, so the results hold a verdict (met, missed, or not judged with the reason)
 * beside the text. A case that ran without an exception only "ran"; its goals say how it went.
 * Pure: the harness, the console report and `bench:report` all count and mark goals here.
 */

/** How a goal came out. */
export type Verdict = 'met' | 'missed' | 'not judged';

/** A goal with its verdict, as the results file keeps it. */
export interface GoalVerdict {
  /** The goal in words, e.g. "≥ 0.9× raw throughput". */
  text: string;
  verdict: Verdict;
  /** The figures the goal states, as measured: "throughput 0.93× raw". */
  measured: string;
  /** One line: what fell short (missed) or why the goal is not judged here. */
  why?: string;
}

/** One figure a goal states, checked against what was measured. */
export interface Criterion {
  /** The figure as measured, e.g. "1.00 requests per lookup". */
  measured: string;
  ok: boolean;
  /** What fell short, when not ok: "0.72× raw throughput, below 0.9×". */
  shortfall: string;
}

/** `0.93`, `1`, `1,800`, `0.0026`: enough digits to see which side of a limit a figure is on. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 0.1 || abs === 0) return String(Number(value.toFixed(2)));
  return String(Number(value.toPrecision(2)));
}

/** A figure with its unit: `0.93×`, `1 requests`, `812 ms`. */
const show = (value: number, unit: string): string => `${num(value)}${unit}`;

/** `value` ≥ `limit`: "throughput / raw 0.93×" (a missing value fails: nothing was measured). */
export function atLeast(
  what: string,
  value: number | undefined,
  limit: number,
  unit = '',
): Criterion {
  if (value === undefined || Number.isNaN(value)) return unmeasured(what);
  return {
    measured: `${what} ${show(value, unit)}`,
    ok: value >= limit,
    shortfall: `${what} ${show(value, unit)}, below ${show(limit, unit)}`,
  };
}

/** `value` ≤ `limit`. */
export function atMost(
  what: string,
  value: number | undefined,
  limit: number,
  unit = '',
): Criterion {
  if (value === undefined || Number.isNaN(value)) return unmeasured(what);
  return {
    measured: `${what} ${show(value, unit)}`,
    ok: value <= limit,
    shortfall: `${what} ${show(value, unit)}, above ${show(limit, unit)}`,
  };
}

/** `value` = `expected` (counts: requests per operation, entities, failures). */
export function exactly(
  what: string,
  value: number | undefined,
  expected: number,
  unit = '',
): Criterion {
  if (value === undefined || Number.isNaN(value)) return unmeasured(what);
  const ok = Math.abs(value - expected) < 1e-9;
  // A near miss (1.005 requests per lookup) is shown with the digits that tell it from the goal.
  const shown = ok || Math.abs(value) >= 100 ? num(value) : String(Number(value.toPrecision(4)));
  return {
    measured: `${what} ${shown}${unit}`,
    ok,
    shortfall: `${what} ${shown}${unit}, not ${show(expected, unit)}`,
  };
}

/** A condition the case checked itself; `measured` says what it saw. */
export function holds(measured: string, ok: boolean, shortfall = measured): Criterion {
  return { measured, ok, shortfall };
}

function unmeasured(what: string): Criterion {
  return { measured: `${what} not measured`, ok: false, shortfall: `${what} not measured` };
}

/**
 * The verdict of a goal from the figures it states: met when every criterion holds. `context`
 * adds a figure that is reported beside them but not judged (the emulator's own slowdown).
 *
 * @throws {RangeError} without criteria: a goal that checks nothing cannot be met.
 */
export function judge(text: string, criteria: readonly Criterion[], context?: string): GoalVerdict {
  if (criteria.length === 0) throw new RangeError(`The goal "${text}" checks nothing.`);
  const measured = [...criteria.map((c) => c.measured), ...(context ? [context] : [])].join('; ');
  const short = criteria.filter((c) => !c.ok);
  return short.length === 0
    ? { text, verdict: 'met', measured }
    : { text, verdict: 'missed', measured, why: short.map((c) => c.shortfall).join('; ') };
}

/** A goal not meaningful where it ran: reported with its figures, never counted as met. */
export function notJudged(text: string, measured: string, why: string): GoalVerdict {
  return { text, verdict: 'not judged', measured, why };
}

/** Why a goal of a results file from before verdicts is not judged (it was only words). */
export const BEFORE_VERDICTS = 'recorded before verdicts';

/**
 * A goal as a results file holds it: a verdict, or, in files written before verdicts, only its
 * words, which are reported as not judged rather than guessed at.
 */
export function goalOf(goal: GoalVerdict | string | undefined): GoalVerdict | undefined {
  if (goal === undefined) return undefined;
  if (typeof goal === 'string') return notJudged(goal, '', BEFORE_VERDICTS);
  return goal;
}

/** How many goals came out which way. */
export interface GoalTally {
  total: number;
  met: number;
  missed: number;
  notJudged: number;
}

export function tally(goals: readonly GoalVerdict[]): GoalTally {
  const of = (v: Verdict): number => goals.filter((g) => g.verdict === v).length;
  return { total: goals.length, met: of('met'), missed: of('missed'), notJudged: of('not judged') };
}

/** `5 of 7 goals met, 1 missed, 1 not judged`. */
export function tallyLine(t: GoalTally): string {
  return `${t.met} of ${t.total} goal${t.total === 1 ? '' : 's'} met, ${t.missed} missed, ${t.notJudged} not judged`;
}

/** ✔ met, ✗ missed, – not judged. */
export const MARK: Record<Verdict, string> = { met: '✔', missed: '✗', 'not judged': '–' };

/** `✔ ≥ 0.9× raw throughput (throughput / raw 0.93×)`; a goal not judged says so. */
export function goalLabel(goal: GoalVerdict): string {
  const status = goal.verdict === 'not judged' ? ' — not judged' : '';
  return `${MARK[goal.verdict]} ${goal.text}${status}${goal.measured ? ` (${goal.measured})` : ''}`;
}

/** The one line on a goal that is not met: why it missed, or why it is not judged. */
export function whyLine(goal: GoalVerdict): string | undefined {
  if (goal.verdict === 'met') return undefined;
  const why = goal.why ?? (goal.verdict === 'missed' ? 'no reason recorded' : BEFORE_VERDICTS);
  return goal.verdict === 'missed' ? `missed: ${why}` : `not judged: ${why}`;
}
