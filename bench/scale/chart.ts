/**
 * A small SVG line chart for the scale case: cost per row (y, log scale) against size (x, log
 * scale), one line per step, one chart per unit (employee, log line) and figure (requests, ms),
 * dated with the run it comes from. Hand-written SVG (no dependency): scales, ticks and the
 * document are pure functions of their input (the same run always gives the same bytes),
 * unit-tested.
 */
import { utcMinute } from '../report/markdown';
import type { StepResult } from './metrics';

/** A mapping from data values to pixels. */
export interface Scale {
  (value: number): number;
  domain: readonly [number, number];
  range: readonly [number, number];
}

/**
 * A base-10 logarithmic scale mapping `[d0, d1]` onto `[r0, r1]`. A one-point domain maps to the
 * middle of the range.
 *
 * @throws {RangeError} when a domain end is not positive.
 */
export function logScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): Scale {
  const [d0, d1] = domain;
  if (!(d0 > 0 && d1 > 0))
    throw new RangeError(`A log scale needs a positive domain, got [${d0}, ${d1}].`);
  const [r0, r1] = range;
  const l0 = Math.log10(d0);
  const span = Math.log10(d1) - l0;
  const scale = ((value: number) =>
    span === 0 ? (r0 + r1) / 2 : r0 + ((Math.log10(value) - l0) / span) * (r1 - r0)) as Scale;
  scale.domain = domain;
  scale.range = range;
  return scale;
}

/**
 * The domain a log axis shows for `values`: out to whole powers of ten around the positive ones
 * (`[1, 10]` when there are none).
 */
export function logDomain(values: readonly number[]): [number, number] {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return [1, 10];
  const lo = 10 ** Math.floor(Math.log10(Math.min(...positive)));
  let hi = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
  if (hi <= lo) hi = lo * 10;
  return [lo, hi];
}

/**
 * Ticks of a log axis over `[lo, hi]`: the powers of ten, and 2 and 5 times them when the domain
 * spans at most `denseDecades` decades.
 */
export function logTicks(lo: number, hi: number, denseDecades = 2): number[] {
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  const dense = last - first <= denseDecades;
  const ticks: number[] = [];
  for (let e = first; e <= last; e++) {
    for (const m of dense ? [1, 2, 5] : [1]) {
      const tick = Number((m * 10 ** e).toPrecision(12));
      if (tick >= lo * (1 - 1e-9) && tick <= hi * (1 + 1e-9)) ticks.push(tick);
    }
  }
  return ticks;
}

/** A tick label: `20k`, `1M`, `0.05`, `1e-4`. */
export function formatTick(value: number): string {
  if (value >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (value >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  if (value >= 1e-3) return String(Number(value.toPrecision(3)));
  return value.toExponential(0);
}

/** One point: `lowerBound` when the step timed out (the real cost is at least this). */
export interface ChartPoint {
  x: number;
  y: number;
  lowerBound?: boolean;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
  /** Drawn dashed (the raw-SDK measurements). */
  dashed?: boolean;
  /** Its colour's place in the palette, to share one between series (default its own place). */
  colour?: number;
}

export interface LineChart {
  title: string;
  /** A second line under the title: which run the figures come from. */
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  width?: number;
  height?: number;
  /** Room on the right for the legend (default 230). */
  legendWidth?: number;
  /** The legend's "timed out: at least" line (default shown; off where nothing can time out). */
  lowerBoundNote?: boolean;
}

/** Escapes text for SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Colours that stay apart for the colour-blind (Okabe–Ito without its yellow, then Tol's muted). */
const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#D55E00',
  '#CC79A7',
  '#56B4E9',
  '#000000',
  '#882255',
  '#44AA99',
  '#999933',
  '#332288',
  '#888888',
];

const round1 = (value: number): string => (Math.round(value * 10) / 10).toString();

/**
 * The chart as an SVG document: log-log axes with grid lines, one polyline per series (points
 * with a y ≤ 0 left out), filled markers for measured points and hollow ones for lower bounds
 * (a timed-out step), a legend on the right.
 */
export function renderLineChart(chart: LineChart): string {
  const width = chart.width ?? 760;
  const height = chart.height ?? 420;
  const margin = {
    top: chart.subtitle ? 56 : 40,
    right: chart.legendWidth ?? 230,
    bottom: 50,
    left: 70,
  };
  const plotted = chart.series.map((s) => ({
    ...s,
    points: s.points
      .filter((p) => p.x > 0 && p.y > 0 && Number.isFinite(p.y))
      .sort((a, b) => a.x - b.x),
  }));
  const all = plotted.flatMap((s) => s.points);
  const x = logScale(logDomain(all.map((p) => p.x)), [margin.left, width - margin.right]);
  const y = logScale(logDomain(all.map((p) => p.y)), [height - margin.bottom, margin.top]);
  const titleX = width / 2 - margin.right / 2 + margin.left / 2;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${titleX}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
  ];
  if (chart.subtitle)
    out.push(
      `<text x="${titleX}" y="40" text-anchor="middle" fill="#555">${escapeXml(chart.subtitle)}</text>`,
    );
  const plot: Plot = {
    x,
    y,
    top: margin.top,
    bottom: height - margin.bottom,
    left: margin.left,
    right: width - margin.right,
  };
  const { top, right } = plot;
  out.push(...axes(chart, plot, height));
  plotted.forEach((series, i) => out.push(...seriesLines(series, i, plot)));
  const noteY = top + 8 + plotted.length * 20 + 10;
  if (chart.lowerBoundNote !== false)
    out.push(
      `<circle cx="${right + 28}" cy="${noteY}" r="4" fill="#ffffff" stroke="#333" stroke-width="2"/>`,
      `<text x="${right + 46}" y="${noteY}" dominant-baseline="middle">timed out: at least</text>`,
    );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The plot area of a chart: its scales and edges (px). */
interface Plot {
  x: Scale;
  y: Scale;
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The grid lines and ticks of both log axes, the frame, and the axis labels. */
function axes(chart: LineChart, plot: Plot, height: number): string[] {
  const { x, y, top, bottom, left, right } = plot;
  const out: string[] = [];
  for (const tick of logTicks(...x.domain)) {
    const px = round1(x(tick));
    out.push(
      `<line x1="${px}" y1="${top}" x2="${px}" y2="${bottom}" stroke="#e5e5e5"/>`,
      `<text x="${px}" y="${bottom + 16}" text-anchor="middle">${formatTick(tick)}</text>`,
    );
  }
  for (const tick of logTicks(...y.domain)) {
    const py = round1(y(tick));
    out.push(
      `<line x1="${left}" y1="${py}" x2="${right}" y2="${py}" stroke="#e5e5e5"/>`,
      `<text x="${left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${formatTick(tick)}</text>`,
    );
  }
  out.push(
    `<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#333"/>`,
    `<text x="${(left + right) / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(16 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  return out;
}

/** The `i`th series: its polyline, a marker per point (hollow: a lower bound), its legend entry. */
function seriesLines(series: ChartSeries, i: number, plot: Plot): string[] {
  const { x, y, top, right } = plot;
  const colour = PALETTE[(series.colour ?? i) % PALETTE.length]!;
  const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
  const coords = series.points.map((p) => `${round1(x(p.x))},${round1(y(p.y))}`);
  const out = [`<g data-series="${escapeXml(series.name)}">`];
  if (coords.length > 1)
    out.push(
      `<polyline points="${coords.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`,
    );
  for (const p of series.points) {
    const fill = p.lowerBound ? '#ffffff' : colour;
    out.push(
      `<circle cx="${round1(x(p.x))}" cy="${round1(y(p.y))}" r="4" fill="${fill}" stroke="${colour}" stroke-width="2"><title>${escapeXml(
        `${series.name} at ${p.x}: ${p.lowerBound ? '≥ ' : ''}${Number(p.y.toPrecision(3))}`,
      )}</title></circle>`,
    );
  }
  const ly = top + 8 + i * 20;
  out.push(
    `<line x1="${right + 16}" y1="${ly}" x2="${right + 40}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`,
    `<text x="${right + 46}" y="${ly}" dominant-baseline="middle">${escapeXml(series.name)}</text>`,
    '</g>',
  );
  return out;
}

/** Which run a chart's figures come from, as the chart says it. */
export interface ChartRun {
  /** When the run started (ISO 8601). */
  date: string;
  /** The commit it measured, when known. */
  commit?: string;
}

/** The units the scale case measures, with the file-name part and the x axis of each. */
const UNITS: { unit: StepResult['unit']; slug: string; per: string; xLabel: string }[] = [
  {
    unit: 'employee',
    slug: 'employee',
    per: 'employee',
    xLabel: 'employees in the department (log scale)',
  },
  {
    unit: 'log line',
    slug: 'logline',
    per: 'log line',
    xLabel: 'log lines in the hour (log scale)',
  },
];

/**
 * The scale case's charts, by file name: for each unit it measured (per employee against the
 * department's size; per log line against the hour's size) one chart of storage requests and one
 * of wall time per row, one series per step (raw-SDK steps dashed), each dated with `run`. A
 * timed-out step is a lower bound (its cost so far over the rows it covered); failed and skipped
 * steps are left out. Every line comes from the same run.
 */
export function scaleCharts(
  results: readonly StepResult[],
  run: ChartRun,
): Record<string, LineChart> {
  const subtitle = `npm run bench -- scale, ${utcMinute(run.date)}${run.commit ? `, commit ${run.commit.slice(0, 7)}` : ''}`;
  const charts: Record<string, LineChart> = {};
  for (const { unit, slug, per, xLabel } of UNITS) {
    const ofUnit = results.filter((r) => r.unit === unit);
    if (ofUnit.length === 0) continue;
    const steps = [...new Set(ofUnit.map((r) => r.step))];
    const seriesOf = (value: (r: StepResult) => number | null): ChartSeries[] =>
      steps.map((step) => {
        const ofStep = ofUnit.filter((r) => r.step === step);
        return {
          name: step,
          dashed: ofStep.some((r) => r.raw),
          points: ofStep
            .filter((r) => r.status === 'ok' || r.status === 'timedOut')
            .map((r) => ({ x: r.size, y: value(r) ?? 0, lowerBound: r.status === 'timedOut' })),
        };
      });
    charts[`benchmarks-scale-${slug}-requests.svg`] = {
      title: `Storage requests per ${per}`,
      subtitle,
      xLabel,
      yLabel: `requests per ${per} (log scale)`,
      series: seriesOf((r) => r.requestsPerUnit),
    };
    charts[`benchmarks-scale-${slug}-ms.svg`] = {
      title: `Wall time per ${per} on Azurite`,
      subtitle,
      xLabel,
      yLabel: `ms per ${per} (log scale)`,
      series: seriesOf((r) => r.msPerUnit),
    };
  }
  return charts;
}
