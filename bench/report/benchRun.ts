/**
 * The README's benchmark report and docs/benchmarks.md's list of every comparison, rendered from
 * one `npm run bench` report (`bench/results.json`): the run (date, machine, Node, emulator,
 * commit), the headline comparisons with a sentence each on what they mean, and the storage
 * requests per API operation. Every figure is read from the report; the words around them say
 * what a figure measures, never what it came out as.
 */
import { formatBytes, formatRatio, type BenchReport, type ComparisonResult } from '../harness';
import type { RunEnvironment } from '../machine';
import type { Measurement } from '../types';
import { goalCell, goalNotes, goalTally } from './goalsReport';
import {
  bullets,
  count,
  duration,
  escapeText,
  figure,
  paragraph,
  table,
  utcMinute,
} from './markdown';

/** A comparison as found in the report, with the case it belongs to. */
export interface Found {
  caseName: string;
  comparison: ComparisonResult;
}

/** One row of the README's table: which comparison, how to show it, what it means. */
export interface Headline {
  /** The row's name in the table (may use the comparison's sizes). */
  title(c: ComparisonResult): string;
  /** Picks the comparison(s): every match is a row (the department archive has one per size). */
  matches(caseName: string, comparisonName: string): boolean;
  /** A short description of each side (no figures but the run's); its label when not given. */
  pattern?: string | ((c: ComparisonResult) => string);
  baseline?: string;
  /** The "speed" cell; the time ratio when not given. */
  speed?(c: ComparisonResult): string;
  /** One sentence: what the figures of this row mean. */
  meaning(c: ComparisonResult): string;
}

/** Requests per operation of one side. */
export const perOp = (m: Measurement): number =>
  m.operations > 0 ? m.requests / m.operations : m.requests;
/** Entities per operation of one side, when counted. */
const entitiesPerOp = (m: Measurement): number | undefined =>
  m.entities === undefined || m.operations <= 0 ? undefined : m.entities / m.operations;

/**
 * `100× fewer`, `2.37× more`, `same`, `none needed` (the pattern made no request): requests per
 * operation of the baseline against the pattern's, from the counts (not the rounded ratio).
 */
export function requestsRatio(c: ComparisonResult): string {
  const p = perOp(c.pattern);
  const b = perOp(c.baseline);
  if (p === 0) return b > 0 ? 'none needed' : '–';
  if (b === 0) return 'more (the baseline needs none)';
  const r = b / p;
  if (Math.abs(r - 1) < 0.005) return 'same';
  return r > 1 ? `${formatRatio(r, 1)} fewer` : `${formatRatio(1 / r, 1)} more`;
}

/** `0.01 vs 1.00`, with entities per operation when both sides counted them and they differ. */
export function requestsPerOp(c: ComparisonResult): string {
  const text = `${figure(perOp(c.pattern))} vs ${figure(perOp(c.baseline))}`;
  const pe = entitiesPerOp(c.pattern);
  const be = entitiesPerOp(c.baseline);
  return pe !== undefined && be !== undefined && pe !== be
    ? `${text} (entities ${figure(pe)} vs ${figure(be)})`
    : text;
}

const speedRatio = (c: ComparisonResult): string => formatRatio(c.ratios.time, c.baseline.wallMs);
const p50p95 = (m: Measurement): string =>
  m.p50Ms === undefined ? '–' : `p50 ${duration(m.p50Ms)}, p95 ${duration(m.p95Ms ?? m.p50Ms)}`;
const perSecond = (m: Measurement, unit: string): string => `${count(m.opsPerSecond)} ${unit}/s`;
/** The rate the indexing case could offer (its notes say it; the machine may not keep up). */
const offeredRate = (c: ComparisonResult): string | undefined =>
  /offered write rate (\d+)\/s/.exec(c.notes ?? '')?.[1];

/** The README's rows, in order. */
export const HEADLINES: Headline[] = [
  {
    title: (c) => `Batched writes, ${count(c.pattern.operations)} entities`,
    matches: (_, name) => name.startsWith('platform: entity group transactions'),
    meaning: (c) =>
      `An entity group transaction writes up to 100 entities of one partition in one request and ` +
      `Azure bills it as one transaction, so the request ratio (${requestsRatio(c)}) is also the ` +
      `cost ratio.`,
  },
  {
    title: (c) => `Email lookup, ${count(entitiesPerOp(c.baseline) ?? 0)} employees`,
    matches: (_, name) => name.startsWith('email lookup'),
    pattern: '`email_` index point query',
    baseline: 'partition scan filtering on `Email`',
    meaning: () =>
      'The index entity answers a lookup with one point query that reads one entity; the scan ' +
      'reads the whole partition (the entities in brackets), which Azure counts against the ' +
      'partition’s throughput while Azurite scans in memory, so the speed ratio understates it.',
  },
  {
    title: (c) => `Bulk import, ${count(c.pattern.operations)} employees`,
    matches: (_, name) => /^import \d+ employees vs raw upserts, .* 1 at a time$/.test(name),
    pattern: 'service import (index entities, count and outbox row in the same transactions)',
    meaning: () =>
      'The service writes the last-name and email index entities, the department count and an ' +
      'outbox row in the transactions of the employees, so it makes more requests than raw upserts ' +
      'of the same rows; the speed ratio is its throughput against theirs.',
  },
  {
    title: (c) => `Create one by one, ${count(c.pattern.operations)} employees`,
    matches: (_, name) => /^create \d+ employees one by one \(as deployed/.test(name),
    pattern: 'service, as deployed (outbox row, cover message, nudge)',
    baseline: 'raw transaction of the same entities',
    meaning: (c) =>
      `Each create is one transaction (employee, email copy, count shard, index entity, outbox ` +
      `row); the ${figure(perOp(c.pattern) - perOp(c.baseline))} requests per create beyond it are ` +
      'the queue messages that get the index change drained and the reads of versions not cached ' +
      'yet; the speed ratio includes them.',
  },
  {
    title: () => 'One department vs spread',
    matches: (_, name) => /concurrent writers: one department vs spread$/.test(name),
    speed: (c) =>
      `${speedRatio(c)}; p99 ${c.pattern.p99Ms === undefined ? '–' : duration(c.pattern.p99Ms)} vs ` +
      `${c.baseline.p99Ms === undefined ? '–' : duration(c.baseline.p99Ms)}`,
    meaning: () =>
      'Writers of one department contend for what holds its employee count (count shards); the ' +
      'speed ratio is the one department’s throughput against the same creates spread over ' +
      'departments, with each side’s p99 create latency.',
  },
  {
    title: (c) => `Newest 10 of ${count(entitiesPerOp(c.baseline) ?? 0)} claims`,
    matches: (_, name) => name.startsWith('newest 10 of'),
    meaning: () =>
      'Claims are stored newest first (inverted ticks), so one `$top=10` query returns exactly ' +
      'the ten wanted; the baseline reads the whole partition and sorts it.',
  },
  {
    title: (c) => `Delete a day of ${count(c.pattern.operations)} logins`,
    matches: (_, name) => name.startsWith('delete one day of'),
    meaning: () =>
      'One table per day turns deleting the day into one request, whatever it holds; the baseline ' +
      'lists the day and deletes it in transactions of 100.',
  },
  {
    title: () => '24-hour chart',
    matches: (_, name) => name.startsWith('24-hour chart vs 24 point reads'),
    meaning: () =>
      'A day’s 24 hourly figures live in one entity (a data series), read with one point read ' +
      'instead of one per hour.',
  },
  {
    title: () => 'Log lines: hour blobs vs table',
    matches: (_, name) =>
      name === 'logs: hour blobs (blob write only) vs one table entity per line',
    meaning: () =>
      'Lines buffered into hour-named blobs cost a few blob requests per thousands of lines; one ' +
      'entity per line costs a request each (figures per 10,000 lines).',
  },
  {
    title: () => 'Log lines: hour blobs vs table transactions',
    matches: (_, name) =>
      name === 'logs: hour blobs (blob write only) vs table entity group transactions',
    meaning: () =>
      'Even batched 100 to a transaction, table rows cost more requests than hour blobs, and all ' +
      'of an hour’s lines would land in one hot partition.',
  },
  {
    title: () => 'Log flush end to end',
    matches: (_, name) => name.startsWith('logs: flush end to end'),
    speed: (c) => perSecond(c.pattern, 'entries'),
    meaning: () =>
      'The flush drains the queue, writes the hour blobs and deletes the messages: its rate is the ' +
      'entries per second the pipeline sustains once batches are accepted.',
  },
  {
    title: () => 'SAS issuance (table)',
    matches: (_, name) => name.startsWith('valet key: table SAS issuance'),
    speed: (c) => perSecond(c.pattern, 'tokens'),
    meaning: () =>
      'A table SAS is signed in memory with no storage request; the client then reads storage ' +
      'directly instead of through the app (the baseline proxies each read).',
  },
  {
    title: () => 'SAS issuance (photo write)',
    matches: (_, name) => name.startsWith('valet key: photo SAS issuance'),
    speed: (c) => perSecond(c.pattern, 'tokens'),
    meaning: () =>
      'A photo write SAS costs one point read (the employee must exist) and no photo byte goes ' +
      'through the app.',
  },
  {
    title: (c) => `Archive through the queue, ${count(c.pattern.operations)} employees`,
    matches: (_, name) => /^archive \d+ employees of \d+ departments$/.test(name),
    pattern: 'host queue trigger, steady stream',
    meaning: () =>
      'The queue-triggered archive reads, copies and deletes each employee with its index and ' +
      'count changes in one conditional transaction; the raw baseline only copies and deletes.',
  },
  {
    title: (c) => `Department archive, ${count(c.pattern.operations)} employees`,
    matches: (_, name) => /^archive a department of \d+ employees$/.test(name),
    pattern: 'chunked orchestration',
    baseline: 'queue-triggered archive',
    speed: (c) => `${speedRatio(c)} (${figure(1000 / c.pattern.opsPerSecond)} s per 1,000)`,
    meaning: () =>
      'The orchestration archives a department in chunks (range reads, copies in transactions of ' +
      '100, grouped conditional deletes); the speed ratio is its rate against the queue-triggered ' +
      'archive, and its time per 1,000 employees should stay flat as departments grow.',
  },
  {
    title: (c) =>
      `Index lag, ${count(c.pattern.operations)} spread writes (${/over (\d+) departments/.exec(c.name)?.[1] ?? '?'} departments)`,
    matches: (_, name) =>
      /^index lag, \d+ creates at [\d.]+\/s over \d+ departments \(writers drain/.test(name) &&
      !/ at 200\/s/.test(name),
    pattern: 'the writer drains its department after a linger, the queue as fallback',
    baseline: 'the same creates without index work',
    speed: (c) => `lag ${p50p95(c.pattern)}`,
    meaning: (c) =>
      `Index lag is the time from a create’s answer to its index change being drained; ` +
      `${figure(perOp(c.pattern))} requests per write include the drains and queue traffic ` +
      `(${figure(perOp(c.baseline))} for the creates alone).`,
  },
  {
    title: () => 'Index lag, every nudge through the queue',
    matches: (_, name) => /^index lag, .*\(queue nudges\)$/.test(name),
    pattern: 'every nudge through the queue and its drain lease',
    baseline: 'the same creates without index work',
    speed: (c) => `lag ${p50p95(c.pattern)}`,
    meaning: () =>
      'The same spread writes with every index change handed to the queue and its drain lease, as ' +
      'before the writer drained its own department: compare its requests per write with the row ' +
      'above.',
  },
  {
    title: () => 'Index lag at 200 writes/s',
    matches: (_, name) => /^index lag, \d+ creates at 200\/s/.test(name),
    pattern: 'writers drain, queue as fallback',
    baseline: 'the same creates without index work',
    speed: (c) => `lag ${p50p95(c.pattern)}`,
    meaning: (c) => {
      const offered = offeredRate(c);
      return (
        '200 writes/s is more than this machine sustains with the drains running (the bench could ' +
        `offer ${offered === undefined ? 'fewer' : `${offered}/s`}), so a backlog builds and the ` +
        'lag measures it: read it as a stress figure, not as the drain’s cost.'
      );
    },
  },
  {
    title: () => 'Index lag, an import running',
    matches: (_, name) => /^index lag, .*-row import/.test(name),
    pattern: (c) => {
      const load = /at ([\d.]+)\/s over (\d+) departments \+ a (\d+)-row import/.exec(c.name);
      return load
        ? `${load[1]} creates/s over ${load[2]} departments and a ${count(Number(load[3]))}-row import`
        : c.pattern.label;
    },
    baseline: 'the same creates without index work',
    speed: (c) => `lag ${p50p95(c.pattern)}`,
    meaning: () =>
      'A load meant to be one this machine keeps up with, while an import writes into the same ' +
      'index: the lag the import adds to other departments’ writes.',
  },
  {
    title: () => 'Host overhead',
    matches: (_, name) => name.startsWith('platform: host HTTP point read'),
    speed: (c) =>
      c.pattern.p50Ms === undefined || c.baseline.p50Ms === undefined
        ? speedRatio(c)
        : `p50 +${duration(c.pattern.p50Ms - c.baseline.p50Ms)} per call`,
    meaning: () =>
      'The same point read through the local Functions host and in-process: the difference is ' +
      'HTTP and invocation overhead, with the same storage requests.',
  },
];

/** Every comparison of the report, in run order, with its case. */
export function comparisonsOf(report: BenchReport): Found[] {
  return report.cases.flatMap((c) =>
    c.comparisons.map((comparison) => ({ caseName: c.name, comparison })),
  );
}

/** One line on the machine, the emulator and the code of a run. */
export function describeEnvironment(env: Partial<RunEnvironment>): string {
  const parts: string[] = [];
  if (env.cpus !== undefined)
    parts.push(
      `${env.cpus} cores${env.cpuModel ? ` (${env.cpuModel})` : ''}${env.memoryGb ? `, ${env.memoryGb} GiB` : ''}`,
    );
  if (env.node) parts.push(`Node ${env.node}`);
  const azurite = env.azurite;
  parts.push(
    azurite === undefined
      ? 'Azurite version not recorded'
      : `Azurite ${azurite.version} in memory, ${
          azurite.patched
            ? `with the project’s table-store patch${azurite.patch ? ` (\`${azurite.patch.file}\`, sha256 ${azurite.patch.sha256})` : ''}`
            : 'as published (no patch applied)'
        }`,
  );
  parts.push(
    env.commit
      ? `commit ${env.commit.sha.slice(0, 7)}${env.commit.dirty ? ' with uncommitted changes' : ''}`
      : 'commit not recorded',
  );
  return parts.join(', ');
}

/**
 * `load average 0.3 when it started, 15-minute load average 1.9 when it ended`, when recorded: a
 * start well below the core count says nothing else was running.
 */
export function describeLoad(
  start: readonly number[] | undefined,
  end: readonly number[] | undefined,
): string | undefined {
  const parts: string[] = [];
  if (start?.length) parts.push(`load average ${start[0]} when it started`);
  if (end?.length) parts.push(`15-minute load average ${end[2] ?? end[0]} when it ended`);
  return parts.length ? parts.join(', ') : undefined;
}

/** The run's goals tallied, the first line of its report: `**12 of 15 goals met, … in this run.**` */
function goalHeading(report: BenchReport): string {
  return `**${goalTally(report)} in this run.**`;
}

/** The README's first lines: which run, on what. */
function runLine(report: BenchReport, source: string): string {
  const ran = report.cases.filter((c) => c.status !== 'failed').length;
  const load = describeLoad(report.loadAverage, report.loadAverageAtEnd);
  const kind = report.quick
    ? ' **at quick sizes (`BENCH_QUICK`): not a measurement**'
    : report.filters.length
      ? ` of the cases matching ${report.filters.map((f) => `"${f}"`).join(', ')}`
      : '';
  return paragraph(
    `One run of \`npm run bench\`${kind}, started ${utcMinute(report.date)} and ${duration(report.durationMs)} ` +
      `long: ${describeEnvironment(report)}${load ? `; ${load}` : ''}. ${ran} of ` +
      `${report.cases.length} cases ran to the end (a case that ran may still miss its goals). ` +
      `Every figure in this section comes from that run ` +
      `([\`${source}\`](${source}) holds all of them, with each case’s notes); earlier runs and why ` +
      'their figures differ are in [docs/benchmarks.md](docs/benchmarks.md#history).',
  );
}

/** The README's headline table and the sentence on each row. */
function headlineTable(report: BenchReport): string {
  const found = comparisonsOf(report);
  const rows: string[][] = [];
  const meanings: string[] = [];
  for (const headline of HEADLINES) {
    for (const { comparison: c } of found.filter((f) =>
      headline.matches(f.caseName, f.comparison.name),
    )) {
      const title = headline.title(c);
      rows.push([
        title,
        typeof headline.pattern === 'function'
          ? headline.pattern(c)
          : (headline.pattern ?? c.pattern.label),
        headline.baseline ?? c.baseline.label,
        requestsPerOp(c),
        requestsRatio(c),
        headline.speed ? headline.speed(c) : speedRatio(c),
        goalCell(c),
      ]);
      meanings.push(`**${title}**: ${headline.meaning(c)}`);
    }
  }
  const failed = report.cases.filter((c) => c.status === 'failed');
  const out = [
    table(
      [
        'Comparison',
        'Pattern',
        'Baseline',
        'Requests per op (pattern vs baseline)',
        'Requests',
        'Speed (× baseline)',
        'Goal',
      ],
      rows,
    ),
    paragraph(
      '"Speed" is the baseline’s time over the pattern’s for the same operations (above 1× the ' +
        'pattern is faster) unless the cell names another figure; wall times on Azurite vary ' +
        'between runs, request and entity counts do not. A goal is ✔ met, ✗ missed or – not ' +
        'judged, as the run judged it from its own figures; below, why each goal of the run that ' +
        'is not met missed or was not judged.',
    ),
    bullets(meanings),
  ];
  const notes = goalNotes(report);
  if (notes) out.push(notes);
  if (failed.length)
    out.push(
      bullets(
        failed.map(
          (c) =>
            `**${escapeText(c.name)}** failed in this run: ${escapeText((c.error ?? '').split('\n')[0] ?? '')}`,
        ),
      ),
    );
  return out.join('\n\n');
}

/** The cost case's requests per API operation, as a table, when the run has it. */
function costTable(report: BenchReport): string | undefined {
  const cost = report.cases.find((c) => c.name.startsWith('cost: storage requests per API'));
  if (!cost || cost.status === 'failed') return undefined;
  const rows = cost.comparisons.map((c) => [
    c.name.replace(/^requests per /, ''),
    figure(perOp(c.pattern)),
    figure(perOp(c.baseline)),
    c.baseline.label.replace(/^minimum: /, ''),
  ]);
  return [
    paragraph(
      'Storage requests per API operation through the host, index maintenance and queue traffic ' +
        'included (the `cost:` case: one call after another, then until the queues are empty; idle ' +
        'queue polling subtracted), beside the fewest the operation could make:',
    ),
    table(['Operation', 'Requests per operation', 'Minimum', 'Why that minimum'], rows),
  ].join('\n\n');
}

/** The README's benchmark report from one full run (`source`: the published report's path). */
export function renderReadmeRun(report: BenchReport, source: string): string {
  return [goalHeading(report), runLine(report, source), headlineTable(report), costTable(report)]
    .filter((part): part is string => part !== undefined)
    .join('\n\n');
}

/** Every comparison of the run, for docs/benchmarks.md (`source`: the report's path from docs/). */
export function renderAllComparisons(report: BenchReport, source: string): string {
  const rows = comparisonsOf(report).map(({ caseName, comparison: c }) => [
    c.name === caseName ? c.name : `${caseName} → ${c.name}`,
    `${c.pattern.label} / ${c.baseline.label}`,
    requestsPerOp(c),
    `${speedRatio(c)} · ${formatRatio(c.ratios.requests, c.baseline.requests)} · ${formatRatio(c.ratios.bytes, c.baseline.bytes)}`,
    [c.pattern, c.baseline].some((m) => m.p50Ms !== undefined)
      ? `${p50p95(c.pattern)} / ${p50p95(c.baseline)}`
      : '',
    `${formatBytes(c.pattern.bytes)} / ${formatBytes(c.baseline.bytes)}`,
    goalCell(c, true),
  ]);
  const failed = report.cases
    .filter((c) => c.status === 'failed')
    .map(
      (c) =>
        `**${escapeText(c.name)}** failed: ${escapeText((c.error ?? '').split('\n')[0] ?? '')}`,
    );
  const notes = goalNotes(report);
  return [
    goalHeading(report),
    paragraph(
      `Every comparison of the run the README reports (started ${utcMinute(report.date)}; ` +
        `${describeEnvironment(report)}), with each side’s label; [\`${source}\`](${source}) ` +
        'adds each case’s notes and duration.',
    ),
    table(
      [
        'Comparison',
        'Pattern / baseline',
        'Requests per op',
        'Ratios: time · requests · bytes',
        'Latency (pattern / baseline)',
        'Bytes',
        'Goal',
      ],
      rows,
    ),
    ...(notes ? [notes] : []),
    ...(failed.length ? [bullets(failed)] : []),
  ].join('\n\n');
}
