/**
 * The real-size runs as the README and docs show them: one column per run (the 50,000 run named
 * with its flag), time per 1,000 rows first and last, drain convergence, search, audit, log hour,
 * archive and its rate, the goals; and the results file the scenario writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderRealSize } from '../../../../bench/report/atSize';
import { parseRealSizeArgs, realSizeVerdictOf } from '../../../../bench/scale/goals';
import {
  buildRealSizeReport,
  msPerThousandRows,
  type RealSizeReport,
} from '../../../../bench/scale/realSizeReport';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/bench');
const read = (file: string): RealSizeReport =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as RealSizeReport;
const runs = [read('real-size-20000.json'), read('real-size-50000.json')];
const sources = ['docs/results/real-size-20000.json', 'docs/results/real-size-50000.json'];

/** The cells of the table row whose first cell is `name`. */
function row(markdown: string, name: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${name} `));
  if (!line) throw new Error(`No row "${name}" in:\n${markdown}`);
  return line
    .slice(1, -1)
    .split(' | ')
    .map((cell) => cell.trim());
}

describe('the real-size table', () => {
  const markdown = renderRealSize(runs, sources, { verdicts: true });

  it('has a column per run, the larger one named with the flag that asks for it', () => {
    expect(row(markdown, '')).toEqual([
      '',
      '20,000 employees',
      '50,000 employees (`npm run bench:real-size -- --employees 50000`)',
    ]);
  });

  it('shows what each run measured', () => {
    expect(row(markdown, 'Employees imported').slice(1)).toEqual([
      '20,000 of 20,000 in 20 calls',
      '50,000 of 50,000 in 50 calls',
    ]);
    // The last call of the 50,000 run had 500 rows: 2.0 s is 4.0 s per 1,000.
    expect(row(markdown, 'Time per 1,000 rows, first → last call').slice(1)).toEqual([
      '1.50 s → 2.90 s (1.93×)',
      '1.60 s → 4.00 s (2.50×)',
    ]);
    expect(
      row(markdown, 'The emulator alone: 1,000 raw inserts into the partition, before → after'),
    ).toEqual(expect.arrayContaining(['311 ms → 402 ms (1.30×)', 'not probed']));
    expect(
      row(markdown, 'Index drains converged (no outbox row, index queue empty)').slice(1),
    ).toEqual(['35.5 s after the last call', 'not converged 1,800 s after the last call']);
    expect(row(markdown, 'Org-wide search finds the shared name').slice(1)).toEqual([
      'all 5,000 41.0 s after the last call',
      '11,000 of 12,500 found, gave up',
    ]);
    expect(row(markdown, 'Index audit')[1]).toBe('Completed: checked 80,000, missing 0, stale 0');
    expect(row(markdown, 'Log hour read back')[1]).toBe(
      '150,000 of 150,000 in 30 pages, 9.00 s: exact, in time order',
    );
    expect(row(markdown, 'Department archive').slice(1)).toEqual([
      'Completed in 300 s, 20,000 archived (66.7/s)',
      'Completed in 900 s, 50,000 archived (55.6/s)',
    ]);
    expect(row(markdown, 'Goals').slice(1)).toEqual([
      '6 of 6 goals met, 0 missed, 0 not judged',
      '4 of 6 goals met, 2 missed, 0 not judged (✗ search, archive)',
    ]);
  });

  it('dates each run with its machine, emulator and commit, and links its file', () => {
    const flat = markdown.replace(/\n\s*/g, ' ');
    expect(flat).toContain(
      '- 20,000 employees and a log hour of 150,000 lines: `npm run bench:real-size` against `npm start`, started 2026-11-28 11:00 UTC and 1,800 s long; 2 cores',
    );
    expect(flat).toContain('Azurite 3.37.0 in memory, with the project’s table-store patch');
    expect(flat).toContain(
      '([`docs/results/real-size-50000.json`](docs/results/real-size-50000.json))',
    );
  });

  it('gives each run its verdicts when asked (the docs), not otherwise (the README)', () => {
    const larger = markdown.split('Goals at 50,000 employees:')[1]!;
    expect(row(markdown, 'archive: the department within 360.0 s')[1]).toBe('✔ met');
    // A file from before the common verdict shape: its judgement kept, its measure as the why.
    expect(row(larger, 'archive: the department within 360.0 s')).toEqual([
      'archive: the department within 360.0 s',
      '✗ missed',
      'Completed in 900.0 s, archived 50000',
      'Completed in 900.0 s, archived 50000',
    ]);
    expect(renderRealSize(runs, sources, { verdicts: false })).not.toContain('Goals at');
  });

  it('says so when no run is published', () => {
    expect(renderRealSize([], [], { verdicts: false })).toBe('No real-size run is published yet.');
  });
});

describe('the results file of a run', () => {
  it('holds the options’ goals, the figures, the verdicts and the environment', () => {
    const options = parseRealSizeArgs(['--employees', '2000']);
    const figures = runs[0]!.figures;
    const report = buildRealSizeReport({
      options,
      figures,
      verdicts: runs[0]!.verdicts.map(realSizeVerdictOf),
      environment: {
        node: 'v22.23.3',
        platform: 'linux',
        cpus: 2,
        cpuModel: 'x',
        memoryGb: 8,
        loadAverage: [0.1, 0.1, 0.1],
        azurite: { version: '3.37.0', patched: true },
      },
      startedAt: new Date('2026-11-28T11:00:00Z'),
      finishedAt: new Date('2026-11-28T11:00:30Z'),
      loadAverageAtEnd: [1, 1, 1],
    });
    expect(report).toMatchObject({
      kind: 'real-size',
      date: '2026-11-28T11:00:00.000Z',
      durationMs: 30_000,
      employees: 2_000,
      logLines: 150_000,
      goals: { maxImportRatio: 2, searchGoalMs: 60_000, archiveGoalMs: 360_000 },
      passed: true,
      azurite: { version: '3.37.0', patched: true },
    });
    expect(report.figures).toBe(figures);
  });

  it('gives time per 1,000 rows of the first and last call, scaling a short last call', () => {
    expect(msPerThousandRows({ importCallMs: [1_000, 900], importCallRows: [1_000, 450] })).toEqual(
      { first: 1_000, last: 2_000 },
    );
    // Files written before the rows were recorded: calls of 1,000.
    expect(msPerThousandRows({ importCallMs: [1_000, 3_000] })).toEqual({
      first: 1_000,
      last: 3_000,
    });
    expect(msPerThousandRows({ importCallMs: [] })).toBeUndefined();
  });
});
