/**
 * Many lists at once over any {@link LastNameStore}: `snapshots` and `changes` one list per request
 * for a store that has nothing better (the blob store), and a drain round's snapshots with the ones
 * its process remembers taken from its cache.
 */
import { mapBounded } from '../../storage/parallel';
import type { LastNameStore, MemberListSnapshot } from './lastNameStore';

/** Lists read or written at once by {@link oneByOne}. */
const LISTS_IN_FLIGHT = 8;

/**
 * `snapshots` and `changes` for a store that reads and writes one list per request (the blob
 * store): each list on its own, {@link LISTS_IN_FLIGHT} at a time.
 */
export function oneByOne(
  store: Pick<LastNameStore, 'snapshot' | 'change'>,
): Pick<LastNameStore, 'snapshots' | 'changes'> {
  return {
    snapshots: (names) => mapBounded(names, LISTS_IN_FLIGHT, (name) => store.snapshot(name)),
    changes: (changes) =>
      mapBounded(changes, LISTS_IN_FLIGHT, (c) => store.change(c.snapshot, c.add, c.remove)),
  };
}

/**
 * The snapshots of `names`, in their order: `cached` where it has one (a drain's own last write
 * of the list: src/indexing/drain/drainCache.ts), the others in one
 * {@link LastNameStore.snapshots}.
 *
 * @throws {DomainError} for storage faults.
 */
export async function snapshotsCached(
  store: LastNameStore,
  names: readonly string[],
  cached: (name: string) => MemberListSnapshot | undefined,
): Promise<MemberListSnapshot[]> {
  const known = names.map(cached);
  const missing = names.filter((_, i) => known[i] === undefined);
  const read = missing.length === 0 ? [] : await store.snapshots(missing);
  let next = 0;
  return known.map((list) => list ?? read[next++]!);
}
