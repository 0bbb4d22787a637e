/**
 * The health probe's cost is bounded per instance: one probe per interval, shared by concurrent
 * callers, whatever the request rate.
 */
import { CachedHealthCheck, type HealthReport } from '../../src/health/health';

const OK: HealthReport = {
  status: 'ok',
  storage: 'ok',
  services: { table: true, queue: true, blob: true },
};
const DOWN: HealthReport = {
  status: 'degraded',
  storage: 'unreachable',
  services: { table: false, queue: false, blob: false },
};

describe('CachedHealthCheck', () => {
  it('answers 200 concurrent callers with one probe', async () => {
    let probes = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const check = new CachedHealthCheck(async () => {
      probes += 1;
      await gate;
      return OK;
    });
    const pending = Array.from({ length: 200 }, () => check.report());
    release();
    expect(await Promise.all(pending)).toEqual(Array.from({ length: 200 }, () => OK));
    expect(probes).toBe(1);
  });

  it('reuses the last report within the interval and probes again after it, failures included', async () => {
    let clock = 0;
    const results = [DOWN, OK];
    let probes = 0;
    const check = new CachedHealthCheck(
      async () => results[probes++] ?? OK,
      5_000,
      () => clock,
    );
    for (let i = 0; i < 100; i += 1) {
      expect(await check.report()).toBe(DOWN);
      clock += 49; // 100 calls within 4.9 s
    }
    expect(probes).toBe(1);
    clock = 5_000;
    expect(await check.report()).toBe(OK);
    expect(probes).toBe(2);
  });

  it('does not keep a rejected probe: the next caller probes again', async () => {
    let probes = 0;
    const check = new CachedHealthCheck(async () => {
      probes += 1;
      if (probes === 1) throw new Error('boom');
      return OK;
    });
    await expect(check.report()).rejects.toThrow('boom');
    expect(await check.report()).toBe(OK);
    expect(probes).toBe(2);
  });
});
