/**
 * The real-size scenario's results file (`bench/results-real-size-<employees>.json`): what it
 * measured, each goal's verdict, and the machine, emulator and commit it ran on, for
 * `npm run bench:report` to render. Pure but for what the caller passes in.
 */
import type { RunEnvironment } from '../machine';
import type { GoalVerdict, RealSizeFigures, RealSizeOptions, StoredVerdict } from './goals';

/** Marks the file as the real-size scenario's (the report refuses anything else in its place). */
export const REAL_SIZE_KIND = 'real-size';

export interface RealSizeReport extends RunEnvironment {
  kind: typeof REAL_SIZE_KIND;
  /** When the scenario started and ended (ISO 8601). */
  date: string;
  finishedAt: string;
  durationMs: number;
  loadAverageAtEnd: number[];
  baseUrl: string;
  employees: number;
  logLines: number;
  /** The goals' limits the verdicts were judged against. */
  goals: { maxImportRatio: number; searchGoalMs: number; archiveGoalMs: number };
  figures: RealSizeFigures;
  /** Each goal's verdict (`{ goal, measured, passed }` in files written before verdicts). */
  verdicts: StoredVerdict[];
  /** Every goal met. */
  passed: boolean;
}

/** The results file's content. */
export function buildRealSizeReport(input: {
  options: RealSizeOptions;
  figures: RealSizeFigures;
  verdicts: GoalVerdict[];
  environment: RunEnvironment;
  startedAt: Date;
  finishedAt: Date;
  loadAverageAtEnd: number[];
}): RealSizeReport {
  const { options, figures, verdicts } = input;
  return {
    kind: REAL_SIZE_KIND,
    date: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    ...input.environment,
    loadAverageAtEnd: input.loadAverageAtEnd,
    baseUrl: options.baseUrl,
    employees: options.employees,
    logLines: options.logLines,
    goals: {
      maxImportRatio: options.maxImportRatio,
      searchGoalMs: options.searchGoalMs,
      archiveGoalMs: options.archiveGoalMs,
    },
    figures,
    verdicts,
    passed: verdicts.every((v) => v.verdict === 'met'),
  };
}

/**
 * Ms per 1,000 rows of the first and the last import call (a last call of fewer rows scaled up);
 * `undefined` without calls.
 */
export function msPerThousandRows(
  figures: Pick<RealSizeFigures, 'importCallMs' | 'importCallRows'>,
): { first: number; last: number } | undefined {
  const { importCallMs: ms, importCallRows: rows } = figures;
  if (ms.length === 0) return undefined;
  const per = (i: number): number => {
    const n = rows?.[i] ?? 1000;
    return n > 0 ? (ms[i]! / n) * 1000 : ms[i]!;
  };
  return { first: per(0), last: per(ms.length - 1) };
}
