/**
 * The organisation case's figures (issue 45), pure: the sizes one run grows its organisation
 * through (`BENCH_ORG_SIZES`, `BENCH_ORG_DEPARTMENTS`), what it measured at each size, the goals
 * judged at every size, and its charts (requests and wall time per operation, creation rate,
 * against the number of departments; one account and two data accounts side by side when both
 * runs are given). The case (bench/cases/organisation.ts) measures; `npm run bench:report` draws.
 */
import { atMost, holds, judge, type GoalVerdict } from '../goals';
import { utcMinute } from '../report/markdown';
import type { ChartRun, ChartSeries, LineChart } from './chart';
import { parseSizeList } from './metrics';

/** A default run's sizes, as fractions of the largest (20,000: 2,000, 5,000, 10,000, 20,000). */
export const ORG_SIZE_FRACTIONS = [0.1, 0.25, 0.5, 1] as const;
const MAX_DEPARTMENTS = 10_000_000;

/**
 * The sizes (departments, ascending) one run measures at. `departments` (`BENCH_ORG_DEPARTMENTS`)
 * is the largest, `fallbackLargest` when unset; `sizes` (`BENCH_ORG_SIZES`, comma-separated) the
 * others, the largest added when missing; unset, {@link ORG_SIZE_FRACTIONS} of the largest. With
 * only `sizes` set, its largest is the organisation's.
 *
 * @throws {Error} naming the setting when a size is not a whole number in range, or a size is
 *   above `BENCH_ORG_DEPARTMENTS`.
 */
export function organisationSizes(
  raw: { sizes?: string; departments?: string },
  fallbackLargest: number,
): number[] {
  const given = raw.departments?.trim() ? raw.departments.trim() : undefined;
  const largest =
    given === undefined
      ? undefined
      : parseSizeList(given, 'BENCH_ORG_DEPARTMENTS', [], MAX_DEPARTMENTS);
  if (largest !== undefined && largest.length !== 1)
    throw new Error(`BENCH_ORG_DEPARTMENTS must be one whole number, got "${given}".`);
  const sizes = parseSizeList(raw.sizes, 'BENCH_ORG_SIZES', [], MAX_DEPARTMENTS);
  if (sizes.length === 0) {
    const top = largest?.[0] ?? fallbackLargest;
    return [...new Set(ORG_SIZE_FRACTIONS.map((f) => Math.max(1, Math.round(top * f))))];
  }
  if (largest === undefined) return sizes;
  const above = sizes.filter((size) => size > largest[0]!);
  if (above.length > 0)
    throw new Error(
      `BENCH_ORG_SIZES lists ${above.join(', ')}, above BENCH_ORG_DEPARTMENTS (${largest[0]}).`,
    );
  return [...new Set([...sizes, largest[0]!])];
}

/** Requests and wall time of one measured operation. */
export interface Cost {
  requests: number;
  ms: number;
}

/** What the case measured once the organisation had grown to `departments`. */
export interface OrganisationPoint {
  departments: number;
  /** The departments created since the previous size (all of them at the first), 8 at a time. */
  creation: Cost & { created: number };
  /** `GET /departments?pageSize=1000`: one page, `items` in it. */
  listing: Cost & { items: number };
  /** `GET /operations` with pending work in the last department of the list. */
  operations: Cost & { truncated: boolean; lastShown: boolean };
  idleSweep: Cost;
  /** A sweep with `pending` departments marked, and the outbox rows it drained. */
  busySweep: Cost & { pending: number; rows: number };
}

/** The case's `data` in a results file. */
export interface OrganisationData {
  /** Data accounts the departments were spread over (1: the home account alone). */
  accounts: number;
  sizes: number[];
  points: OrganisationPoint[];
}

/** Departments created per second at this size's step. */
export const creationRate = (p: OrganisationPoint): number =>
  p.creation.ms > 0 ? p.creation.created / (p.creation.ms / 1000) : 0;

/** Storage requests per department created at this size's step. */
export const requestsPerCreation = (p: OrganisationPoint): number =>
  p.creation.created > 0 ? p.creation.requests / p.creation.created : 0;

/** The issue's goals, judged at one size. */
export function organisationGoals(p: OrganisationPoint): {
  listing: GoalVerdict;
  operations: GoalVerdict;
  idleSweep: GoalVerdict;
} {
  return {
    listing: judge('a page of 1,000 departments in ≤ 5 storage requests', [
      atMost('requests', p.listing.requests, 5),
    ]),
    operations: judge('pending work at the end of the list shown, no truncation', [
      holds(`departmentsTruncated ${p.operations.truncated}`, !p.operations.truncated),
      holds(`last department shown: ${p.operations.lastShown}`, p.operations.lastShown),
    ]),
    idleSweep: judge('an idle sweep ≤ 50 storage requests', [
      atMost('requests', p.idleSweep.requests, 50),
    ]),
  };
}

/** One run for the charts: its data and when it ran. */
export interface OrganisationRun extends ChartRun {
  data: OrganisationData;
}

/** `one account`, `2 data accounts`. */
export const accountsLabel = (accounts: number): string =>
  accounts <= 1 ? 'one account' : `${accounts} data accounts`;

const OPERATIONS: { name: string; cost: (p: OrganisationPoint) => Cost }[] = [
  { name: 'listing page', cost: (p) => p.listing },
  { name: 'operations view', cost: (p) => p.operations },
  { name: 'idle sweep', cost: (p) => p.idleSweep },
  { name: 'sweep, 10 pending', cost: (p) => p.busySweep },
];

/**
 * The charts of one or more organisation runs (one account, two data accounts), by file name:
 * storage requests and wall time per operation against departments (a creation's requests
 * too), and the creation rate. Series of a run over several accounts are dashed and named so,
 * in the colour of the same operation on one account.
 */
export function organisationCharts(runs: readonly OrganisationRun[]): Record<string, LineChart> {
  if (runs.length === 0) return {};
  const sorted = [...runs].sort((a, b) => a.data.accounts - b.data.accounts);
  const commits = [...new Set(sorted.map((r) => r.commit?.slice(0, 7)).filter(Boolean))];
  // Several runs: their days (the docs give each run's minute), so the line fits the chart.
  const when =
    sorted.length === 1
      ? `${utcMinute(sorted[0]!.date)} (${accountsLabel(sorted[0]!.data.accounts)})`
      : [...new Set(sorted.map((r) => utcMinute(r.date).slice(0, 10)))].join(', ');
  const subtitle =
    `npm run bench -- organisation, ${when}` +
    (commits.length ? `, commit ${commits.join(', ')}` : '');
  const named = (run: OrganisationRun, name: string): string =>
    sorted.length > 1 || run.data.accounts > 1
      ? `${name}, ${run.data.accounts > 1 ? `${run.data.accounts} accounts` : '1 account'}`
      : name;
  const seriesOf = (
    lines: { name: string; y: (p: OrganisationPoint) => number }[],
  ): ChartSeries[] =>
    sorted.flatMap((run) =>
      lines.map((line, i) => ({
        name: named(run, line.name),
        dashed: run.data.accounts > 1,
        colour: i,
        points: run.data.points.map((p) => ({ x: p.departments, y: line.y(p) })),
      })),
    );
  const xLabel = 'departments in the organisation (log scale)';
  const common = { subtitle, xLabel, lowerBoundNote: false, width: 820, legendWidth: 260 };
  return {
    'benchmarks-organisation-requests.svg': {
      ...common,
      title: 'Storage requests per operation',
      yLabel: 'requests (log scale)',
      series: seriesOf([
        ...OPERATIONS.map((o) => ({
          name: o.name,
          y: (p: OrganisationPoint) => o.cost(p).requests,
        })),
        { name: 'creation (each)', y: requestsPerCreation },
      ]),
    },
    'benchmarks-organisation-ms.svg': {
      ...common,
      title: 'Wall time per operation on Azurite',
      yLabel: 'ms (log scale)',
      series: seriesOf(OPERATIONS.map((o) => ({ name: o.name, y: (p) => o.cost(p).ms }))),
    },
    'benchmarks-organisation-creation.svg': {
      ...common,
      title: 'Departments created per second (8 at a time)',
      yLabel: 'departments/s (log scale)',
      series: seriesOf([{ name: 'creation rate', y: creationRate }]),
    },
  };
}
