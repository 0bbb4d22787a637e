/**
 * The README's benchmark report from one run: the run's date, machine and emulator, each headline
 * comparison's figures read from the run (never typed in), the sentence on what it means, the
 * storage requests per API operation, and failed cases said as failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { atLeast, judge, notJudged } from '../../../../bench/goals';
import type { BenchReport } from '../../../../bench/harness';
import {
  describeEnvironment,
  describeLoad,
  HEADLINES,
  renderAllComparisons,
  renderReadmeRun,
  requestsPerOp,
  requestsRatio,
} from '../../../../bench/report/benchRun';

const FIXTURE = path.resolve(__dirname, '../../../fixtures/bench/results.json');
const fixture = (): BenchReport => JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as BenchReport;

/** The table row (cells) of the README table whose first cell starts with `title`. */
function row(markdown: string, title: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${title}`));
  if (!line) throw new Error(`No row "${title}" in:\n${markdown}`);
  return line
    .slice(1, -1)
    .split(' | ')
    .map((cell) => cell.trim());
}

describe('the README report of one run', () => {
  const markdown = renderReadmeRun(fixture(), 'docs/results/bench.json');

  it('names the run: date, length, machine, Node, Azurite with its patch, commit, load, cases ran', () => {
    const intro = markdown.split('\n\n')[1]!.replace(/\n/g, ' ');
    expect(intro).toContain('started 2026-11-28 10:00 UTC and 750 s long');
    expect(intro).toContain('2 cores (Intel(R) Xeon(R) Processor), 23.5 GiB');
    expect(intro).toContain('Node v22.23.3');
    expect(intro).toContain(
      'Azurite 3.37.0 in memory, with the project’s table-store patch (`patches/azurite+3.37.0.patch`, sha256 0123456789ab)',
    );
    expect(intro).toContain('commit c75868f');
    expect(intro).toContain(
      'load average 0.3 when it started, 15-minute load average 1.7 when it ended',
    );
    expect(intro).toContain('4 of 5 cases ran to the end');
    expect(intro).not.toContain('passed');
    expect(intro).toContain('[`docs/results/bench.json`](docs/results/bench.json)');
  });

  it('shows each headline comparison with its figures from the run', () => {
    expect(row(markdown, 'Batched writes, 100 entities')).toEqual([
      'Batched writes, 100 entities',
      'EGT upserts, 100 per transaction',
      'one upsertEntity call per entity',
      '0.01 vs 1.00',
      '100× fewer',
      '10.8×',
      '– 100× fewer requests (one per 100 entities), faster',
    ]);
    // The create figure the README used to state by hand is the run's: 2.37 vs 1.00, 0.44×.
    const create = row(markdown, 'Create one by one, 100 employees');
    expect(create.slice(3, 6)).toEqual(['2.37 vs 1.00', '2.37× more', '0.44×']);
    // The index lag at 200 writes/s is the run's p50/p95 lag, in seconds here.
    expect(row(markdown, 'Index lag at 200 writes/s')[5]).toBe('lag p50 9.25 s, p95 14.6 s');
  });

  it('says what each row means, with the run’s figures where the sentence uses one', () => {
    const flat = markdown.replace(/\n\s*/g, ' ');
    expect(flat).toContain('- **Batched writes, 100 entities**: An entity group transaction');
    expect(flat).toContain('the request ratio (100× fewer) is also the cost ratio.');
    expect(flat).toContain('the 1.37 requests per create beyond it');
    // The offered rate comes from the case's notes.
    expect(flat).toContain('(the bench could offer 76/s)');
  });

  it('leaves out headlines the run does not have, and says which cases failed', () => {
    expect(markdown).not.toContain('| Email lookup');
    expect(markdown.replace(/\n\s*/g, ' ')).toContain(
      '**logins: delete one day of attempts (drop the day table vs batch deletes)** failed in this run: Error: Case',
    );
  });

  it('lists the storage requests per API operation beside their minimum', () => {
    expect(row(markdown, 'create')).toEqual([
      'create',
      '4.36',
      '1.00',
      'one entity group transaction',
    ]);
    expect(row(markdown, 'log line')).toEqual([
      'log line',
      '0.21',
      '0.01',
      'one blob append per 100 lines',
    ]);
  });

  it('renders the same Markdown from the same run', () => {
    expect(renderReadmeRun(fixture(), 'docs/results/bench.json')).toBe(markdown);
  });
});

describe('goals', () => {
  it('reports goals recorded before verdicts as not judged, never as met', () => {
    const markdown = renderReadmeRun(fixture(), 'docs/results/bench.json');
    expect(markdown.split('\n\n')[0]).toBe(
      '**0 of 2 goals met, 0 missed, 2 not judged in this run.**',
    );
    expect(markdown.replace(/\n/g, ' ')).toContain(
      'This run was recorded before verdicts: its results hold 2 goals as words only, so each is ' +
        'shown as not judged (–) rather than guessed at',
    );
    const rows = markdown.split('\n').filter((l) => l.startsWith('| '));
    expect(rows.join('\n')).not.toMatch(/[✔✗]/);
  });

  /** The fixture run with the goals a run now records: one met, one missed, one not judged. */
  function judgedRun(): BenchReport {
    const report = fixture();
    const [egt, create, lag] = report.cases.slice(0, 3).map((c) => c.comparisons[0]!);
    egt!.goal = judge('100× fewer requests (one per 100 entities), faster', [
      atLeast('requests single / batched', 100, 100, '×'),
    ]);
    create!.goal = judge('service ≥ 0.8× the raw transaction of the same entities', [
      atLeast('throughput service / raw', 0.44, 0.8, '×'),
    ]);
    lag!.goal = notJudged(
      'index lag p95 ≤ 1 s',
      'p95 14.6 s',
      'this machine offered only 76 writes/s',
    );
    report.cases.forEach((c) => {
      if (c.status === 'passed') c.status = 'ran';
    });
    return report;
  }

  it('marks each goal ✔, ✗ or – with the tally first and one line on each goal not met', () => {
    const markdown = renderReadmeRun(judgedRun(), 'docs/results/bench.json');
    expect(markdown.split('\n\n')[0]).toBe(
      '**1 of 3 goals met, 1 missed, 1 not judged in this run.**',
    );
    expect(markdown.split('\n\n')[1]).toContain('4 of 5 cases ran');
    expect(row(markdown, 'Batched writes, 100 entities')[6]).toBe(
      '✔ 100× fewer requests (one per 100 entities), faster',
    );
    expect(row(markdown, 'Create one by one, 100 employees')[6]).toBe(
      '✗ service ≥ 0.8× the raw transaction of the same entities',
    );
    expect(row(markdown, 'Index lag at 200 writes/s')[6]).toBe('– index lag p95 ≤ 1 s');
    const flat = markdown.replace(/\n\s*/g, ' ');
    expect(flat).toContain(
      '- ✗ **create 100 employees one by one (as deployed: outbox row + nudge)** — service ≥ 0.8× ' +
        'the raw transaction of the same entities: missed, throughput service / raw 0.44×, below 0.8×',
    );
    expect(flat).toContain(
      '- – **index lag, 1000 creates at 200/s over 20 departments (writers drain, queue as ' +
        'fallback)** — index lag p95 ≤ 1 s: not judged, this machine offered only 76 writes/s ' +
        '(measured: p95 14.6 s)',
    );
    expect(flat).not.toContain('recorded before verdicts');
  });

  it('shows each goal’s verdict and what was measured in docs/benchmarks.md', () => {
    const markdown = renderAllComparisons(judgedRun(), 'results/bench.json');
    expect(markdown.split('\n\n')[0]).toBe(
      '**1 of 3 goals met, 1 missed, 1 not judged in this run.**',
    );
    const egt = markdown.split('\n').find((l) => l.startsWith('| platform: entity group'))!;
    expect(egt).toMatch(
      /\| ✔ 100× fewer requests \(one per 100 entities\), faster: requests single \/ batched 100× +\|$/,
    );
    expect(markdown).toContain('throughput service / raw 0.44×, below 0.8×');
  });
});

describe('every comparison, for docs/benchmarks.md', () => {
  it('has a row per comparison with its case, ratios and latency', () => {
    const markdown = renderAllComparisons(fixture(), 'results/bench.json');
    const rows = markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'));
    expect(rows).toHaveLength(1 + 5);
    const lag = rows.find((l) => l.includes('200/s'))!;
    expect(lag).toContain('indexing: inter-partition index lag under 200 writes/s → index lag');
    expect(lag).toContain('0.43× · 0.40× · 0.37×');
    expect(lag).toContain('p50 9.25 s, p95 14.6 s / p50 542 ms, p95 1.52 s');
    expect(markdown).toContain('[`results/bench.json`](results/bench.json)');
  });
});

describe('figures and words', () => {
  const comparison = fixture().cases[0]!.comparisons[0]!;

  it('words request ratios both ways', () => {
    expect(requestsRatio(comparison)).toBe('100× fewer');
    const withRequests = (pattern: number, baseline: number) => ({
      ...comparison,
      pattern: { ...comparison.pattern, requests: pattern },
      baseline: { ...comparison.baseline, requests: baseline },
    });
    expect(requestsRatio(withRequests(200, 100))).toBe('2.00× more');
    expect(requestsRatio(withRequests(100, 100))).toBe('same');
    expect(requestsRatio(withRequests(0, 100))).toBe('none needed');
  });

  it('adds entities per operation when the sides read different numbers', () => {
    const lookup = {
      ...comparison,
      pattern: { ...comparison.pattern, operations: 200, requests: 200, entities: 200 },
      baseline: { ...comparison.baseline, operations: 200, requests: 200, entities: 1_000_000 },
    };
    expect(requestsPerOp(lookup)).toBe('1.00 vs 1.00 (entities 1.00 vs 5,000)');
  });

  it('says what was not recorded rather than guessing', () => {
    expect(describeEnvironment({ cpus: 2, node: 'v20.20.2' })).toBe(
      '2 cores, Node v20.20.2, Azurite version not recorded, commit not recorded',
    );
    expect(
      describeEnvironment({
        azurite: { version: '3.37.0', patched: false },
        commit: { sha: 'abcdef0123', dirty: true },
      }),
    ).toBe(
      'Azurite 3.37.0 in memory, as published (no patch applied), commit abcdef0 with uncommitted changes',
    );
    expect(describeLoad(undefined, undefined)).toBeUndefined();
  });

  it('has a sentence for every headline', () => {
    for (const headline of HEADLINES) expect(headline.meaning(comparison)).toMatch(/\.$/);
  });
});
