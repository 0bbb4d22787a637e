/**
 * `npm run bench:report`'s decisions: which results file is published where (a quick or partial
 * run never takes the full run's place), every generated section of the README and
 * docs/benchmarks.md filled from the published runs (or saying none is published), the scale
 * charts dated with their run, and the committed README, docs and charts being exactly what the
 * committed published runs give — a figure edited by hand, or a stale chart, fails here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchReport } from '../../../../bench/harness';
import { markers } from '../../../../bench/report/markdown';
import { publicationOf, renderDocuments, type Published } from '../../../../bench/report/render';
import type { RealSizeReport } from '../../../../bench/scale/realSizeReport';

const ROOT = path.resolve(__dirname, '../../../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/bench');
const read = <T>(file: string): T =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as T;

const SECTIONS = {
  readme: ['readme-run', 'readme-scale', 'readme-real-size', 'readme-organisation'],
  docs: ['docs-all', 'docs-scale', 'docs-real-size', 'docs-organisation'],
};
const template = (names: string[]): string =>
  names.map((name) => `## ${name}\n\n${markers(name).open}\n\n${markers(name).close}\n`).join('\n');
const current = { readme: template(SECTIONS.readme), docs: template(SECTIONS.docs) };

/** What lies between section `name`'s markers. */
function section(text: string, name: string): string {
  const { open, close } = markers(name);
  return text.slice(text.indexOf(open) + open.length, text.indexOf(close)).trim();
}

const published = (): Published => ({
  bench: { report: read<BenchReport>('results.json'), source: 'docs/results/bench.json' },
  scale: { report: read<BenchReport>('results-scale.json'), source: 'docs/results/scale.json' },
  realSize: [20_000, 50_000].map((n) => ({
    report: read<RealSizeReport>(`real-size-${n}.json`),
    source: `docs/results/real-size-${n}.json`,
  })),
  organisation: [
    {
      report: read<BenchReport>('results-organisation.json'),
      source: 'docs/results/organisation.json',
    },
  ],
});

/** The organisation fixture as if run over two data accounts. */
function overTwoAccounts(): BenchReport {
  const report = read<BenchReport>('results-organisation.json');
  return {
    ...report,
    cases: report.cases.map((c) => ({ ...c, data: { ...c.data, accounts: 2 } })),
  };
}

describe('publishing a results file', () => {
  it('puts a full run, a scale run and each real-size run in their own place', () => {
    expect(publicationOf(read('results.json'))).toEqual({ slot: 'bench', name: 'bench.json' });
    expect(publicationOf(read('results-scale.json'))).toEqual({
      slot: 'scale',
      name: 'scale.json',
    });
    expect(publicationOf(read('real-size-50000.json'))).toEqual({
      slot: 'realSize',
      name: 'real-size-50000.json',
    });
  });

  it('refuses a quick run, a partial run in the full run’s place, and anything else', () => {
    const full = read<BenchReport>('results.json');
    expect(publicationOf({ ...full, quick: true })).toEqual({
      refused: expect.stringMatching(/quick run/),
    });
    expect(publicationOf({ ...full, filters: ['platform'] })).toEqual({
      refused: expect.stringMatching(/only the cases matching platform/),
    });
    // Allowed on request, to try the report.
    expect(publicationOf({ ...full, quick: true }, true)).toEqual({
      slot: 'bench',
      name: 'bench.json',
    });
    const scale = read<BenchReport>('results-scale.json');
    const failedScale = {
      ...scale,
      cases: scale.cases.map((c) => ({ ...c, status: 'failed', error: 'Error: boom' })),
    };
    expect(publicationOf(failedScale)).toEqual({ refused: 'The scale case failed: Error: boom.' });
    expect(publicationOf({ kind: 'real-size', date: 'x' })).toEqual({
      refused: expect.stringMatching(/without its employees/),
    });
    expect(publicationOf([1, 2])).toEqual({ refused: expect.stringMatching(/no date/) });
  });

  it('puts an organisation run in its place by its accounts, refusing one without sizes', () => {
    const organisation = read<BenchReport>('results-organisation.json');
    expect(organisation.filters).toEqual(['organisation']);
    expect(publicationOf(organisation)).toEqual({
      slot: 'organisation',
      name: 'organisation.json',
    });
    expect(publicationOf(overTwoAccounts())).toEqual({
      slot: 'organisation',
      name: 'organisation-2-accounts.json',
    });
    // A run from before the case measured several sizes.
    const oneSize = {
      ...organisation,
      cases: organisation.cases.map((c) => ({ ...c, data: { departments: 20_000 } })),
    };
    expect(publicationOf(oneSize)).toEqual({
      refused: 'The organisation case left no sizes in its data.',
    });
    expect(publicationOf({ ...organisation, quick: true })).toEqual({
      refused: expect.stringMatching(/quick run/),
    });
  });
});

describe('rendering the documents', () => {
  const rendered = renderDocuments(published(), current);

  it('fills every section from its run', () => {
    expect(section(rendered.readme, 'readme-run')).toMatch(
      /^\*\*0 of 2 goals met, 0 missed, 2 not judged in this run\.\*\*\n\nOne run of `npm run bench`, started/,
    );
    expect(section(rendered.docs, 'docs-all')).toMatch(
      /^\*\*0 of 2 goals met, 0 missed, 2 not judged in this run\.\*\*\n\nEvery comparison of the run/,
    );
    expect(section(rendered.readme, 'readme-scale')).toMatch(
      /^From one `npm run bench -- scale` run, started 2026-11-28 00:12 UTC/,
    );
    expect(section(rendered.readme, 'readme-real-size')).toContain('| Department archive');
    expect(section(rendered.docs, 'docs-real-size')).toContain('Goals at 50,000 employees:');
  });

  it('shows the requests charts in the README and every chart and table in the docs', () => {
    const readme = section(rendered.readme, 'readme-scale');
    expect(readme).toContain(
      '![Storage requests per employee against the department’s size](docs/img/benchmarks-scale-employee-requests.svg)',
    );
    expect(readme).toContain('(docs/img/benchmarks-scale-logline-requests.svg)');
    expect(readme).not.toContain('-ms.svg');
    const docs = section(rendered.docs, 'docs-scale');
    for (const file of Object.keys(rendered.charts).filter((f) => f.includes('-scale-')))
      expect(docs).toContain(`(img/${file})`);
    expect(docs).toMatch(/\| archive +\| 46\.3 ms, 2\.21 req, 4\.44 ent \|/);
    expect(docs).toContain('timed out at 250: ≥ 17.9 ms, 1.20 req');
    expect(docs).toContain('- import at 100: 1 calls; first 1617 ms, last 1617 ms');
  });

  it('draws the scale and organisation charts of the published runs, dated with them', () => {
    expect(Object.keys(rendered.charts).sort()).toEqual([
      'benchmarks-organisation-creation.svg',
      'benchmarks-organisation-ms.svg',
      'benchmarks-organisation-requests.svg',
      'benchmarks-scale-employee-ms.svg',
      'benchmarks-scale-employee-requests.svg',
      'benchmarks-scale-logline-ms.svg',
      'benchmarks-scale-logline-requests.svg',
    ]);
    for (const [file, svg] of Object.entries(rendered.charts))
      expect(svg).toContain(
        file.includes('organisation')
          ? 'npm run bench -- organisation, 2026-12-07 18:50 UTC (one account), commit 8d1949f'
          : 'npm run bench -- scale, 2026-11-28 00:12 UTC, commit c75868f',
      );
  });

  it('shows the organisation runs as a table per run, one column per size, goals marked', () => {
    const docs = section(rendered.docs, 'docs-organisation');
    expect(docs).toMatch(/^\| one account: departments +\| 50 +\| 200 +\|/);
    expect(docs).toMatch(
      /\| a listing page of 1,000 with counts \(goal ≤ 5 req\) +\| 1 req, 207 ms ✔ +\|/,
    );
    expect(docs.replace(/\s+/g, ' ')).toContain('6 of 6 goals met, 0 missed, 0 not judged');
    expect(docs).toContain('(img/benchmarks-organisation-ms.svg)');
    const readme = section(rendered.readme, 'readme-organisation');
    expect(readme).toContain('(docs/img/benchmarks-organisation-requests.svg)');
    expect(readme).toContain(
      '([`docs/results/organisation.json`](docs/results/organisation.json))',
    );
    expect(readme).not.toContain('-ms.svg');
    const both = renderDocuments(
      {
        ...published(),
        organisation: [
          { report: overTwoAccounts(), source: 'docs/results/organisation-2-accounts.json' },
          ...published().organisation!,
        ],
      },
      current,
    );
    const twoTables = section(both.docs, 'docs-organisation');
    // One account first, whatever the order given.
    expect(twoTables.indexOf('| one account:')).toBeLessThan(
      twoTables.indexOf('| 2 data accounts:'),
    );
    expect(both.charts['benchmarks-organisation-requests.svg']).toContain('idle sweep, 2 accounts');
  });

  it('says what is not published yet instead of showing old figures', () => {
    const empty = renderDocuments({ realSize: [] }, current);
    expect(section(empty.readme, 'readme-run')).toBe(
      'No full run is published yet: run `npm run bench`, then `npm run bench:report`.',
    );
    expect(section(empty.docs, 'docs-scale')).toMatch(/^No scale run is published yet/);
    expect(section(empty.readme, 'readme-real-size')).toBe('No real-size run is published yet.');
    expect(section(empty.docs, 'docs-organisation')).toMatch(/^No organisation run is published/);
    expect(empty.charts).toEqual({});
  });

  it('gives the same documents when rendered again', () => {
    expect(renderDocuments(published(), rendered)).toEqual(rendered);
  });
});

describe('the committed README, docs and charts', () => {
  it('are what the published runs give (npm run bench:report -- --check, in its own process)', () => {
    // Its own process: the check formats with Prettier, whose ESM parts jest cannot load.
    const check = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', 'bench/report.ts', '--check'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(`${check.stdout}${check.stderr}`).toContain('Up to date.');
    expect(check.status).toBe(0);
  });
});
