/**
 * `npm run test:timings`: runs the suite with jest's `--json` report, then rewrites the "slowest
 * test files" table in docs/testing.md from it, so the suite's time is written down where people
 * read it and regenerated rather than edited.
 *
 *   npm run test:timings                          # build, the whole suite, then the table
 *   npm run test:timings -- --selectProjects e2e  # extra arguments go to jest
 *   node -r @swc-node/register tools/testTimings.ts --from report.json   # an existing report
 *
 * The table names the machine's load average beside the figures: on a shared machine the same
 * suite takes twice as long, and a reader has to know which kind of day a figure is from.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What this tool reads of jest's `--json` report (`FormattedTestResults` of @jest/test-result). */
export interface JestJsonReport {
  success: boolean;
  startTime: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
  numTotalTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    status: string;
    assertionResults: { title: string; duration?: number | null }[];
  }[];
}

/** One test file's time, from the report. */
export interface FileTiming {
  /** Path from the project root, POSIX separators. */
  file: string;
  /** The jest project (`unit`, `integration`, `e2e`), from the folder. */
  suite: string;
  seconds: number;
  tests: number;
  /** The longest single test in the file, in seconds (setup hooks are not in it). */
  slowestTestSeconds: number;
}

/** The run around the report: what a reader needs to weigh the figures. */
export interface RunFacts {
  /** When the run started. */
  date: Date;
  /** Wall time of the whole jest run (setup, every file, teardown). */
  wallSeconds: number;
  /** 1-minute load average at the start and at the end of the run, when known. */
  load?: [number, number];
  node: string;
  cpus: number;
  /** The jest arguments beyond the report's own (empty: the whole suite). */
  args: string[];
}

/** The markers around the generated part of docs/testing.md. */
export const TIMINGS_BEGIN = '<!-- test-timings:begin (npm run test:timings writes this part) -->';
/** See {@link TIMINGS_BEGIN}. */
export const TIMINGS_END = '<!-- test-timings:end -->';

/** Every test file's time in the report, slowest first. */
export function fileTimings(report: JestJsonReport, root: string): FileTiming[] {
  return report.testResults
    .map((result) => {
      const file = path.relative(root, result.name).split(path.sep).join('/');
      const durations = result.assertionResults.map((a) => a.duration ?? 0);
      return {
        file,
        suite: /^test\/([^/]+)\//.exec(file)?.[1] ?? '?',
        seconds: (result.endTime - result.startTime) / 1000,
        tests: result.assertionResults.length,
        slowestTestSeconds: Math.max(0, ...durations) / 1000,
      };
    })
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

const seconds = (value: number): string => value.toFixed(1);
const minutes = (value: number): string =>
  `${Math.floor(value / 60)} min ${String(Math.round(value % 60)).padStart(2, '0')} s`;

/**
 * The generated section: the run's facts, then the `count` slowest files as a Markdown table
 * (Prettier formats it when the file is written).
 */
export function timingsSection(
  report: JestJsonReport,
  files: FileTiming[],
  facts: RunFacts,
  count = 15,
): string {
  const total = files.reduce((sum, f) => sum + f.seconds, 0);
  const shown = files.slice(0, count);
  const shownTotal = shown.reduce((sum, f) => sum + f.seconds, 0);
  const scope = facts.args.length === 0 ? '`npm test`' : `\`jest ${facts.args.join(' ')}\``;
  const outcome = report.success
    ? `all ${report.numTotalTests} tests passed`
    : `${report.numFailedTests} of ${report.numTotalTests} tests and ` +
      `${report.numFailedTestSuites} files FAILED`;
  const load = facts.load
    ? `load average ${facts.load[0].toFixed(1)} at the start and ${facts.load[1].toFixed(1)} at the end`
    : 'load average not recorded';
  const summary = wrap(
    `Run of ${facts.date.toISOString().slice(0, 16).replace('T', ' ')} UTC (${scope}, Node ` +
      `${facts.node}, ${facts.cpus} CPUs, ${load}): ${report.numTotalTestSuites} files in ` +
      `${minutes(facts.wallSeconds)} of wall time (the files' own times add up to ` +
      `${minutes(total)}), ${outcome}. The ${shown.length} slowest files take ` +
      `${minutes(shownTotal)}:`,
  );
  const lines = [
    ...summary,
    '',
    '| # | file | suite | seconds | tests | slowest test (s) |',
    '| -: | --- | --- | -: | -: | -: |',
    ...shown.map(
      (f, i) =>
        `| ${i + 1} | \`${f.file}\` | ${f.suite} | ${seconds(f.seconds)} | ${f.tests} | ` +
        `${seconds(f.slowestTestSeconds)} |`,
    ),
  ];
  return lines.join('\n');
}

/** `text` in lines of at most `width` characters, broken between words (as the docs are). */
export function wrap(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * `text` with what lies between the two markers replaced by `body`.
 *
 * @throws {Error} when a marker is missing or they are out of order.
 */
export function replaceBetween(text: string, begin: string, end: string, body: string): string {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) {
    throw new Error(`The markers ${begin} ... ${end} are missing or out of order.`);
  }
  return `${text.slice(0, start + begin.length)}\n\n${body}\n\n${text.slice(stop)}`;
}

/** Runs jest with `--json` into `outputFile`; resolves with its exit code. */
function runJest(root: string, args: string[], outputFile: string): Promise<number> {
  const jest = require.resolve('jest/bin/jest', { paths: [root] });
  const child = spawn(process.execPath, [jest, '--json', `--outputFile=${outputFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The project root: the nearest folder above this file with a package.json. */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('No package.json above tools/testTimings.');
    dir = parent;
  }
  return dir;
}

async function main(argv: string[]): Promise<number> {
  const root = projectRoot();
  const fromIndex = argv.indexOf('--from');
  let report: JestJsonReport;
  let facts: RunFacts;
  let code = 0;
  if (fromIndex >= 0) {
    const file = argv[fromIndex + 1];
    if (!file) throw new Error('usage: testTimings --from <jest --json report>');
    report = JSON.parse(fs.readFileSync(file, 'utf8')) as JestJsonReport;
    const ends = report.testResults.map((r) => r.endTime);
    facts = {
      date: new Date(report.startTime),
      wallSeconds: (Math.max(report.startTime, ...ends) - report.startTime) / 1000,
      node: process.versions.node,
      cpus: os.cpus().length,
      args: argv.filter((_, i) => i !== fromIndex && i !== fromIndex + 1),
    };
  } else {
    // Kept (test-artifacts/ is gitignored) for a closer look: per-test durations, failures.
    const outputFile = path.join(root, 'test-artifacts', 'jest-report.json');
    fs.mkdirSync(path.dirname(outputFile), { recursive: true });
    const started = new Date();
    const loadBefore = os.loadavg()[0]!;
    code = await runJest(root, argv, outputFile);
    report = JSON.parse(fs.readFileSync(outputFile, 'utf8')) as JestJsonReport;
    facts = {
      date: started,
      wallSeconds: (Date.now() - started.getTime()) / 1000,
      load: [loadBefore, os.loadavg()[0]!],
      node: process.versions.node,
      cpus: os.cpus().length,
      args: argv,
    };
  }
  const docPath = path.join(root, 'docs', 'testing.md');
  const section = timingsSection(report, fileTimings(report, root), facts);
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(docPath)) ?? {};
  const updated = await prettier.format(
    replaceBetween(fs.readFileSync(docPath, 'utf8'), TIMINGS_BEGIN, TIMINGS_END, section),
    { ...options, filepath: docPath },
  );
  fs.writeFileSync(docPath, updated);
  process.stdout.write(`\n${section}\n\nWritten to ${path.relative(process.cwd(), docPath)}.\n`);
  return code;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
