/**
 * The suite's timings table (`npm run test:timings`): read from jest's `--json` report, slowest
 * file first, written between its markers in docs/testing.md — which holds them.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  fileTimings,
  replaceBetween,
  timingsSection,
  TIMINGS_BEGIN,
  TIMINGS_END,
  wrap,
  type JestJsonReport,
} from '../../../tools/testTimings';

const ROOT = '/repo';
const file = (name: string, seconds: number, tests: number[]) => ({
  name: `${ROOT}/${name}`,
  startTime: 1_000,
  endTime: 1_000 + seconds * 1000,
  status: 'passed',
  assertionResults: tests.map((ms, i) => ({ title: `t${i}`, duration: ms })),
});
const report: JestJsonReport = {
  success: true,
  startTime: Date.UTC(2026, 10, 27, 21, 30),
  numTotalTestSuites: 3,
  numFailedTestSuites: 0,
  numTotalTests: 6,
  numFailedTests: 0,
  testResults: [
    file('test/unit/a.test.ts', 0.4, [10, 20]),
    file('test/e2e/host/b.test.ts', 75.25, [70_000, 1_000]),
    file('test/integration/c.test.ts', 12, [11_000, 500]),
  ],
};
const facts = {
  date: new Date(report.startTime),
  wallSeconds: 125,
  load: [3.04, 5.5] as [number, number],
  node: '20.20.2',
  cpus: 2,
  args: [],
};

describe('the timings of a jest report', () => {
  it('lists every file slowest first, with its suite, tests and slowest test', () => {
    expect(fileTimings(report, ROOT)).toEqual([
      {
        file: 'test/e2e/host/b.test.ts',
        suite: 'e2e',
        seconds: 75.25,
        tests: 2,
        slowestTestSeconds: 70,
      },
      {
        file: 'test/integration/c.test.ts',
        suite: 'integration',
        seconds: 12,
        tests: 2,
        slowestTestSeconds: 11,
      },
      {
        file: 'test/unit/a.test.ts',
        suite: 'unit',
        seconds: 0.4,
        tests: 2,
        slowestTestSeconds: 0.02,
      },
    ]);
  });

  it('writes the run, its load average and the slowest files as a table', () => {
    const section = timingsSection(report, fileTimings(report, ROOT), facts, 2).replace(
      /\n(?!\|)/g,
      ' ',
    );
    expect(section).toContain('2026-11-27 21:30 UTC (`npm test`, Node 20.20.2, 2 CPUs');
    expect(section).toContain('load average 3.0 at the start and 5.5 at the end');
    expect(section).toContain('3 files in 2 min 05 s of wall time');
    expect(section).toContain('all 6 tests passed');
    const rows = section.split('\n').filter((line) => /^\| \d/.test(line));
    expect(rows).toEqual([
      '| 1 | `test/e2e/host/b.test.ts` | e2e | 75.3 | 2 | 70.0 |',
      '| 2 | `test/integration/c.test.ts` | integration | 12.0 | 2 | 11.0 |',
    ]);
  });

  it('says when tests failed, and which arguments the run had', () => {
    const failed = { ...report, success: false, numFailedTests: 1, numFailedTestSuites: 1 };
    const section = timingsSection(failed, fileTimings(failed, ROOT), {
      ...facts,
      args: ['--selectProjects', 'e2e'],
    }).replace(/\n/g, ' ');
    expect(section).toContain('(`jest --selectProjects e2e`');
    expect(section).toContain('1 of 6 tests and 1 files FAILED');
  });

  it('wraps the summary between words at 100 characters', () => {
    const lines = wrap(`${'word '.repeat(50)}\`a-long-path/file.test.ts\``);
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(lines.join(' ')).toBe(`${'word '.repeat(50)}\`a-long-path/file.test.ts\``);
  });

  it('replaces only what lies between the markers, and refuses a text without them', () => {
    const text = `intro\n${TIMINGS_BEGIN}\nold\n${TIMINGS_END}\noutro\n`;
    expect(replaceBetween(text, TIMINGS_BEGIN, TIMINGS_END, 'new')).toBe(
      `intro\n${TIMINGS_BEGIN}\n\nnew\n\n${TIMINGS_END}\noutro\n`,
    );
    expect(() => replaceBetween('no markers', TIMINGS_BEGIN, TIMINGS_END, 'new')).toThrow(
      /markers/,
    );
  });

  it('has its markers in docs/testing.md, with a table of 15 files between them', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/testing.md'), 'utf8');
    const section = doc.slice(doc.indexOf(TIMINGS_BEGIN), doc.indexOf(TIMINGS_END));
    expect(doc.indexOf(TIMINGS_BEGIN)).toBeGreaterThan(0);
    expect(section.split('\n').filter((line) => /^\| +\d+ \| `test\//.test(line))).toHaveLength(15);
  });
});
