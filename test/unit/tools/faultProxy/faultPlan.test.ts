import {
  createFaultPlan,
  FAULT_KINDS,
  seededRandom,
  validateFaultSettings,
  type FaultKind,
  type FaultSettings,
  type StorageService,
} from '../../../../tools/faultProxy/faultPlan';

function outcomes(
  settings: FaultSettings,
  service: StorageService,
  count: number,
): (FaultKind | undefined)[] {
  const plan = createFaultPlan(settings);
  return Array.from({ length: count }, () => plan.next(service));
}

describe('fault plan', () => {
  it('replays exactly the same faults for the same seed', () => {
    const settings: FaultSettings = { rate: 0.3, kinds: ['503', 'reset', 'timeout'], seed: 42 };
    expect(outcomes(settings, 'table', 500)).toEqual(outcomes(settings, 'table', 500));
  });

  it('gives a different sequence for another seed', () => {
    const base: FaultSettings = { rate: 0.3, kinds: ['503', 'reset'], seed: 1 };
    expect(outcomes(base, 'blob', 200)).not.toEqual(outcomes({ ...base, seed: 2 }, 'blob', 200));
  });

  it('faults about the chosen fraction of requests, spread over every kind', () => {
    const kinds: FaultKind[] = ['500', '503', '503-retry-after', 'reset'];
    const results = outcomes({ rate: 0.3, kinds, seed: 7 }, 'queue', 10_000);
    const faulted = results.filter((r) => r !== undefined);
    expect(faulted.length / results.length).toBeGreaterThan(0.27);
    expect(faulted.length / results.length).toBeLessThan(0.33);
    for (const kind of kinds) {
      const share = faulted.filter((r) => r === kind).length / faulted.length;
      expect(share).toBeGreaterThan(0.2);
      expect(share).toBeLessThan(0.3);
    }
  });

  it('never faults at rate 0 and always at rate 1', () => {
    expect(
      outcomes({ rate: 0, kinds: ['503'], seed: 3 }, 'table', 1000).every((r) => r === undefined),
    ).toBe(true);
    expect(
      outcomes({ rate: 1, kinds: ['reset'], seed: 3 }, 'table', 1000).every((r) => r === 'reset'),
    ).toBe(true);
  });

  it('leaves services outside the chosen ones alone, without shifting their sequence', () => {
    const plan = createFaultPlan({ rate: 1, kinds: ['503'], services: ['table'], seed: 9 });
    expect(plan.next('blob')).toBeUndefined();
    expect(plan.next('queue')).toBeUndefined();
    expect(plan.next('table')).toBe('503');
  });

  it('holds timeouts for 10 s unless told otherwise', () => {
    expect(createFaultPlan({ rate: 0.1, kinds: ['timeout'] }).timeoutMs).toBe(10_000);
    expect(createFaultPlan({ rate: 0.1, kinds: ['timeout'], timeoutMs: 250 }).timeoutMs).toBe(250);
  });

  it('reports the seed it used, so a random run can be replayed', () => {
    const plan = createFaultPlan({ rate: 0.5, kinds: ['503'] });
    const replay = createFaultPlan({ rate: 0.5, kinds: ['503'], seed: plan.seed });
    const first = Array.from({ length: 100 }, () => plan.next('table'));
    expect(Array.from({ length: 100 }, () => replay.next('table'))).toEqual(first);
  });

  it.each([
    [{ rate: -0.1, kinds: ['503'] }, /rate/],
    [{ rate: 1.5, kinds: ['503'] }, /rate/],
    [{ rate: Number.NaN, kinds: ['503'] }, /rate/],
    [{ rate: 0.1, kinds: [] }, /kinds/],
    [{ rate: 0.1, kinds: ['502'] }, /Unknown fault kind "502"/],
    [{ rate: 0.1, kinds: ['503'], services: ['file'] }, /Unknown service "file"/],
    [{ rate: 0.1, kinds: ['timeout'], timeoutMs: -1 }, /timeoutMs/],
  ])('rejects %j naming the problem', (settings, message) => {
    expect(() => validateFaultSettings(settings as FaultSettings)).toThrow(message);
  });

  it('knows every documented kind, including reset-after', () => {
    expect([...FAULT_KINDS].sort()).toEqual(
      ['500', '503', '503-retry-after', 'reset', 'reset-after', 'timeout'].sort(),
    );
  });
});

describe('seeded random numbers', () => {
  it('stay in [0, 1) and do not repeat a short cycle', () => {
    const random = seededRandom(123);
    const values = Array.from({ length: 10_000 }, random);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(9_990);
  });
});
