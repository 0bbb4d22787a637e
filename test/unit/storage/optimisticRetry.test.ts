import { ContentionError, ThrottledError } from '../../../src/domainErrors';
import {
  BACKOFF_BASE_MS,
  backoffMs,
  DEFAULT_BACKOFF_CAP_MS,
  RETRY,
  retryOptimistically,
  type RetryTiming,
} from '../../../src/storage/optimisticRetry';
import { contended } from '../../../src/storage/storageErrors';

/** A clock that only moves when the routine sleeps, and a random that always draws `draw`. */
function fakeTiming(draw: number): RetryTiming & { slept: number[]; now: () => number } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    random: () => draw,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

const giveUp = (attempts: number): ContentionError =>
  contended(`Thing kept changing (${attempts} attempts).`, attempts, 3);

describe('the optimistic retry routine', () => {
  it('retries the first loss at once, then waits a random share of a doubling ceiling up to the cap', async () => {
    const timing = fakeTiming(1 - Number.EPSILON);
    let calls = 0;
    const result = await retryOptimistically({ maxAttempts: 10, giveUp, timing }, (n) => {
      calls = n;
      return Promise.resolve(n < 8 ? RETRY : 'written');
    });
    expect(result).toBe('written');
    expect(calls).toBe(8);
    // Seven losses: no wait after the first, then 32, 64, 128 ms, then the 250 ms cap (full draw).
    expect(timing.slept.map(Math.round)).toEqual([32, 64, 128, 250, 250, 250]);
  });

  it('draws each wait uniformly below the ceiling (full jitter)', () => {
    expect(backoffMs(1, 0.5)).toBe(0);
    expect(backoffMs(2, 0.5)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffMs(4, 0.25)).toBe((BACKOFF_BASE_MS * 4) / 4);
    expect(backoffMs(40, 0.5)).toBe(DEFAULT_BACKOFF_CAP_MS / 2);
    expect(backoffMs(40, 0)).toBe(0);
    expect(backoffMs(40, 0.5, 2_000)).toBe(1_000);
    expect(backoffMs(10_000, 0.5, 2_000)).toBe(1_000);
  });

  it('gives up after maxAttempts losses with the contention error, having waited only in between', async () => {
    const timing = fakeTiming(0.5);
    let calls = 0;
    const outcome = retryOptimistically({ maxAttempts: 5, giveUp, timing }, () => {
      calls++;
      return Promise.resolve(RETRY);
    });
    await expect(outcome).rejects.toBeInstanceOf(ContentionError);
    await expect(outcome).rejects.toBeInstanceOf(ThrottledError);
    await expect(outcome).rejects.toMatchObject({
      kind: 'throttled',
      code: 'StorageBusy',
      attempts: 5,
      retryAfterSeconds: 3,
      message: 'Thing kept changing (5 attempts).',
    });
    expect(calls).toBe(5);
    // Four waits between five attempts, none after the last: 0, 16, 32, 64 ms.
    expect(timing.now()).toBe(0 + 16 + 32 + 64);
  });

  it('does not retry what an attempt throws', async () => {
    const timing = fakeTiming(0.5);
    let calls = 0;
    await expect(
      retryOptimistically({ maxAttempts: 5, giveUp, timing }, () => {
        calls++;
        return Promise.reject(new Error('not a lost race'));
      }),
    ).rejects.toThrow('not a lost race');
    expect(calls).toBe(1);
    expect(timing.slept).toEqual([]);
  });

  it('honours a loop’s own cap', async () => {
    const timing = fakeTiming(1 - Number.EPSILON);
    await expect(
      retryOptimistically({ maxAttempts: 4, giveUp, timing, capMs: 40 }, () =>
        Promise.resolve(RETRY),
      ),
    ).rejects.toBeInstanceOf(ContentionError);
    expect(timing.slept.map(Math.round)).toEqual([32, 40]);
  });

  it('starts a loop’s own curve at its base, and waits before the first retry when asked', async () => {
    const timing = fakeTiming(1 - Number.EPSILON);
    await expect(
      retryOptimistically(
        { maxAttempts: 5, giveUp, timing, baseMs: 100, capMs: 500, waitFirst: true },
        () => Promise.resolve(RETRY),
      ),
    ).rejects.toBeInstanceOf(ContentionError);
    // Four losses before the give-up: 100, 200, 400, then the 500 ms cap; none at once.
    expect(timing.slept.map(Math.round)).toEqual([100, 200, 400, 500]);
    expect(backoffMs(1, 0.5, 30_000, 1_000, true)).toBe(500);
    expect(backoffMs(1, 0.5, 30_000, 1_000)).toBe(0);
    expect(backoffMs(3, 0.5, 30_000, 1_000)).toBe(1_000);
  });
});
