/**
 * Parallel work with a ceiling on how many calls are in flight, so a request that touches many
 * tables, blobs or messages does not open dozens of sockets at once.
 */

/**
 * Maps `items` through `fn` with at most `limit` calls running at a time; results keep the items'
 * order. The first failure rejects the whole map and starts no further call (calls already
 * started still finish).
 *
 * @throws whatever `fn` throws first.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Like {@link mapBounded}, but every item runs whatever the others do: each result says whether
 * its call fulfilled or rejected (as `Promise.allSettled` does). Never throws.
 */
export function mapSettled<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  // A call that cannot throw never stops the pool.
  return mapBounded(items, limit, async (item, index): Promise<PromiseSettledResult<R>> => {
    try {
      return { status: 'fulfilled', value: await fn(item, index) };
    } catch (reason) {
      return { status: 'rejected', reason };
    }
  });
}
