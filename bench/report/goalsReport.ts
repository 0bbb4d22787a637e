/**
 * The goals of a published run as the README and docs/benchmarks.md show them: a tally ("N of M
 * goals met") for the run's opening lines, ✔/✗/– per goal in the tables, and one line on each
 * goal missed (why) or not judged (the reason). A run recorded before verdicts held only the
 * goals' words: its goals are said to be not judged, in one sentence, never counted as met.
 */
import { BEFORE_VERDICTS, goalOf, MARK, tally, tallyLine, type GoalVerdict } from '../goals';
import type { BenchReport, ComparisonResult } from '../harness';
import { bullets, escapeText, paragraph } from './markdown';

/** Every goal of the run with the comparison it belongs to, in run order. */
function goalsOfRun(report: BenchReport): { name: string; goal: GoalVerdict }[] {
  return report.cases.flatMap((c) =>
    c.comparisons.flatMap((comparison) => {
      const goal = goalOf(comparison.goal);
      return goal ? [{ name: comparison.name, goal }] : [];
    }),
  );
}

/** `12 of 15 goals met, 2 missed, 1 not judged` for the run. */
export function goalTally(report: BenchReport): string {
  return tallyLine(tally(goalsOfRun(report).map((g) => g.goal)));
}

/**
 * A table cell: `✔ ≥ 0.9× raw throughput`; with `measured`, what was measured follows in
 * brackets. `–` alone for a comparison without a goal.
 */
export function goalCell(c: ComparisonResult, measured = false): string {
  const goal = goalOf(c.goal);
  if (!goal) return '–';
  return `${MARK[goal.verdict]} ${goal.text}${measured && goal.measured ? `: ${goal.measured}` : ''}`;
}

/**
 * One bullet per goal missed (✗ and why) or not judged (– and the reason), in run order; goals
 * recorded before verdicts are one sentence. `undefined` when every goal was met.
 */
export function goalNotes(report: BenchReport): string | undefined {
  const open = goalsOfRun(report).filter(({ goal }) => goal.verdict !== 'met');
  const before = open.filter(
    ({ goal }) => goal.verdict === 'not judged' && goal.why === BEFORE_VERDICTS,
  );
  const listed = open.filter((g) => !before.includes(g));
  const parts: string[] = [];
  if (listed.length)
    parts.push(
      bullets(
        listed.map(({ name, goal }) => {
          const how = goal.verdict === 'missed' ? 'missed' : 'not judged';
          return escapeText(
            `${MARK[goal.verdict]} **${name}** — ${goal.text}: ${how}, ${goal.why ?? 'no reason recorded'}` +
              (goal.verdict === 'missed' || !goal.measured ? '' : ` (measured: ${goal.measured})`),
          );
        }),
      ),
    );
  if (before.length)
    parts.push(
      paragraph(
        `This run was ${BEFORE_VERDICTS}: its results hold ${before.length === 1 ? 'one goal' : `${before.length} goals`} ` +
          'as words only, so each is shown as not judged (–) rather than guessed at from the ' +
          'figures; the next published run judges them.',
      ),
    );
  return parts.length ? parts.join('\n\n') : undefined;
}
