/**
 * The "at real size" figures: the scale case's steps (from one `npm run bench -- scale` report,
 * `bench/results-scale.json`) as tables and charts, and the real-size scenario's runs
 * (`bench/results-real-size-<employees>.json`) with their goals' verdicts. Pure: a report in,
 * Markdown (and chart definitions) out.
 */
import type { BenchReport } from '../harness';
import { MARK, tally, tallyLine } from '../goals';
import { renderLineChart, scaleCharts } from '../scale/chart';
import type { ScaleData, StepResult } from '../scale/metrics';
import { realSizeVerdictOf } from '../scale/goals';
import { msPerThousandRows, type RealSizeReport } from '../scale/realSizeReport';
import { describeEnvironment, describeLoad } from './benchRun';
import {
  bullets,
  count,
  duration,
  escapeText,
  figure,
  listing,
  paragraph,
  table,
  utcMinute,
} from './markdown';

/** The scale case's data in a bench report, or why there is none. */
export function scaleDataOf(report: BenchReport): ScaleData {
  const scale = report.cases.find((c) => c.name.startsWith('scale:'));
  if (!scale) throw new Error('The report has no scale case (run `npm run bench -- scale`).');
  const data = scale.data as Partial<ScaleData> | undefined;
  if (scale.status === 'failed' || !data || !Array.isArray(data.steps))
    throw new Error(
      `The scale case ${scale.status !== 'failed' ? 'left no steps in its data' : `failed: ${(scale.error ?? '').split('\n')[0]}`}.`,
    );
  return data as ScaleData;
}

/** The charts of a scale report: SVG documents by file name, dated with the run. */
export function scaleChartFiles(report: BenchReport): Record<string, string> {
  const charts = scaleCharts(scaleDataOf(report).steps, {
    date: report.date,
    commit: report.commit?.sha,
  });
  return Object.fromEntries(
    Object.entries(charts).map(([file, chart]) => [file, renderLineChart(chart)]),
  );
}

/** One step at one size: `0.92 ms, 0.063 req, 5.5 ent`, or what stopped it. */
function stepCell(r: StepResult | undefined): string {
  if (!r) return '–';
  if (r.status === 'skipped') return 'skipped';
  if (r.status === 'failed') return 'failed';
  const figures = [
    `${figure(r.msPerUnit ?? 0)} ms`,
    `${figure(r.requestsPerUnit ?? 0)} req`,
    ...(r.entitiesPerUnit ? [`${figure(r.entitiesPerUnit)} ent`] : []),
  ].join(', ');
  return r.status === 'timedOut' ? `timed out at ${count(r.units)}: ≥ ${figures}` : figures;
}

const UNIT_TITLES: Record<StepResult['unit'], string> = {
  employee: 'Per employee, against the department’s size',
  'log line': 'Per log line, against the hour’s size',
};

/** The steps × sizes tables, one per unit, and the steps' notes. */
function scaleTables(steps: readonly StepResult[]): string {
  const parts: string[] = [];
  for (const unit of ['employee', 'log line'] as const) {
    const ofUnit = steps.filter((s) => s.unit === unit);
    if (ofUnit.length === 0) continue;
    const sizes = [...new Set(ofUnit.map((s) => s.size))].sort((a, b) => a - b);
    const names = [...new Set(ofUnit.map((s) => s.step))];
    parts.push(
      `${UNIT_TITLES[unit]} (ms, storage requests and entities read per ${unit}):`,
      table(
        ['Step', ...sizes.map(count)],
        names.map((name) => [
          name,
          ...sizes.map((size) => stepCell(ofUnit.find((s) => s.step === name && s.size === size))),
        ]),
      ),
    );
  }
  const notes = steps
    .filter((s) => s.note)
    .map((s) => escapeText(`${s.step} at ${count(s.size)}: ${s.note}`));
  if (notes.length) parts.push('What the steps said:', bullets(notes));
  return parts.join('\n\n');
}

/** The line that dates a scale run. */
function scaleRunLine(report: BenchReport, source: string): string {
  const load = describeLoad(report.loadAverage, report.loadAverageAtEnd);
  const { settings } = scaleDataOf(report);
  return paragraph(
    `From one \`npm run bench -- scale\` run${report.quick ? ' **at quick sizes (`BENCH_QUICK`)**' : ''}, ` +
      `started ${utcMinute(report.date)} and ${duration(report.durationMs)} long ` +
      `(departments of ${listing(settings.sizes.map(count))} employees, log hours of ` +
      `${listing(settings.logSizes.map(count))} lines): ${describeEnvironment(report)}` +
      `${load ? `; ${load}` : ''}. Every line of every chart and table comes from that run ` +
      `([\`${source}\`](${source})).`,
  );
}

/** The chart images of a scale report (`imgDir`: the folder from the Markdown file). */
function chartImages(report: BenchReport, imgDir: string, only?: RegExp): string {
  return Object.keys(scaleChartFiles(report))
    .filter((file) => !only || only.test(file))
    .map((file) => {
      const chart = /benchmarks-scale-(employee|logline)-(requests|ms)\.svg$/.exec(file);
      const what = chart?.[2] === 'ms' ? 'Wall time' : 'Storage requests';
      const per =
        chart?.[1] === 'logline'
          ? 'log line against the hour’s size'
          : 'employee against the department’s size';
      return `![${what} per ${per}](${imgDir}/${file})`;
    })
    .join('\n\n');
}

/** The README's scale part: the run, the requests charts. */
export function renderScaleReadme(report: BenchReport, source: string): string {
  return [scaleRunLine(report, source), chartImages(report, 'docs/img', /-requests\.svg$/)].join(
    '\n\n',
  );
}

/** docs/benchmarks.md's scale part: the run, every chart, the tables and the steps' notes. */
export function renderScaleDocs(report: BenchReport, source: string): string {
  return [
    scaleRunLine(report, source),
    chartImages(report, 'img'),
    scaleTables(scaleDataOf(report).steps),
  ].join('\n\n');
}

/** How a real-size run is asked for: the default size, or the flag that sets another. */
export function realSizeCommand(r: RealSizeReport): string {
  return r.employees === 20_000
    ? '`npm run bench:real-size`'
    : `\`npm run bench:real-size -- --employees ${r.employees}\``;
}

const num = (value: number | undefined): string => (value === undefined ? '?' : count(value));

/** The figures of one real-size run, by row. */
function realSizeCells(r: RealSizeReport): string[] {
  const f = r.figures;
  const per = msPerThousandRows(f);
  const ratio = per && per.first > 0 ? per.last / per.first : undefined;
  const drain = f.drain;
  const audit = f.audit;
  const logs = f.logs;
  const archive = f.archive;
  const verdicts = r.verdicts.map(realSizeVerdictOf);
  const failed = verdicts.filter((v) => v.verdict !== 'met');
  return [
    `${count(f.imported)} of ${count(f.employees)} in ${f.importCallMs.length} calls`,
    per
      ? `${duration(per.first)} → ${duration(per.last)}${ratio === undefined ? '' : ` (${figure(ratio)}×)`}`
      : 'no call',
    f.probeMs
      ? `${duration(f.probeMs.first)} → ${duration(f.probeMs.last)} (${figure(f.probeMs.last / f.probeMs.first)}×)`
      : 'not probed',
    drain === undefined
      ? 'not watched'
      : drain.convergedAfterMs === undefined
        ? `not converged ${duration(drain.watchedMs)} after the last call`
        : `${duration(drain.convergedAfterMs)} after the last call`,
    f.searchAllFoundAfterMs === undefined
      ? `${count(f.searchFound)} of ${count(f.searchExpected)} found, gave up`
      : `all ${count(f.searchExpected)} ${duration(f.searchAllFoundAfterMs)} after the last call`,
    audit === undefined
      ? 'not run'
      : `${audit.runtimeStatus}: checked ${num(audit.checked)}, missing ${num(audit.missing)}, stale ${num(audit.stale)}`,
    logs === undefined
      ? 'not run'
      : `${count(logs.read)} of ${count(logs.posted)} in ${logs.pages} pages, ${duration(logs.readMs)}: ${logs.problem ?? 'exact, in time order'}`,
    archive === undefined
      ? 'not run'
      : `${archive.runtimeStatus} in ${duration(archive.ms)}, ${archive.archived === undefined ? '?' : count(archive.archived)} archived` +
        (archive.archived && archive.ms > 0
          ? ` (${figure(archive.archived / (archive.ms / 1000))}/s)`
          : ''),
    `${tallyLine(tally(verdicts))}` +
      (failed.length ? ` (✗ ${failed.map((v) => v.text.split(':')[0]).join(', ')})` : ''),
  ];
}

const REAL_SIZE_ROWS = [
  'Employees imported',
  'Time per 1,000 rows, first → last call',
  'The emulator alone: 1,000 raw inserts into the partition, before → after',
  'Index drains converged (no outbox row, index queue empty)',
  'Org-wide search finds the shared name',
  'Index audit',
  'Log hour read back',
  'Department archive',
  'Goals',
];

/** The table of real-size runs (one column each) and the line dating each run. */
export function renderRealSize(
  runs: readonly RealSizeReport[],
  sources: readonly string[],
  options: { verdicts: boolean },
): string {
  if (runs.length === 0) return 'No real-size run is published yet.';
  const cells = runs.map(realSizeCells);
  const header = [
    '',
    ...runs.map((r) =>
      r.employees === 20_000
        ? `${count(r.employees)} employees`
        : `${count(r.employees)} employees (${realSizeCommand(r)})`,
    ),
  ];
  const parts = [
    table(
      header,
      REAL_SIZE_ROWS.map((row, i) => [row, ...cells.map((c) => c[i]!)]),
    ),
    bullets(
      runs.map((r, i) => {
        const load = describeLoad(r.loadAverage, r.loadAverageAtEnd);
        return (
          `${count(r.employees)} employees and a log hour of ${count(r.logLines)} lines: ` +
          `${realSizeCommand(r)} against \`npm start\`, started ${utcMinute(r.date)} and ` +
          `${duration(r.durationMs)} long; ${describeEnvironment(r)}${load ? `; ${load}` : ''} ` +
          `([\`${sources[i]}\`](${sources[i]}))`
        );
      }),
    ),
  ];
  if (options.verdicts)
    for (const r of runs)
      parts.push(
        `Goals at ${count(r.employees)} employees:`,
        table(
          ['Goal', 'Verdict', 'Measured', 'Why'],
          r.verdicts
            .map(realSizeVerdictOf)
            .map((v) => [v.text, `${MARK[v.verdict]} ${v.verdict}`, v.measured, v.why ?? '']),
        ),
      );
  return parts.join('\n\n');
}
