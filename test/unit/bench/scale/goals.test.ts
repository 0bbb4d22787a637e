/**
 * The real-size scenario's options and goals: each goal passes or fails on what was measured, a
 * stage never reached fails its goal, and the summary says which.
 */
import {
  checkGoals,
  formatVerdicts,
  importRatio,
  parseRealSizeArgs,
  realSizeVerdictOf,
  type RealSizeFigures,
} from '../../../../bench/scale/goals';

const options = parseRealSizeArgs([]);

/** A run that met every goal at 20,000 employees. */
const met = (): RealSizeFigures => ({
  importCallMs: [1_500, ...Array.from({ length: 18 }, () => 1_700), 2_900],
  imported: 20_000,
  employees: 20_000,
  searchAllFoundAfterMs: 41_000,
  searchFound: 5_000,
  searchExpected: 5_000,
  audit: { runtimeStatus: 'Completed', checked: 80_000, missing: 0, stale: 0 },
  logs: { posted: 150_000, read: 150_000, readMs: 9_000, pages: 30 },
  archive: { runtimeStatus: 'Completed', ms: 300_000, archived: 20_000 },
});

const failedGoals = (figures: RealSizeFigures): string[] =>
  checkGoals(figures, options)
    .filter((v) => v.verdict !== 'met')
    .map((v) => v.text.split(':')[0]!);

describe('options', () => {
  it('defaults to the issue’s scenario against npm start', () => {
    expect(options).toEqual({
      baseUrl: 'http://localhost:7071/api',
      employees: 20_000,
      logLines: 150_000,
      maxImportRatio: 2,
      searchGoalMs: 60_000,
      searchWaitMs: 600_000,
      archiveGoalMs: 360_000,
      orchestrationWaitMs: 1_800_000,
      logWaitMs: 120_000,
      drainWaitMs: 1_800_000,
      resultsFile: 'bench/results-real-size-20000.json',
      probe: {
        connectionString: 'UseDevelopmentStorage=true',
        employeesTable: 'Employees',
        indexQueue: 'index-updates',
      },
    });
  });

  it('starts the app with CPU profiles only when asked', () => {
    expect(parseRealSizeArgs([]).cpuProfileDir).toBeUndefined();
    expect(parseRealSizeArgs(['--cpu-prof', '/tmp/prof']).cpuProfileDir).toBe('/tmp/prof');
  });

  it('probes the storage named, or none', () => {
    expect(
      parseRealSizeArgs(['--storage', 'DefaultEndpointsProtocol=http;x', '--employees-table', 'E2'])
        .probe,
    ).toEqual({
      connectionString: 'DefaultEndpointsProtocol=http;x',
      employeesTable: 'E2',
      indexQueue: 'index-updates',
    });
    expect(parseRealSizeArgs(['--storage', 'none']).probe).toBeUndefined();
  });

  it('takes a smaller run and another base URL', () => {
    const quick = parseRealSizeArgs([
      '--base-url',
      'http://127.0.0.1:7090/api/',
      '--employees',
      '2000',
      '--log-lines',
      '20000',
      '--search-goal-s',
      '7.5',
    ]);
    expect(quick).toMatchObject({
      baseUrl: 'http://127.0.0.1:7090/api',
      employees: 2_000,
      logLines: 20_000,
      searchGoalMs: 7_500,
      resultsFile: 'bench/results-real-size-2000.json',
    });
    expect(parseRealSizeArgs(['--results', '/tmp/r.json']).resultsFile).toBe('/tmp/r.json');
  });

  it('refuses bad numbers, unknown options and a base URL that is not http', () => {
    expect(() => parseRealSizeArgs(['--employees', '2k'])).toThrow(
      /--employees must be a positive whole number, got "2k"/,
    );
    expect(() => parseRealSizeArgs(['--employees', '1000000'])).toThrow(/at most 999999/);
    expect(() => parseRealSizeArgs(['--log-lines', '0'])).toThrow(/--log-lines/);
    expect(() => parseRealSizeArgs(['--base-url', 'localhost:7071'])).toThrow(
      /--base-url must be an http/,
    );
    expect(() => parseRealSizeArgs(['--size', '5'])).toThrow();
  });
});

describe('goals', () => {
  it('passes a run that met every goal', () => {
    expect(failedGoals(met())).toEqual([]);
    expect(importRatio(met().importCallMs)).toBeCloseTo(2.9 / 1.5);
  });

  it('fails the import when the last call took more than twice the first, or rows were refused', () => {
    expect(failedGoals({ ...met(), importCallMs: [1_000, 2_001] })).toEqual(['import']);
    expect(failedGoals({ ...met(), importCallMs: [1_000, 2_000] })).toEqual([]);
    expect(failedGoals({ ...met(), imported: 19_990 })).toEqual(['import']);
    expect(failedGoals({ ...met(), importCallMs: [] })).toEqual(['import']);
  });

  it('divides out the emulator’s own growth when it was probed, beside the plain ratio', () => {
    // The app's calls grew 30×, raw inserts into the same partition 20×: 1.5× beyond the emulator.
    const grown = { ...met(), importCallMs: [1_000, 30_000], probeMs: { first: 100, last: 2_000 } };
    const verdicts = checkGoals(grown, options);
    const adjusted = verdicts.find((v) => v.text.includes('beyond the emulator'))!;
    expect(adjusted).toMatchObject({ verdict: 'met' });
    expect(adjusted.measured).toMatch(
      /^1\.50× \(raw inserts into the partition: 0\.1 s → 2\.0 s, 20\.0×\)$/,
    );
    expect(failedGoals(grown)).toEqual(['import']);
    // Growth the emulator does not explain fails both.
    const slow = { ...grown, probeMs: { first: 100, last: 500 } };
    expect(failedGoals(slow)).toEqual(['import', 'import']);
    // No probe: no adjusted verdict.
    expect(checkGoals(met(), options).some((v) => v.text.includes('emulator'))).toBe(false);
  });

  it('fails the search when it found everyone late, or never', () => {
    expect(failedGoals({ ...met(), searchAllFoundAfterMs: 60_001 })).toEqual(['search']);
    expect(failedGoals({ ...met(), searchAllFoundAfterMs: undefined, searchFound: 4_990 })).toEqual(
      ['search'],
    );
  });

  it('fails the audit when something is missing, or it did not complete', () => {
    const audit = met().audit!;
    expect(failedGoals({ ...met(), audit: { ...audit, missing: 3 } })).toEqual(['audit']);
    // Stale entries are reported, not a failure of "nothing missing".
    expect(failedGoals({ ...met(), audit: { ...audit, stale: 2 } })).toEqual([]);
    expect(failedGoals({ ...met(), audit: { runtimeStatus: 'Failed' } })).toEqual(['audit']);
    expect(failedGoals({ ...met(), audit: undefined })).toEqual(['audit']);
  });

  it('fails the logs unless every entry came back once and in order', () => {
    const logs = met().logs!;
    expect(
      failedGoals({ ...met(), logs: { ...logs, read: 149_000, problem: 'read 149000 entries' } }),
    ).toEqual(['logs']);
    expect(failedGoals({ ...met(), logs: undefined })).toEqual(['logs']);
  });

  it('fails the archive when it took longer than 6 minutes, did not complete, or missed employees', () => {
    const archive = met().archive!;
    expect(failedGoals({ ...met(), archive: { ...archive, ms: 360_001 } })).toEqual(['archive']);
    expect(failedGoals({ ...met(), archive: { ...archive, archived: 19_999 } })).toEqual([
      'archive',
    ]);
    expect(failedGoals({ ...met(), archive: { runtimeStatus: 'Failed', ms: 10 } })).toEqual([
      'archive',
    ]);
  });
});

describe('the summary', () => {
  it('prints ✔ or ✗ per goal with what was measured, why under each ✗, then the tally', () => {
    const text = formatVerdicts(checkGoals({ ...met(), searchAllFoundAfterMs: 75_000 }, options));
    const lines = text.split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[1]).toMatch(
      /^✔ import: last call ≤ 2× the first +1\.93× \(first 1\.5 s, last 2\.9 s\)$/,
    );
    expect(lines[2]).toMatch(
      /^✗ search: all 5000 of the shared name within 60\.0 s +all found 75\.0 s after the last call$/,
    );
    expect(lines[3]).toBe('    missed: all found after 75.0 s, later than 60.0 s');
    expect(lines[7]).toBe('5 of 6 goals met, 1 missed, 0 not judged.');
    expect(
      formatVerdicts(checkGoals(met(), options)).endsWith(
        '6 of 6 goals met, 0 missed, 0 not judged.',
      ),
    ).toBe(true);
  });

  it('gives every missed goal one line on why', () => {
    const verdicts = checkGoals(
      {
        ...met(),
        imported: 19_990,
        importCallMs: [1_000, 2_500],
        searchAllFoundAfterMs: undefined,
        searchFound: 4_000,
        audit: { runtimeStatus: 'Failed' },
        logs: undefined,
        archive: { runtimeStatus: 'Completed', ms: 10_000, archived: 19_000 },
      },
      options,
    );
    expect(verdicts.map((v) => [v.verdict, v.why])).toEqual([
      ['missed', '10 of 20000 rows not created'],
      ['missed', 'last call 2.50× the first, above 2×'],
      ['missed', 'only 4000 of 5000 found when the wait ended'],
      ['missed', 'the audit ended Failed'],
      ['missed', 'the log hour was not read back'],
      ['missed', 'archived 19000 of 20000'],
    ]);
  });

  it('reads verdicts of files written before the common shape as met or missed', () => {
    expect(
      realSizeVerdictOf({ goal: 'audit: nothing missing', measured: 'ok', passed: true }),
    ).toEqual({ text: 'audit: nothing missing', verdict: 'met', measured: 'ok' });
    expect(
      realSizeVerdictOf({ goal: 'archive', measured: 'Failed in 3 s', passed: false }),
    ).toEqual({
      text: 'archive',
      verdict: 'missed',
      measured: 'Failed in 3 s',
      why: 'Failed in 3 s',
    });
  });
});
