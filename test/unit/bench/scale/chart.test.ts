/**
 * The scale chart: log scales and ticks, tick labels, the SVG document (one line per step, raw
 * steps dashed, timed-out points hollow, dated) and the charts built from one run's step results:
 * one per unit and figure, each dated with the run, the same bytes from the same run.
 */
import {
  escapeXml,
  formatTick,
  logDomain,
  logScale,
  logTicks,
  renderLineChart,
  scaleCharts,
} from '../../../../bench/scale/chart';
import { stepResult, type StepResult } from '../../../../bench/scale/metrics';

describe('log scales', () => {
  it('maps each decade to the same distance', () => {
    const x = logScale([1_000, 100_000], [0, 200]);
    expect(x(1_000)).toBe(0);
    expect(x(10_000)).toBeCloseTo(100);
    expect(x(100_000)).toBeCloseTo(200);
    expect(x(20_000)).toBeCloseTo(100 + 100 * Math.log10(2));
  });

  it('runs a range backwards (y grows downwards in SVG)', () => {
    const y = logScale([0.01, 1], [400, 0]);
    expect(y(0.01)).toBe(400);
    expect(y(0.1)).toBeCloseTo(200);
    expect(y(1)).toBeCloseTo(0);
  });

  it('puts a one-point domain in the middle and refuses a domain that is not positive', () => {
    expect(logScale([5, 5], [0, 100])(5)).toBe(50);
    expect(() => logScale([0, 10], [0, 1])).toThrow(RangeError);
  });

  it('widens the data to whole decades', () => {
    expect(logDomain([1_000, 5_000, 20_000])).toEqual([1_000, 100_000]);
    expect(logDomain([0.0213, 0.35])).toEqual([0.01, 1]);
    expect(logDomain([1_000])).toEqual([1_000, 10_000]);
    expect(logDomain([0, -1, NaN])).toEqual([1, 10]);
  });

  it('ticks the decades, with 2 and 5 between them when the axis spans few decades', () => {
    expect(logTicks(1_000, 100_000)).toEqual([
      1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
    ]);
    expect(logTicks(0.001, 100)).toEqual([0.001, 0.01, 0.1, 1, 10, 100]);
  });

  it('labels ticks briefly', () => {
    expect([20_000, 1_000, 1_500_000, 0.05, 2, 0.0001].map(formatTick)).toEqual([
      '20k',
      '1k',
      '1.5M',
      '0.05',
      '2',
      '1e-4',
    ]);
  });
});

describe('the SVG document', () => {
  const svg = renderLineChart({
    title: 'Requests per employee <log>',
    xLabel: 'employees',
    yLabel: 'requests',
    series: [
      {
        name: 'import',
        points: [
          { x: 20_000, y: 0.2, lowerBound: true },
          { x: 1_000, y: 0.1 },
        ],
      },
      { name: 'raw list (SDK range)', dashed: true, points: [{ x: 1_000, y: 0.001 }] },
      { name: 'nothing measured', points: [{ x: 1_000, y: 0 }] },
    ],
  });

  it('is one well-formed svg element with escaped text', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Requests per employee &lt;log&gt;');
    expect(svg).not.toContain('<log>');
  });

  it('draws one line per series through its points in size order, raw ones dashed', () => {
    const polylines = [...svg.matchAll(/<polyline points="([^"]+)"[^>]*>/g)];
    expect(polylines).toHaveLength(1);
    const [first, second] = polylines[0]![1]!.split(' ').map((p) => Number(p.split(',')[0]));
    expect(first!).toBeLessThan(second!);
    expect(svg).toMatch(
      /<line [^>]*stroke-dasharray="6 4"\/>\s*<text [^>]*>raw list \(SDK range\)<\/text>/,
    );
  });

  it('marks a timed-out point hollow as a lower bound, and leaves out values of zero', () => {
    expect(svg).toContain('<title>import at 20000: ≥ 0.2</title>');
    expect(svg).toMatch(/fill="#ffffff"[^>]*><title>import at 20000/);
    expect(svg).toContain('<title>import at 1000: 0.1</title>');
    expect(svg).not.toContain('nothing measured at');
  });

  it('escapes the five XML-sensitive characters it may meet', () => {
    expect(escapeXml(`a<b>&"c"`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
  });
});

describe('the scale charts', () => {
  const run = { date: '2026-11-28T10:05:00.000Z', commit: 'c75868f0123456789' };
  const result = (
    step: string,
    size: number,
    status: StepResult['status'],
    requests: number,
    raw = false,
    unit: StepResult['unit'] = 'employee',
  ): StepResult =>
    stepResult({
      step,
      size,
      unit,
      units: size,
      status,
      wallMs: size,
      requests,
      entities: 0,
      bytes: 0,
      raw,
    });
  const results = [
    result('log read', 10_000, 'ok', 10, false, 'log line'),
    result('log read', 50_000, 'ok', 50, false, 'log line'),
    result('import', 1_000, 'ok', 100),
    result('import', 20_000, 'timedOut', 4_000),
    result('archive', 1_000, 'ok', 17_000),
    result('archive', 20_000, 'skipped', 0),
    result('raw list (SDK range)', 1_000, 'ok', 1, true),
  ];

  it('draws one chart per unit and figure: per employee against department size, per log line against log size', () => {
    const charts = scaleCharts(results, run);
    expect(Object.keys(charts)).toEqual([
      'benchmarks-scale-employee-requests.svg',
      'benchmarks-scale-employee-ms.svg',
      'benchmarks-scale-logline-requests.svg',
      'benchmarks-scale-logline-ms.svg',
    ]);
    const requests = charts['benchmarks-scale-employee-requests.svg']!;
    expect(requests.title).toBe('Storage requests per employee');
    expect(requests.xLabel).toBe('employees in the department (log scale)');
    // No log step on the employee chart, no employee step on the log line chart.
    expect(requests.series.map((s) => [s.name, s.dashed])).toEqual([
      ['import', false],
      ['archive', false],
      ['raw list (SDK range)', true],
    ]);
    expect(requests.series[0]!.points).toEqual([
      { x: 1_000, y: 0.1, lowerBound: false },
      { x: 20_000, y: 0.2, lowerBound: true },
    ]);
    // A skipped step has no point.
    expect(requests.series[1]!.points).toEqual([{ x: 1_000, y: 17, lowerBound: false }]);
    expect(charts['benchmarks-scale-employee-ms.svg']!.series[0]!.points[0]).toEqual({
      x: 1_000,
      y: 1,
      lowerBound: false,
    });
    const lines = charts['benchmarks-scale-logline-requests.svg']!;
    expect(lines.xLabel).toBe('log lines in the hour (log scale)');
    expect(lines.series.map((s) => s.name)).toEqual(['log read']);
    expect(lines.series[0]!.points.map((p) => p.y)).toEqual([0.001, 0.001]);
  });

  it('dates every chart with the run it comes from', () => {
    for (const chart of Object.values(scaleCharts(results, run))) {
      expect(chart.subtitle).toBe('npm run bench -- scale, 2026-11-28 10:05 UTC, commit c75868f');
      expect(renderLineChart(chart)).toContain(
        '>npm run bench -- scale, 2026-11-28 10:05 UTC, commit c75868f</text>',
      );
    }
  });

  it('leaves out a unit the run did not measure', () => {
    const employeesOnly = results.filter((r) => r.unit === 'employee');
    expect(Object.keys(scaleCharts(employeesOnly, run))).toEqual([
      'benchmarks-scale-employee-requests.svg',
      'benchmarks-scale-employee-ms.svg',
    ]);
  });

  it('gives the same SVG for the same run', () => {
    const render = () =>
      Object.values(scaleCharts(results, run)).map((chart) => renderLineChart(chart));
    expect(render()).toEqual(render());
  });
});
