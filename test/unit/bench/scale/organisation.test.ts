/**
 * The organisation case's figures (issue 45): the sizes a run grows through (defaults, settings,
 * refusals), the goals judged at each size, the rate and requests per creation, and the charts
 * (one account and two data accounts side by side, dated, the same bytes from the same runs).
 */
import { renderLineChart } from '../../../../bench/scale/chart';
import {
  creationRate,
  organisationCharts,
  organisationGoals,
  organisationSizes,
  requestsPerCreation,
  type OrganisationData,
  type OrganisationPoint,
  type OrganisationRun,
} from '../../../../bench/scale/organisation';

describe('the sizes one organisation grows through', () => {
  it('is a tenth, a quarter, half and all of the largest by default', () => {
    expect(organisationSizes({}, 20_000)).toEqual([2_000, 5_000, 10_000, 20_000]);
    expect(organisationSizes({ departments: '3000' }, 20_000)).toEqual([300, 750, 1_500, 3_000]);
    expect(organisationSizes({ sizes: ' ', departments: '' }, 2_000)).toEqual([
      200, 500, 1_000, 2_000,
    ]);
  });

  it('never gives a size of 0 or the same size twice', () => {
    expect(organisationSizes({ departments: '3' }, 20_000)).toEqual([1, 2, 3]);
  });

  it('takes the sizes listed, the largest added when BENCH_ORG_DEPARTMENTS is above them', () => {
    expect(organisationSizes({ sizes: '5000,1000' }, 20_000)).toEqual([1_000, 5_000]);
    expect(organisationSizes({ sizes: '1000,5000', departments: '8000' }, 20_000)).toEqual([
      1_000, 5_000, 8_000,
    ]);
    expect(organisationSizes({ sizes: '1000,8000', departments: '8000' }, 20_000)).toEqual([
      1_000, 8_000,
    ]);
  });

  it('refuses a size that is not a whole number, or above BENCH_ORG_DEPARTMENTS', () => {
    expect(() => organisationSizes({ sizes: '1000,abc' }, 20_000)).toThrow(
      /BENCH_ORG_SIZES must list whole numbers in 1\.\.10000000, got "abc"/,
    );
    expect(() => organisationSizes({ departments: '0' }, 20_000)).toThrow(/BENCH_ORG_DEPARTMENTS/);
    expect(() => organisationSizes({ departments: '1000,2000' }, 20_000)).toThrow(
      'BENCH_ORG_DEPARTMENTS must be one whole number, got "1000,2000".',
    );
    expect(() => organisationSizes({ sizes: '1000,9000', departments: '5000' }, 20_000)).toThrow(
      'BENCH_ORG_SIZES lists 9000, above BENCH_ORG_DEPARTMENTS (5000).',
    );
  });
});

const point = (
  departments: number,
  changes: Partial<OrganisationPoint> = {},
): OrganisationPoint => ({
  departments,
  creation: { created: 2_000, ms: 16_000, requests: 8_000 },
  listing: { requests: 1, ms: 130, items: 1_000 },
  operations: { requests: 9, ms: 57, truncated: false, lastShown: true },
  idleSweep: { requests: 1, ms: 5 },
  busySweep: { requests: 171, ms: 383, pending: 10, rows: 10 },
  ...changes,
});

describe('the figures at one size', () => {
  it('gives the creation rate and requests per department of its step', () => {
    expect(creationRate(point(2_000))).toBe(125);
    expect(requestsPerCreation(point(2_000))).toBe(4);
    const none = point(2_000, { creation: { created: 0, ms: 0, requests: 0 } });
    expect([creationRate(none), requestsPerCreation(none)]).toEqual([0, 0]);
  });

  it('meets the goals when a page and the idle sweep stay small and the view shows the last', () => {
    const goals = organisationGoals(point(20_000));
    expect(Object.values(goals).map((g) => g.verdict)).toEqual(['met', 'met', 'met']);
    expect(goals.idleSweep.measured).toBe('requests 1');
  });

  it('misses each goal on its own figure', () => {
    const goals = organisationGoals(
      point(20_000, {
        listing: { requests: 6, ms: 1, items: 1_000 },
        operations: { requests: 9, ms: 1, truncated: true, lastShown: false },
        idleSweep: { requests: 51, ms: 1 },
      }),
    );
    expect(goals.listing).toMatchObject({ verdict: 'missed', why: 'requests 6, above 5' });
    expect(goals.operations).toMatchObject({
      verdict: 'missed',
      why: 'departmentsTruncated true; last department shown: false',
    });
    expect(goals.idleSweep).toMatchObject({ verdict: 'missed', why: 'requests 51, above 50' });
  });
});

const run = (accounts: number, date: string): OrganisationRun => {
  const data: OrganisationData = {
    accounts,
    sizes: [2_000, 20_000],
    points: [
      point(2_000),
      point(20_000, { busySweep: { requests: 0, ms: 0, pending: 0, rows: 0 } }),
    ],
  };
  return { date, commit: '8d1949fa57ae2b5683959ea34cf4ba00f97e650e', data };
};

describe('the organisation charts', () => {
  it('draws requests, wall time and creation rate against departments, dated with the run', () => {
    const charts = organisationCharts([run(1, '2026-12-07T19:00:00Z')]);
    expect(Object.keys(charts)).toEqual([
      'benchmarks-organisation-requests.svg',
      'benchmarks-organisation-ms.svg',
      'benchmarks-organisation-creation.svg',
    ]);
    const requests = charts['benchmarks-organisation-requests.svg']!;
    expect(requests.subtitle).toBe(
      'npm run bench -- organisation, 2026-12-07 19:00 UTC (one account), commit 8d1949f',
    );
    expect(requests.series.map((s) => s.name)).toEqual([
      'listing page',
      'operations view',
      'idle sweep',
      'sweep, 10 pending',
      'creation (each)',
    ]);
    expect(requests.series[3]!.points).toEqual([
      { x: 2_000, y: 171 },
      { x: 20_000, y: 0 },
    ]);
    expect(charts['benchmarks-organisation-creation.svg']!.series[0]!.points[0]).toEqual({
      x: 2_000,
      y: 125,
    });
    expect(organisationCharts([])).toEqual({});
  });

  it('puts two data accounts beside one account, dashed and named, one account first', () => {
    const charts = organisationCharts([
      run(2, '2026-12-07T19:30:00Z'),
      run(1, '2026-12-07T19:00:00Z'),
    ]);
    const ms = charts['benchmarks-organisation-ms.svg']!;
    expect(ms.subtitle).toBe('npm run bench -- organisation, 2026-12-07, commit 8d1949f');
    expect(ms.series.map((s) => [s.name, s.dashed, s.colour])).toEqual([
      ['listing page, 1 account', false, 0],
      ['operations view, 1 account', false, 1],
      ['idle sweep, 1 account', false, 2],
      ['sweep, 10 pending, 1 account', false, 3],
      ['listing page, 2 accounts', true, 0],
      ['operations view, 2 accounts', true, 1],
      ['idle sweep, 2 accounts', true, 2],
      ['sweep, 10 pending, 2 accounts', true, 3],
    ]);
    // One operation, one colour, whichever the run.
    const svg = renderLineChart(ms);
    const colourOf = (name: string): string | undefined =>
      new RegExp(`data-series="${name}">\\n<polyline [^>]*stroke="(#[0-9A-F]+)"`).exec(svg)?.[1];
    expect(colourOf('idle sweep, 2 accounts')).toBe(colourOf('idle sweep, 1 account'));
    expect(colourOf('idle sweep, 2 accounts')).not.toBe(colourOf('listing page, 2 accounts'));
  });

  it('renders without the timed-out note (nothing here times out), the same bytes each time', () => {
    const charts = organisationCharts([run(1, '2026-12-07T19:00:00Z')]);
    const svg = renderLineChart(charts['benchmarks-organisation-requests.svg']!);
    expect(svg).not.toContain('timed out');
    expect(svg).toContain('width="820"');
    expect(svg).toContain('<title>sweep, 10 pending at 2000: 171</title>');
    expect(svg).not.toContain('sweep, 10 pending at 20000');
    expect(renderLineChart(charts['benchmarks-organisation-requests.svg']!)).toBe(svg);
    const scaleLike = renderLineChart({
      ...charts['benchmarks-organisation-requests.svg']!,
      lowerBoundNote: undefined,
    });
    expect(scaleLike).toContain('timed out: at least');
  });
});
