/**
 * Bounded parallel maps: never more calls in flight than the limit, results in input order; the
 * failing-fast map starts nothing after a failure, the settled map runs every item.
 */
import { mapBounded, mapSettled } from '../../../src/storage/parallel';

/** A task that records how many calls run at once and finishes when released. */
function gatedTask(): {
  task: (item: number) => Promise<number>;
  maxInFlight: () => number;
  started: number[];
  release: () => void;
} {
  let inFlight = 0;
  let max = 0;
  const started: number[] = [];
  const waiting: (() => void)[] = [];
  return {
    started,
    maxInFlight: () => max,
    release: () => waiting.splice(0).forEach((resume) => resume()),
    task: async (item) => {
      started.push(item);
      inFlight += 1;
      max = Math.max(max, inFlight);
      await new Promise<void>((resume) => waiting.push(resume));
      inFlight -= 1;
      return item * 10;
    },
  };
}

async function drain(gate: { release: () => void }, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    gate.release();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('mapBounded', () => {
  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    const gate = gatedTask();
    const mapped = mapBounded([1, 2, 3, 4, 5, 6, 7], 3, gate.task);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.started).toEqual([1, 2, 3]);
    await drain(gate, mapped);
    expect(await mapped).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(gate.maxInFlight()).toBe(3);
  });

  it('rejects with the first failure and starts no further call', async () => {
    const started: number[] = [];
    const mapped = mapBounded([1, 2, 3, 4], 1, async (item) => {
      started.push(item);
      if (item === 2) throw new Error('item 2 failed');
      return item;
    });
    await expect(mapped).rejects.toThrow('item 2 failed');
    expect(started).toEqual([1, 2]);
  });

  it('returns an empty array for no items, whatever the limit', async () => {
    await expect(mapBounded([], 0, async () => 1)).resolves.toEqual([]);
  });
});

describe('mapSettled', () => {
  it('runs every item and reports each outcome in input order', async () => {
    const outcomes = await mapSettled([1, 2, 3], 2, async (item) => {
      if (item === 2) throw new Error('no');
      return item;
    });
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('no') },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  it('keeps at most `limit` calls in flight', async () => {
    const gate = gatedTask();
    const mapped = mapSettled([1, 2, 3, 4, 5], 2, gate.task);
    await drain(gate, mapped);
    expect(gate.maxInFlight()).toBe(2);
    expect((await mapped).map((o) => o.status)).toEqual(Array(5).fill('fulfilled'));
  });
});
