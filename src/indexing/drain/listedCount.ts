/**
 * The drains' side of the department listing's count (src/directory/departments/listingCount.ts):
 * which drains refresh it and how often. A drain that answers a write's cover refreshes it once
 * after the drain (sharedDrains.ts): one cover per department and window, so a burst of writes
 * costs one refresh, and the count it reads comes after every covered commit. Every drain round
 * that drained a membership change (the writer's, the queue worker's, the sweep's) refreshes it
 * too, at most once per {@link COUNT_REFRESH_EVERY_MS} per department and process: a burst's first
 * write shows in the list at once, the rest by one refresh trailing it (a timer: lost if the
 * process stops, when the cover still refreshes).
 *
 * Why: docs/queues.md "The listed employee count".
 */
import { refreshListingCount, type CountRefresh } from '../../directory/departments';
import type { IndexStores } from '../indexStores';

/** Shortest time between two refreshes of one department by drain rounds of one process. */
export const COUNT_REFRESH_EVERY_MS = 5_000;

/**
 * Refreshes the department listing's count with the process's remembered listing ETags, and
 * notes when (for {@link refreshAfterRound}).
 *
 * @throws {ContentionError} when other writers kept changing the listing.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function refreshListedCount(
  stores: IndexStores,
  department: string,
  now: () => number = Date.now,
): Promise<CountRefresh> {
  const startedAt = now();
  const outcome = await refreshListingCount(stores.employees, department, {
    etags: stores.drainCache?.listings,
  });
  stores.drainCache?.countRefreshedAt.set(department, startedAt);
  return outcome;
}

/**
 * The refresh of a drain round that drained a membership change: at once, unless this process
 * refreshed the department less than `everyMs` ago — then one refresh trails at `everyMs` after
 * that one (a timer shared by the rounds until then; its failure is left to the cover).
 *
 * @throws {ContentionError} when other writers kept changing the listing (a refresh at once).
 * @throws {DomainError} for storage faults (a refresh at once).
 */
export async function refreshAfterRound(
  stores: IndexStores,
  department: string,
  everyMs: number,
  now: () => number = Date.now,
): Promise<void> {
  const cache = stores.drainCache;
  const last = cache?.countRefreshedAt.get(department);
  const wait = last === undefined ? 0 : last + everyMs - now();
  if (!cache || wait <= 0) {
    await refreshListedCount(stores, department, now);
    return;
  }
  if (cache.trailingRefreshes.has(department)) return;
  cache.trailingRefreshes.add(department);
  const timer = setTimeout(() => {
    cache.trailingRefreshes.delete(department);
    refreshListedCount(stores, department, now).catch(() => undefined);
  }, wait);
  timer.unref();
}
