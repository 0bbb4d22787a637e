/**
 * `npm run bench:report [-- --check] [--allow-quick] [--root DIR] [results files...]`: publishes
 * the newest runs and renders the README's and docs/benchmarks.md's figures from them.
 *
 * 1. Publishes each results file (default: `bench/results.json`, `bench/results-scale.json`,
 *    `bench/results-real-size-*.json`, `bench/results-organisation.json`, those that exist) into
 *    `docs/results/` — the full run as `bench.json`, the scale run as `scale.json`, each real-size
 *    run as `real-size-<employees>.json`, an organisation run as `organisation.json` (or
 *    `organisation-2-accounts.json`) — unless it is a quick run or a partial run in the full
 *    run's place (`--allow-quick` takes those too, to try the report).
 * 2. Renders from `docs/results/` alone the sections between the `bench-report:` markers of
 *    README.md and docs/benchmarks.md and the charts (`docs/img/benchmarks-scale-*.svg`,
 *    `benchmarks-organisation-*.svg`, removing charts no run draws), formatted with Prettier.
 *
 * With `--check` it publishes nothing and writes nothing: it exits 1 when a generated section or
 * chart differs from what the published runs give (a hand-edited figure, a stale chart).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { projectRoot } from './machine';
import {
  PUBLISHED_DIR,
  publicationOf,
  readPublished,
  renderDocuments,
  type Published,
} from './report/render';

const README = 'README.md';
const DOCS = 'docs/benchmarks.md';
const IMG_DIR = 'docs/img';
const CHART_FILE = /^benchmarks-(scale|organisation)-.*\.svg$/;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** The results files a run of the bench and of the real-size scenario leave in bench/. */
function defaultInputs(root: string): string[] {
  const dir = path.join(root, 'bench');
  return fs
    .readdirSync(dir)
    .filter((file) => /^results(-scale|-real-size-\d+|-organisation)?\.json$/.test(file))
    .sort()
    .map((file) => path.join(dir, file));
}

async function format(text: string, file: string): Promise<string> {
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...config, filepath: file });
}

/** Copies each publishable input into docs/results/; says what it did with each. */
async function publish(root: string, inputs: string[], allowQuick: boolean): Promise<void> {
  for (const input of inputs) {
    const shown = path.relative(root, input) || input;
    let content: unknown;
    try {
      content = readJson(input);
    } catch (error) {
      say(`✗ ${shown}: not readable JSON (${(error as Error).message})`);
      continue;
    }
    const publication = publicationOf(content, allowQuick);
    if ('refused' in publication) {
      say(`✗ ${shown} not published: ${publication.refused}`);
      continue;
    }
    const target = path.join(root, PUBLISHED_DIR, publication.name);
    const date = (content as { date: string }).date;
    const publishedDate = fs.existsSync(target)
      ? (readJson(target) as { date?: string }).date
      : undefined;
    if (publishedDate !== undefined && publishedDate > date) {
      say(`✗ ${shown} not published: older than ${path.relative(root, target)} (${publishedDate})`);
      continue;
    }
    const text = await format(`${JSON.stringify(content, null, 2)}\n`, target);
    if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text) {
      say(`= ${shown} is published already (${path.relative(root, target)})`);
      continue;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    say(`✓ ${shown} published as ${path.relative(root, target)}`);
  }
}

/** Says when the published runs measured different code. */
function warnAboutCommits(published: Published): void {
  const runs = [
    ['full run', published.bench?.report.commit],
    ['scale run', published.scale?.report.commit],
    ...published.realSize.map((r) => [`real-size ${r.report.employees}`, r.report.commit] as const),
  ] as const;
  const shas = new Set(runs.map(([, commit]) => commit?.sha).filter(Boolean));
  if (shas.size > 1)
    say(
      `! The published runs measured different commits: ${runs
        .map(([name, commit]) => `${name} ${commit?.sha.slice(0, 7) ?? '?'}`)
        .join(', ')}.`,
    );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      'allow-quick': { type: 'boolean', default: false },
      root: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const root = path.resolve(values.root ?? projectRoot(__dirname));
  if (!values.check) {
    const inputs = positionals.length
      ? positionals.map((p) => path.resolve(p))
      : defaultInputs(root);
    await publish(root, inputs, values['allow-quick']);
  }
  const published = readPublished(root);
  warnAboutCommits(published);

  const readmeFile = path.join(root, README);
  const docsFile = path.join(root, DOCS);
  const rendered = renderDocuments(published, {
    readme: fs.readFileSync(readmeFile, 'utf8'),
    docs: fs.readFileSync(docsFile, 'utf8'),
  });
  const outputs = new Map<string, string | undefined>([
    [readmeFile, await format(rendered.readme, readmeFile)],
    [docsFile, await format(rendered.docs, docsFile)],
  ]);
  const imgDir = path.join(root, IMG_DIR);
  for (const [file, svg] of Object.entries(rendered.charts))
    outputs.set(path.join(imgDir, file), svg);
  // A chart the published scale run does not draw any more is removed, never left stale.
  for (const file of fs.existsSync(imgDir) ? fs.readdirSync(imgDir) : [])
    if (CHART_FILE.test(file) && !(file in rendered.charts))
      outputs.set(path.join(imgDir, file), undefined);

  let differs = 0;
  for (const [file, content] of outputs) {
    const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (existing === content) continue;
    differs += 1;
    const shown = path.relative(root, file);
    if (values.check) {
      say(
        `✗ ${shown} ${content === undefined ? 'should not exist' : 'differs from the published runs'}`,
      );
    } else if (content === undefined) {
      fs.rmSync(file);
      say(`✓ removed ${shown}`);
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      say(`✓ wrote ${shown}`);
    }
  }
  if (values.check) {
    say(differs ? `${differs} file(s) out of date: run npm run bench:report.` : 'Up to date.');
    return differs ? 1 : 0;
  }
  if (differs === 0) say('Nothing to change.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:report failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
