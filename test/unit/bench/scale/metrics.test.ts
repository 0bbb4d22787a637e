/**
 * The scale case's pure parts: figures per employee, idle polling taken out, steps bounded by a
 * timeout and a budget, size lists read from the environment, the printed table.
 */
import {
  createBudget,
  formatScaleTable,
  idleRates,
  parseMs,
  parseSizeList,
  perUnit,
  requestsBeyondIdle,
  runBounded,
  stepResult,
} from '../../../../bench/scale/metrics';
import type { TrafficCounts } from '../../../../bench/types';

const traffic = (byKind: Record<string, number>): TrafficCounts => ({
  requests: Object.values(byKind).reduce((a, b) => a + b, 0),
  byKind,
  bytesSent: 0,
  bytesReceived: 0,
  entitiesRead: 0,
});

describe('figures per employee', () => {
  it('divides each total by the rows covered, to four significant digits', () => {
    expect(perUnit(1234, 1000)).toBe(1.234);
    expect(perUnit(20, 20_000)).toBe(0.001);
    expect(perUnit(1, 3)).toBe(0.3333);
    expect(perUnit(5, 0)).toBeNull();
  });

  it('turns a step’s totals into ms, requests and entities per employee', () => {
    const totals = {
      step: 'list',
      size: 5000,
      unit: 'employee' as const,
      units: 5000,
      status: 'ok' as const,
      requests: 5,
      entities: 5000,
      bytes: 1_000_000,
    };
    expect(stepResult({ ...totals, wallMs: 250.4 })).toEqual({
      ...totals,
      wallMs: 250,
      msPerUnit: 0.05008,
      requestsPerUnit: 0.001,
      entitiesPerUnit: 1,
      raw: false,
    });
  });

  it('divides a timed-out step by the rows it got through, not by the size', () => {
    const result = stepResult({
      step: 'import',
      size: 20_000,
      unit: 'employee',
      units: 7000,
      status: 'timedOut',
      wallMs: 240_000,
      requests: 700,
      entities: 0,
      bytes: 0,
      note: 'timed out at 7,000',
    });
    expect(result.msPerUnit).toBe(34.29);
    expect(result.requestsPerUnit).toBe(0.1);
    expect(result.note).toBe('timed out at 7,000');
  });
});

describe('idle polling', () => {
  it('takes out, per kind, what the host polls when idle, never below zero', () => {
    const idle = idleRates(traffic({ 'queue:GET': 50, 'blob:PUT': 5 }), 5_000);
    expect(idle).toEqual({ 'queue:GET': 0.01, 'blob:PUT': 0.001 });
    // 10 s of step: 100 idle receives expected, 10 lease renewals expected.
    const step = traffic({ 'queue:GET': 130, 'table:POST': 20, 'blob:PUT': 4 });
    expect(requestsBeyondIdle(step, idle, 10_000)).toBe(30 + 20 + 0);
  });

  it('has no idle rate for an idle period of no length', () => {
    expect(idleRates(traffic({ 'queue:GET': 5 }), 0)).toEqual({});
    expect(requestsBeyondIdle(traffic({ 'queue:GET': 5 }), {}, 1_000)).toBe(5);
  });
});

describe('bounded steps', () => {
  it('returns the value of a step that finishes in time', async () => {
    const outcome = await runBounded(1_000, async (_signal, progress) => {
      progress.done = 3;
      return 'done';
    });
    expect(outcome).toMatchObject({ status: 'ok', value: 'done', done: 3 });
  });

  it('reports a step out of time with how far it got, and aborts its signal', async () => {
    let aborted = false;
    const outcome = await runBounded(50, async (signal, progress) => {
      signal.addEventListener('abort', () => (aborted = true));
      for (;;) {
        progress.done += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (signal.aborted) throw signal.reason;
      }
    });
    expect(outcome.status).toBe('timedOut');
    expect(outcome.done).toBeGreaterThan(0);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(45);
    expect(aborted).toBe(true);
  });

  it('reports a step that throws as failed, without rejecting', async () => {
    const outcome = await runBounded(1_000, async () => {
      throw new Error('503 from the host');
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.status === 'failed' && (outcome.error as Error).message).toBe(
      '503 from the host',
    );
  });

  it('cuts a step’s timeout to what is left of the budget', () => {
    let now = 1_000;
    const budget = createBudget(10_000, () => now);
    expect(budget.stepTimeout(4_000)).toBe(4_000);
    now += 8_000;
    expect(budget.remaining()).toBe(2_000);
    expect(budget.stepTimeout(4_000)).toBe(2_000);
    now += 5_000;
    expect(budget.remaining()).toBe(0);
  });
});

describe('settings', () => {
  it('reads a size list sorted, without duplicates, accepting _ separators', () => {
    expect(parseSizeList('20000, 1000,5_000,1000', 'S', [1])).toEqual([1000, 5000, 20000]);
    expect(parseSizeList(undefined, 'S', [1000, 5000])).toEqual([1000, 5000]);
    expect(parseSizeList('  ', 'S', [7])).toEqual([7]);
  });

  it('refuses a size that is not a whole number in range, naming the setting', () => {
    expect(() => parseSizeList('1000,abc', 'BENCH_SCALE_SIZES', [])).toThrow(
      'BENCH_SCALE_SIZES must list whole numbers in 1..999999, got "abc".',
    );
    expect(() => parseSizeList('0', 'S', [])).toThrow(/got "0"/);
    expect(() => parseSizeList('1000000', 'S', [])).toThrow(/got "1000000"/);
    expect(parseSizeList('500000', 'S', [], 10_000_000)).toEqual([500_000]);
  });

  it('reads a number of ms', () => {
    expect(parseMs('120000', 'T', 5)).toBe(120_000);
    expect(parseMs(undefined, 'T', 5)).toBe(5);
    expect(() => parseMs('2m', 'T', 5)).toThrow('T must be a whole number of ms, got "2m".');
  });
});

describe('the printed table', () => {
  it('prints one aligned row per step and size, saying how a step ended', () => {
    const table = formatScaleTable([
      stepResult({
        step: 'import',
        size: 1000,
        unit: 'employee',
        units: 1000,
        status: 'ok',
        wallMs: 1400,
        requests: 103,
        entities: 0,
        bytes: 0,
      }),
      stepResult({
        step: 'archive',
        size: 20_000,
        unit: 'employee',
        units: 4000,
        status: 'timedOut',
        wallMs: 240_000,
        requests: 68_000,
        entities: 40_000,
        bytes: 0,
        note: 'timed out after 240 s at 4,000 of 20,000',
      }),
    ]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[0]).toMatch(
      /^step +size +unit +covered +ms\/unit +req\/unit +ent\/unit +wall s +status$/,
    );
    expect(table[1]).toMatch(/^import +1,000 +employee +1,000 +1\.400 +0\.1030 +0\.000 +1\.4$/);
    expect(table[2]).toMatch(
      /^archive +20,000 +employee +4,000 +60\.000 +17\.0000 +10\.000 +240\.0 +TIMED OUT: timed out after 240 s at 4,000 of 20,000$/,
    );
    // Columns line up: the figures end where the header's do.
    expect(table[1]!.length).toBe(table[0]!.indexOf('status') - 2);
    expect(table[2]!.indexOf('TIMED')).toBe(table[0]!.indexOf('status'));
  });
});
