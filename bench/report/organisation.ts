/**
 * The organisation case's figures in the README and docs/benchmarks.md (issue 45): from the
 * published runs (one account, two data accounts), a table per run with one column per size, the
 * goals judged at every size, and the charts (bench/scale/organisation.ts). Pure: reports in,
 * Markdown and chart definitions out.
 */
import type { BenchReport } from '../harness';
import { MARK, tally, tallyLine, type GoalVerdict } from '../goals';
import { renderLineChart } from '../scale/chart';
import {
  accountsLabel,
  creationRate,
  organisationCharts,
  organisationGoals,
  requestsPerCreation,
  type Cost,
  type OrganisationData,
  type OrganisationPoint,
} from '../scale/organisation';
import { describeEnvironment, describeLoad } from './benchRun';
import { bullets, count, duration, figure, listing, paragraph, table, utcMinute } from './markdown';

/** A run of the organisation case as published: its report and its path. */
export interface OrganisationRunFile {
  report: BenchReport;
  source: string;
}

/**
 * The organisation case's data in a bench report.
 *
 * @throws {Error} when the report has no organisation case, it failed, or its data has no sizes
 *   (a run from before the case measured several sizes).
 */
export function organisationDataOf(report: BenchReport): OrganisationData {
  const found = report.cases.find((c) => c.name.startsWith('organisation:'));
  if (!found) throw new Error('The report has no organisation case.');
  const data = found.data as Partial<OrganisationData> | undefined;
  if (found.status === 'failed' || !data || !Array.isArray(data.points) || !data.points.length)
    throw new Error(
      found.status === 'failed'
        ? `The organisation case failed: ${(found.error ?? '').split('\n')[0]}.`
        : 'The organisation case left no sizes in its data.',
    );
  return { accounts: data.accounts ?? 1, sizes: data.sizes ?? [], points: data.points };
}

/** An organisation run's published name: `organisation.json`, `organisation-2-accounts.json`. */
export function organisationFileName(report: BenchReport): string {
  const { accounts } = organisationDataOf(report);
  return accounts > 1 ? `organisation-${accounts}-accounts.json` : 'organisation.json';
}

/** The charts of the published organisation runs: SVG documents by file name. */
export function organisationChartFiles(
  runs: readonly OrganisationRunFile[],
): Record<string, string> {
  const charts = organisationCharts(
    runs.map(({ report }) => ({
      date: report.date,
      commit: report.commit?.sha,
      data: organisationDataOf(report),
    })),
  );
  return Object.fromEntries(
    Object.entries(charts).map(([file, chart]) => [file, renderLineChart(chart)]),
  );
}

const costCell = (c: Cost, goal?: GoalVerdict): string =>
  `${count(c.requests)} req, ${duration(c.ms)}${goal ? ` ${MARK[goal.verdict]}` : ''}`;

/** The rows of one run's table: what was measured, one cell per size. */
function rowsOf(points: readonly OrganisationPoint[]): string[][] {
  const goals = points.map(organisationGoals);
  return [
    [
      'creation, 8 at a time (per department)',
      ...points.map((p) => `${figure(creationRate(p))}/s, ${figure(requestsPerCreation(p))} req`),
    ],
    [
      'a listing page of 1,000 with counts (goal ≤ 5 req)',
      ...points.map((p, i) => costCell(p.listing, goals[i]!.listing)),
    ],
    [
      'operations view, work pending at the end (goal: shown, not truncated)',
      ...points.map((p, i) => costCell(p.operations, goals[i]!.operations)),
    ],
    [
      'idle outbox sweep (goal ≤ 50 req)',
      ...points.map((p, i) => costCell(p.idleSweep, goals[i]!.idleSweep)),
    ],
    [
      'sweep with 10 departments pending',
      ...points.map((p) => `${costCell(p.busySweep)}, ${count(p.busySweep.rows)} rows`),
    ],
  ];
}

/** Every goal of a run, at every size. */
const goalsOf = (data: OrganisationData): GoalVerdict[] =>
  data.points.flatMap((p) => Object.values(organisationGoals(p)));

/** One run's table. */
function runTable(report: BenchReport): string {
  const data = organisationDataOf(report);
  return table(
    [
      `${accountsLabel(data.accounts)}: departments`,
      ...data.points.map((p) => count(p.departments)),
    ],
    rowsOf(data.points),
  );
}

/** The line that dates each run. */
function runLines(runs: readonly OrganisationRunFile[], sources: readonly string[]): string {
  return bullets(
    runs.map(({ report }, i) => {
      const data = organisationDataOf(report);
      const load = describeLoad(report.loadAverage, report.loadAverageAtEnd);
      return (
        `${accountsLabel(data.accounts)}: \`npm run bench -- organisation\`` +
        `${data.accounts > 1 ? ` with \`BENCH_ORG_ACCOUNTS=${data.accounts}\`` : ''}` +
        `${report.quick ? ' **at quick sizes (`BENCH_QUICK`)**' : ''}, one organisation grown ` +
        `through ${listing(data.points.map((p) => count(p.departments)))} departments, started ` +
        `${utcMinute(report.date)} and ${duration(report.durationMs)} long; ` +
        `${describeEnvironment(report)}${load ? `; ${load}` : ''}; ` +
        `${tallyLine(tally(goalsOf(data)))} ([\`${sources[i]}\`](${sources[i]}))`
      );
    }),
  );
}

/** The runs one account first. */
const byAccounts = (runs: readonly OrganisationRunFile[]): OrganisationRunFile[] =>
  [...runs].sort(
    (a, b) => organisationDataOf(a.report).accounts - organisationDataOf(b.report).accounts,
  );

/**
 * The section of the README (`imgDir` docs/img, without the wall-time chart) or of
 * docs/benchmarks.md (`img`, every chart).
 */
export function renderOrganisation(
  runs: readonly OrganisationRunFile[],
  sources: readonly string[],
  options: { imgDir: string; msChart: boolean },
): string {
  if (runs.length === 0)
    return paragraph(
      'No organisation run is published yet: run `npm run bench -- organisation`, then ' +
        '`npm run bench:report -- bench/results-organisation.json`.',
    );
  const order = byAccounts(runs).map((run) => runs.indexOf(run));
  const sorted = order.map((i) => runs[i]!);
  const files = Object.keys(organisationChartFiles(sorted)).filter(
    (file) => options.msChart || !file.endsWith('-ms.svg'),
  );
  const titles: Record<string, string> = {
    'benchmarks-organisation-requests.svg': 'Storage requests per operation against departments',
    'benchmarks-organisation-ms.svg': 'Wall time per operation against departments',
    'benchmarks-organisation-creation.svg': 'Departments created per second against departments',
  };
  return [
    ...sorted.map(({ report }) => runTable(report)),
    runLines(
      sorted,
      order.map((i) => sources[i]!),
    ),
    ...files.map((file) => `![${titles[file] ?? file}](${options.imgDir}/${file})`),
  ].join('\n\n');
}
