/**
 * The benchmark harness's pure parts: traffic deltas, sizes, names, ratios, case selection, a
 * failing case reported instead of ending the run, a case's own data kept beside its comparisons,
 * and where a run's report goes.
 */
import path from 'node:path';
import {
  benchName,
  buildReport,
  defaultResultsFile,
  formatBytes,
  formatReport,
  percentile,
  ratio,
  requestsPerOperationByKind,
  runCase,
  runCases,
  scaledSize,
  selectCases,
  trafficBetween,
  type CaseSession,
  type LoadedCase,
  type SharedBenchEnv,
  type CaseResult,
} from '../../../bench/harness';
import { atLeast, judge, notJudged } from '../../../bench/goals';
import type { BenchCase, BenchEnv, Measurement } from '../../../bench/types';
import type { ProxyCounts } from '../../../tools/faultProxy/faultProxy';

const counts = (
  requests: number,
  byKind: Record<string, number>,
  sent = 0,
  received = 0,
  entitiesRead = 0,
): ProxyCounts => ({
  requests,
  byKind,
  bytesSent: sent,
  bytesReceived: received,
  entitiesRead,
  faultsInjected: 0,
  byFault: {},
  byStatus: {},
});

const measurement = (
  label: string,
  wallMs: number,
  requests: number,
  bytes: number,
): Measurement => ({
  label,
  wallMs,
  operations: 100,
  opsPerSecond: 100 / (wallMs / 1000),
  requests,
  bytes,
});

/** An env whose only used member is resetTraffic (runCase calls it); cases here ignore the rest. */
const quietEnv = { resetTraffic: () => undefined } as unknown as SharedBenchEnv;

describe('measuring', () => {
  it('counts only the traffic between two snapshots', () => {
    const before = counts(10, { 'table:GET': 10 }, 1_000, 2_000, 40);
    const after = counts(25, { 'table:GET': 12, 'table:POST': 13 }, 1_500, 9_000, 1_040);
    expect(trafficBetween(before, after)).toEqual({
      requests: 15,
      byKind: { 'table:GET': 2, 'table:POST': 13 },
      bytesSent: 500,
      bytesReceived: 7_000,
      entitiesRead: 1_000,
    });
  });

  it('reports requests per operation by kind, most frequent first', () => {
    const traffic = trafficBetween(
      counts(0, {}, 0, 0),
      counts(55, { 'queue:POST': 15, 'table:GET': 40 }, 0, 0),
    );
    expect(requestsPerOperationByKind(traffic, 10)).toBe('table:GET 4.00, queue:POST 1.50');
  });

  it('scales sizes to a tenth in a quick run, never below one', () => {
    expect(scaledSize(5_000, false)).toBe(5_000);
    expect(scaledSize(5_000, true)).toBe(500);
    expect(scaledSize(7, true)).toBe(1);
  });

  it('takes nearest-rank percentiles', () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it('gives baseline/pattern ratios, and none when the pattern side is zero', () => {
    expect(ratio(1_000, 10)).toBe(100);
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(5, 0)).toBeNull();
  });
});

describe('names', () => {
  it('makes valid, unique table names from any prefix', () => {
    const names = new Set(
      Array.from({ length: 50 }, () => benchName('9 bench-EGT!', { table: true })),
    );
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9]{2,62}$/);
    expect(benchName('x'.repeat(100), { table: true }).length).toBeLessThanOrEqual(63);
  });

  it('makes valid queue and container names from any prefix', () => {
    for (const prefix of ['Log Batches', '--a--b--', '', 'x'.repeat(100)]) {
      expect(benchName(prefix)).toMatch(/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/);
    }
  });
});

describe('running cases', () => {
  const named = (name: string): LoadedCase => ({
    file: 'x.js',
    benchCase: {
      name,
      run: async () => ({
        name,
        pattern: measurement('p', 1, 1, 1),
        baseline: measurement('b', 1, 1, 1),
      }),
    },
  });

  it('selects cases whose name contains any filter, ignoring case', () => {
    const cases = [named('email index'), named('logs: hour blobs'), named('platform: EGT')];
    expect(
      selectCases(cases, ['EMAIL', 'egt']).map((c) => ('benchCase' in c ? c.benchCase.name : '')),
    ).toEqual(['email index', 'platform: EGT']);
    expect(selectCases(cases, [])).toHaveLength(3);
  });

  it('leaves a long case out unless it is named', () => {
    const long = named('scale: cost per employee');
    if ('benchCase' in long) long.benchCase.onlyWhenNamed = true;
    const cases = [named('email index'), long];
    expect(selectCases(cases, []).map((c) => ('benchCase' in c ? c.benchCase.name : ''))).toEqual([
      'email index',
    ]);
    expect(selectCases(cases, ['scale'])).toEqual([long]);
  });

  it('reports a throwing case as failed with its error', async () => {
    const broken: BenchCase = {
      name: 'broken',
      run: async () => {
        throw new Error('table not found');
      },
    };
    const result = await runCase({ file: 'broken.js', benchCase: broken }, quietEnv, 1_000);
    expect(result).toMatchObject({ name: 'broken', status: 'failed', comparisons: [] });
    expect(result.error).toContain('table not found');
  });

  it('reports a case that runs past its timeout as failed', async () => {
    const slow: BenchCase = { name: 'slow', run: () => new Promise(() => undefined) };
    const result = await runCase({ file: 'slow.js', benchCase: slow }, quietEnv, 20);
    expect(result.status).toBe('failed');
    expect(result.error).toContain('did not finish within 20 ms');
  });

  describe('a case that times out', () => {
    /** A case that starts a "host" and a timer, then never finishes. */
    function hangingCase(started: { hostStopped: boolean; ticks: number; signal?: AbortSignal }) {
      return {
        file: 'hang.js',
        benchCase: {
          name: 'hangs',
          run: (env: BenchEnv) => {
            started.signal = env.signal;
            env.defer(async () => {
              started.hostStopped = true;
            });
            const timer = setInterval(() => started.ticks++, 5);
            env.defer(() => clearInterval(timer));
            return new Promise<never>(() => undefined);
          },
        },
      } satisfies LoadedCase;
    }

    it('is stopped with everything it started: its signal aborted, its host and timers stopped', async () => {
      const started = { hostStopped: false, ticks: 0 } as Parameters<typeof hangingCase>[0];
      const result = await runCase(hangingCase(started), quietEnv, 40);
      expect(result.status).toBe('failed');
      expect(result.error).toContain('did not finish within 40 ms');
      expect(started.hostStopped).toBe(true);
      expect(started.signal?.aborted).toBe(true);
      const ticks = started.ticks;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(started.ticks).toBe(ticks);
    });

    it('cannot reach storage once over: its session is closed before the next case opens one', async () => {
      // Each session stands for a counting proxy: requests reach it while it is open, and fail
      // (as connections to a stopped proxy do) once it is closed.
      const events: string[] = [];
      const sessions: { requests: number; refused: number; open: boolean }[] = [];
      const openSession = async (): Promise<CaseSession> => {
        const session = { requests: 0, refused: 0, open: true };
        sessions.push(session);
        events.push(`open ${sessions.length}`);
        const n = sessions.length;
        return {
          env: quietEnv,
          close: async () => {
            session.open = false;
            events.push(`close ${n}`);
          },
        };
      };
      // The first case keeps sending requests through the session it was given, and times out.
      const busy: LoadedCase = {
        file: 'busy.js',
        benchCase: {
          name: 'busy',
          run: () => {
            const mine = sessions[sessions.length - 1]!;
            const timer = setInterval(() => (mine.open ? mine.requests++ : mine.refused++), 2);
            setTimeout(() => clearInterval(timer), 150);
            return new Promise<never>(() => undefined);
          },
        },
      };
      const quiet: LoadedCase = {
        file: 'quiet.js',
        benchCase: {
          name: 'quiet',
          timeoutMs: 10_000,
          run: async () => {
            events.push('quiet runs');
            await new Promise((resolve) => setTimeout(resolve, 50));
            return {
              name: 'quiet',
              pattern: measurement('p', 1, 1, 1),
              baseline: measurement('b', 1, 1, 1),
            };
          },
        },
      };
      const results = await runCases([busy, quiet], openSession, 30);
      expect(results.map((r) => r.status)).toEqual(['failed', 'ran']);
      expect(events).toEqual(['open 1', 'close 1', 'open 2', 'quiet runs', 'close 2']);
      await new Promise((resolve) => setTimeout(resolve, 150));
      // It reached storage while it ran; what it still sent after its end was refused.
      expect(sessions[0]!.requests).toBeGreaterThan(0);
      expect(sessions[0]!.refused).toBeGreaterThan(0);
      expect(sessions[1]!.requests).toBe(0);
    });
  });

  it('stops what a passing case registered too, last first, even when one cleanup throws', async () => {
    const order: string[] = [];
    const tidy: BenchCase = {
      name: 'tidy',
      run: async (env) => {
        env.defer(() => order.push('emulator'));
        env.defer(() => {
          throw new Error('already gone');
        });
        env.defer(() => order.push('host'));
        return {
          name: 'tidy',
          pattern: measurement('p', 1, 1, 1),
          baseline: measurement('b', 1, 1, 1),
        };
      },
    };
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const result = await runCase({ file: 'tidy.js', benchCase: tidy }, quietEnv, 1_000);
      expect(result.status).toBe('ran');
    } finally {
      stderr.mockRestore();
    }
    expect(order).toEqual(['host', 'emulator']);
  });

  it('reports a module that could not be loaded as failed', async () => {
    const result = await runCase({ file: 'bad.js', loadError: 'SyntaxError' }, quietEnv, 1_000);
    expect(result).toMatchObject({ name: 'bad.js', status: 'failed', error: 'SyntaxError' });
  });

  it('adds ratios and prints both sides with the goal’s verdict, tallied first and last', async () => {
    const egt: BenchCase = {
      name: 'egt',
      run: async () => {
        const pattern = measurement('batched', 100, 10, 800_000);
        const baseline = measurement('single', 700, 1_000, 1_100_000);
        return [
          {
            name: 'EGT vs single',
            pattern,
            baseline,
            goal: judge('100× fewer requests', [
              atLeast('requests single / batched', baseline.requests / pattern.requests, 100, '×'),
            ]),
          },
          {
            name: 'EGT vs single, faster?',
            pattern,
            baseline,
            goal: judge('≥ 10× faster', [
              atLeast('time single / batched', baseline.wallMs / pattern.wallMs, 10, '×'),
            ]),
          },
        ];
      },
    };
    const result = await runCase({ file: 'egt.js', benchCase: egt }, quietEnv, 1_000);
    expect(result.status).toBe('ran');
    expect(result.comparisons[0]!.ratios).toEqual({ time: 7, requests: 100, bytes: 1.38 });
    expect(result.comparisons.map((c) => c.goal)).toEqual([
      { text: '100× fewer requests', verdict: 'met', measured: 'requests single / batched 100×' },
      {
        text: '≥ 10× faster',
        verdict: 'missed',
        measured: 'time single / batched 7×',
        why: 'time single / batched 7×, below 10×',
      },
    ]);
    const lines = formatReport([result]).split('\n');
    const summary = '1 of 1 case(s) ran, 0 failed; 1 of 2 goals met, 1 missed, 0 not judged';
    expect(lines[0]).toBe(summary);
    expect(lines.at(-1)).toBe(summary);
    expect(lines).toContain('■ EGT vs single');
    expect(lines).toContain('  goal ✔ 100× fewer requests (requests single / batched 100×)');
    expect(lines).toContain('  goal ✗ ≥ 10× faster (time single / batched 7×)');
    expect(lines).toContain('    missed: time single / batched 7×, below 10×');
    expect(lines).toContain('  baseline/pattern: time 7.00×, requests 100×, bytes 1.38×');
    expect(lines.some((l) => /pattern\s+batched\s+100\.0/.test(l))).toBe(true);
  });

  const noRatios = { time: 1, requests: 1, bytes: 1 };

  it('prints a goal not judged with its reason, and one recorded before verdicts as such', () => {
    const m = measurement('p', 1, 1, 1);
    const old: CaseResult = {
      name: 'old',
      file: 'old.js',
      status: 'passed',
      durationMs: 1,
      comparisons: [
        { name: 'words only', pattern: m, baseline: m, goal: '≥ 2× faster', ratios: noRatios },
        {
          name: 'small machine',
          pattern: m,
          baseline: m,
          goal: notJudged('≥ 1.4× throughput', 'throughput 1.1×', 'a 2-core machine'),
          ratios: noRatios,
        },
      ],
    };
    const text = formatReport([old]);
    expect(text).toContain(
      '  goal – ≥ 2× faster — not judged\n    not judged: recorded before verdicts',
    );
    expect(text).toContain(
      '  goal – ≥ 1.4× throughput — not judged (throughput 1.1×)\n    not judged: a 2-core machine',
    );
    expect(text.split('\n')[0]).toBe(
      '1 of 1 case(s) ran, 0 failed; 0 of 2 goals met, 0 missed, 2 not judged',
    );
  });

  it('keeps the data a case returns beside its comparisons (the scale case’s steps)', async () => {
    const withData: BenchCase = {
      name: 'with data',
      run: async () => ({
        comparisons: [
          {
            name: 'c',
            pattern: measurement('p', 100, 1, 1),
            baseline: measurement('b', 200, 2, 2),
          },
        ],
        data: { steps: [{ step: 'import', size: 1_000 }] },
      }),
    };
    const result = await runCase({ file: 'd.js', benchCase: withData }, quietEnv, 1_000);
    expect(result).toMatchObject({
      status: 'ran',
      data: { steps: [{ step: 'import', size: 1_000 }] },
    });
    expect(result.comparisons[0]!.ratios.time).toBe(2);
    // A case returning bare comparisons has no data key at all.
    const plain = await runCase(named('plain'), quietEnv, 1_000);
    expect('data' in plain).toBe(false);
  });

  it('dates the report and records the environment it was given', () => {
    const environment = {
      node: 'v22.23.3',
      platform: 'linux',
      cpus: 2,
      cpuModel: 'x',
      memoryGb: 8,
      loadAverage: [0.2, 0.1, 0.1],
      azurite: { version: '3.37.0', patched: true },
      commit: { sha: 'abc', dirty: false },
    };
    const report = buildReport([], {
      quick: false,
      filters: [],
      durationMs: 90_000,
      startedAt: new Date('2026-11-28T10:00:00Z'),
      environment,
    });
    expect(report).toMatchObject({
      ...environment,
      date: '2026-11-28T10:00:00.000Z',
      finishedAt: '2026-11-28T10:01:30.000Z',
      durationMs: 90_000,
    });
    expect(report.loadAverageAtEnd).toHaveLength(3);
  });

  it('writes a run of every case to results.json and a filtered run beside it', () => {
    expect(defaultResultsFile('/repo', [])).toBe(path.join('/repo', 'bench', 'results.json'));
    expect(defaultResultsFile('/repo', ['scale'])).toBe(
      path.join('/repo', 'bench', 'results-scale.json'),
    );
    expect(defaultResultsFile('/repo', ['platform: EGT', 'Logs'])).toBe(
      path.join('/repo', 'bench', 'results-platform-egt-logs.json'),
    );
  });

  it('formats bytes in decimal units', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(816_000)).toBe('816 kB');
    expect(formatBytes(1_100_000)).toBe('1.1 MB');
  });
});
