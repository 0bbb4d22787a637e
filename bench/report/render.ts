/**
 * What `npm run bench:report` writes, as a pure function of the published runs: the README's and
 * docs/benchmarks.md's generated sections (between their marker comments) and the scale charts.
 * Which runs may be published, under which name, and reading them back are here too.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchReport } from '../harness';
import { REAL_SIZE_KIND, type RealSizeReport } from '../scale/realSizeReport';
import {
  renderRealSize,
  renderScaleDocs,
  renderScaleReadme,
  scaleChartFiles,
  scaleDataOf,
} from './atSize';
import { renderAllComparisons, renderReadmeRun } from './benchRun';
import { paragraph, replaceSection } from './markdown';
import {
  organisationChartFiles,
  organisationDataOf,
  organisationFileName,
  renderOrganisation,
} from './organisation';

/** Where published runs live, from the checkout's root (committed, unlike bench/results*.json). */
export const PUBLISHED_DIR = 'docs/results';

/** A published run: its content and its path from the checkout's root. */
export interface PublishedRun<T> {
  report: T;
  source: string;
}

/** The runs the README and docs are rendered from. */
export interface Published {
  bench?: PublishedRun<BenchReport>;
  scale?: PublishedRun<BenchReport>;
  /** Real-size runs, fewest employees first. */
  realSize: PublishedRun<RealSizeReport>[];
  /** Organisation runs (issue 45): one account, over two data accounts. */
  organisation?: PublishedRun<BenchReport>[];
}

/** The sections and files a render produces. */
export interface Rendered {
  readme: string;
  docs: string;
  /** Scale and organisation charts by file name (docs/img/). */
  charts: Record<string, string>;
}

/** A path from the checkout's root as linked from docs/. */
const fromDocs = (source: string): string => source.replace(/^docs\//, '');

const nothingYet = (what: string, command: string): string =>
  paragraph(`No ${what} is published yet: run \`${command}\`, then \`npm run bench:report\`.`);

/** The README and docs/benchmarks.md with every generated section replaced, and the charts. */
export function renderDocuments(
  published: Published,
  current: { readme: string; docs: string },
): Rendered {
  const { bench, scale, realSize } = published;
  let readme = current.readme;
  let docs = current.docs;
  readme = replaceSection(
    readme,
    'readme-run',
    bench ? renderReadmeRun(bench.report, bench.source) : nothingYet('full run', 'npm run bench'),
  );
  docs = replaceSection(
    docs,
    'docs-all',
    bench
      ? renderAllComparisons(bench.report, fromDocs(bench.source))
      : nothingYet('full run', 'npm run bench'),
  );
  readme = replaceSection(
    readme,
    'readme-scale',
    scale
      ? renderScaleReadme(scale.report, scale.source)
      : nothingYet('scale run', 'npm run bench -- scale'),
  );
  docs = replaceSection(
    docs,
    'docs-scale',
    scale
      ? renderScaleDocs(scale.report, fromDocs(scale.source))
      : nothingYet('scale run', 'npm run bench -- scale'),
  );
  const runs = realSize.map((r) => r.report);
  readme = replaceSection(
    readme,
    'readme-real-size',
    renderRealSize(
      runs,
      realSize.map((r) => r.source),
      { verdicts: false },
    ),
  );
  docs = replaceSection(
    docs,
    'docs-real-size',
    renderRealSize(
      runs,
      realSize.map((r) => fromDocs(r.source)),
      { verdicts: true },
    ),
  );
  const organisation = published.organisation ?? [];
  readme = replaceSection(
    readme,
    'readme-organisation',
    renderOrganisation(
      organisation,
      organisation.map((r) => r.source),
      { imgDir: 'docs/img', msChart: false },
    ),
  );
  docs = replaceSection(
    docs,
    'docs-organisation',
    renderOrganisation(
      organisation,
      organisation.map((r) => fromDocs(r.source)),
      { imgDir: 'img', msChart: true },
    ),
  );
  return {
    readme,
    docs,
    charts: {
      ...(scale ? scaleChartFiles(scale.report) : {}),
      ...organisationChartFiles(organisation),
    },
  };
}

/** Which slot a results file fills, under which published name; or why it cannot be published. */
export type Publication =
  { slot: 'bench' | 'scale' | 'realSize' | 'organisation'; name: string } | { refused: string };

/**
 * Where a results file (parsed) goes among the published runs: a run of every default case is
 * `bench.json`, a run with the scale case `scale.json`, a real-size run `real-size-<employees>.json`,
 * an organisation run `organisation.json` (`organisation-2-accounts.json` over two data accounts).
 * A quick run, or a run of only some cases in the bench slot, is refused unless `allowQuick`.
 */
export function publicationOf(content: unknown, allowQuick = false): Publication {
  const value = content as Partial<BenchReport & RealSizeReport> | null;
  if (value === null || typeof value !== 'object' || typeof value.date !== 'string')
    return { refused: 'not a bench or real-size results file (no date)' };
  if (value.kind === REAL_SIZE_KIND) {
    if (typeof value.employees !== 'number' || !Array.isArray(value.verdicts))
      return { refused: 'a real-size file without its employees or verdicts' };
    return { slot: 'realSize', name: `real-size-${value.employees}.json` };
  }
  if (!Array.isArray(value.cases)) return { refused: 'a results file without cases' };
  if (value.quick && !allowQuick)
    return { refused: 'a quick run (BENCH_QUICK): its sizes are not the measurement' };
  const report = value as BenchReport;
  if (report.cases.some((c) => c.name.startsWith('scale:'))) {
    try {
      scaleDataOf(report);
    } catch (error) {
      return { refused: (error as Error).message };
    }
    return { slot: 'scale', name: 'scale.json' };
  }
  if (report.cases.some((c) => c.name.startsWith('organisation:'))) {
    try {
      return { slot: 'organisation', name: organisationFileName(report) };
    } catch (error) {
      return { refused: (error as Error).message };
    }
  }
  if (report.filters.length > 0 && !allowQuick)
    return {
      refused: `a run of only the cases matching ${report.filters.join(', ')}: the README reports a full run`,
    };
  return { slot: 'bench', name: 'bench.json' };
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** The published runs under `root`. */
export function readPublished(root: string): Published {
  const dir = path.join(root, PUBLISHED_DIR);
  const source = (file: string): string => `${PUBLISHED_DIR}/${file}`;
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const published: Published = { realSize: [] };
  if (files.includes('bench.json'))
    published.bench = {
      report: readJson(path.join(dir, 'bench.json')) as BenchReport,
      source: source('bench.json'),
    };
  if (files.includes('scale.json'))
    published.scale = {
      report: readJson(path.join(dir, 'scale.json')) as BenchReport,
      source: source('scale.json'),
    };
  published.realSize = files
    .filter((file) => /^real-size-\d+\.json$/.test(file))
    .map((file) => ({
      report: readJson(path.join(dir, file)) as RealSizeReport,
      source: source(file),
    }))
    .sort((a, b) => a.report.employees - b.report.employees);
  published.organisation = files
    .filter((file) => /^organisation(-\d+-accounts)?\.json$/.test(file))
    .map((file) => ({
      report: readJson(path.join(dir, file)) as BenchReport,
      source: source(file),
    }))
    .sort((a, b) => organisationDataOf(a.report).accounts - organisationDataOf(b.report).accounts);
  return published;
}
