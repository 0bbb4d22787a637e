/**
 * Goals that judge (bench/goals.ts, bench/caseGoals.ts): a goal is met only when every figure it
 * states holds, missed with one line on what fell short, or not judged with its reason; words
 * from results written before verdicts are never counted as met.
 */
import { CORES_TO_JUDGE_THROUGHPUT, flatAgainst, spreadGoal } from '../../../bench/caseGoals';
import {
  atLeast,
  atMost,
  exactly,
  goalLabel,
  goalOf,
  holds,
  judge,
  notJudged,
  num,
  tally,
  tallyLine,
  whyLine,
} from '../../../bench/goals';
import type { Measurement } from '../../../bench/types';

const m = (over: Partial<Measurement>): Measurement => ({
  label: 'm',
  wallMs: 1_000,
  operations: 1_000,
  opsPerSecond: 1_000,
  requests: 1_000,
  bytes: 0,
  ...over,
});

describe('criteria', () => {
  it('holds at the limit and falls short past it, saying by how much', () => {
    expect(atLeast('throughput / raw', 0.9, 0.9, '×')).toMatchObject({ ok: true });
    expect(atLeast('throughput / raw', 0.61, 0.9, '×')).toEqual({
      measured: 'throughput / raw 0.61×',
      ok: false,
      shortfall: 'throughput / raw 0.61×, below 0.9×',
    });
    expect(atMost('p99', 1_000, 1_000, ' ms').ok).toBe(true);
    expect(atMost('p99', 1_001, 1_000, ' ms').shortfall).toBe('p99 1,001 ms, above 1,000 ms');
    expect(exactly('requests per lookup', 1, 1).ok).toBe(true);
    expect(exactly('requests per lookup', 1.005, 1)).toMatchObject({
      ok: false,
      shortfall: 'requests per lookup 1.005, not 1',
    });
  });

  it('fails a figure that was not measured rather than passing it', () => {
    expect(atMost('p95', undefined, 1_000)).toMatchObject({
      ok: false,
      measured: 'p95 not measured',
    });
    expect(exactly('entities per read', NaN, 10).ok).toBe(false);
  });

  it('shows small figures with enough digits to see the limit', () => {
    expect(num(0.00026)).toBe('0.00026');
    expect(num(1 / 500)).toBe('0.002');
    expect(num(49_200)).toBe('49,200');
    expect(num(1.2345)).toBe('1.23');
  });
});

describe('a goal', () => {
  it('is met only when every figure it states holds', () => {
    const text = '1 request and 1 entity per lookup';
    expect(judge(text, [exactly('requests', 1, 1), exactly('entities', 1, 1)])).toEqual({
      text,
      verdict: 'met',
      measured: 'requests 1; entities 1',
    });
    expect(judge(text, [exactly('requests', 1, 1), exactly('entities', 5_000, 1)])).toEqual({
      text,
      verdict: 'missed',
      measured: 'requests 1; entities 5,000',
      why: 'entities 5,000, not 1',
    });
  });

  it('reports a context figure beside the judged ones without judging it', () => {
    expect(
      judge('last call ≤ 2× the first', [atMost('last / first', 1.5, 2, '×')], 'Azurite 38×'),
    ).toEqual({
      text: 'last call ≤ 2× the first',
      verdict: 'met',
      measured: 'last / first 1.5×; Azurite 38×',
    });
  });

  it('cannot be judged on nothing', () => {
    expect(() => judge('anything', [])).toThrow(RangeError);
  });

  it('reads words from results written before verdicts as not judged', () => {
    expect(goalOf('≥ 0.9× raw throughput')).toEqual({
      text: '≥ 0.9× raw throughput',
      verdict: 'not judged',
      measured: '',
      why: 'recorded before verdicts',
    });
    expect(goalOf(undefined)).toBeUndefined();
  });

  it('is marked ✔, ✗ or – with one line on why it is not met', () => {
    const met = judge('≥ 0.9×', [atLeast('ratio', 1, 0.9, '×')]);
    const missed = judge('≥ 0.9×', [atLeast('ratio', 0.5, 0.9, '×')]);
    const open = notJudged('≥ 1.4×', 'ratio 1.1×', 'a 2-core machine');
    expect(goalLabel(met)).toBe('✔ ≥ 0.9× (ratio 1×)');
    expect(goalLabel(missed)).toBe('✗ ≥ 0.9× (ratio 0.5×)');
    expect(goalLabel(open)).toBe('– ≥ 1.4× — not judged (ratio 1.1×)');
    expect(whyLine(met)).toBeUndefined();
    expect(whyLine(missed)).toBe('missed: ratio 0.5×, below 0.9×');
    expect(whyLine(open)).toBe('not judged: a 2-core machine');
    expect(tallyLine(tally([met, missed, open, met]))).toBe(
      '2 of 4 goals met, 1 missed, 1 not judged',
    );
    expect(tallyLine(tally([met]))).toBe('1 of 1 goal met, 0 missed, 0 not judged');
  });

  it('holds a condition the case checked itself', () => {
    expect(holds('0 of 12 refusals outside the window', true)).toEqual({
      measured: '0 of 12 refusals outside the window',
      ok: true,
      shortfall: '0 of 12 refusals outside the window',
    });
  });
});

describe('two data accounts', () => {
  const one = m({ opsPerSecond: 100, requests: 5_000, operations: 1_000 });

  it('is judged on a machine with enough cores', () => {
    const two = m({ opsPerSecond: 150, requests: 5_100, operations: 1_000 });
    expect(spreadGoal(two, one, CORES_TO_JUDGE_THROUGHPUT).verdict).toBe('met');
    const slow = m({ opsPerSecond: 120, requests: 5_000, operations: 1_000 });
    expect(spreadGoal(slow, one, 8)).toMatchObject({
      verdict: 'missed',
      why: 'throughput 1.2×, below 1.4×',
    });
  });

  it('is not judged on a small machine, saying why, but still misses on requests', () => {
    const slow = m({ opsPerSecond: 105, requests: 5_000, operations: 1_000 });
    expect(spreadGoal(slow, one, 2)).toEqual({
      text: 'two data accounts ≥ 1.4× the throughput of one, requests per create unchanged',
      verdict: 'not judged',
      measured: 'throughput 1.05×; requests per create 5 vs 5',
      why:
        'two accounts on a 2-core machine: the client is the ceiling (judged from 4 cores; ' +
        'requests per create unchanged)',
    });
    const costly = m({ opsPerSecond: 105, requests: 6_000, operations: 1_000 });
    expect(spreadGoal(costly, one, 2)).toMatchObject({
      verdict: 'missed',
      why: 'requests per create 6 vs 5, more than 5% apart',
    });
  });
});

describe('flat', () => {
  const small = m({ p50Ms: 2 });

  it('compares p50 with the smallest size’s, the smallest being the reference', () => {
    expect(flatAgainst('patched p50', m({ p50Ms: 3 }), small)).toMatchObject({ ok: true });
    expect(flatAgainst('patched p50', m({ p50Ms: 3.2 }), small)).toMatchObject({
      ok: false,
      shortfall: "patched p50 / the smallest size's 1.6×, above 1.5×",
    });
    expect(flatAgainst('patched p50', small, small)).toMatchObject({ ok: true });
  });

  it('uses time per operation when no latency was taken', () => {
    const per1000 = (wallMs: number, operations: number): Measurement => m({ wallMs, operations });
    expect(flatAgainst('time per 1,000', per1000(7_600, 5_000), per1000(2_350, 1_000)).ok).toBe(
      true,
    );
    expect(flatAgainst('time per 1,000', per1000(20_000, 5_000), per1000(2_350, 1_000)).ok).toBe(
      false,
    );
  });
});
