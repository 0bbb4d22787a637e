/**
 * What one process remembers between the rounds of its outbox drains
 * (src/indexing/drain/outboxDrain.ts): the versions its own last writes left. A round that only
 * creates entries takes them instead of reading them again; they serve only as conditions of its
 * writes, so a stale one (another process wrote since) costs a lost round, never a wrong index.
 */
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { LruMap } from '../../storage/lruMap';
import type { MemberListSnapshot } from '../lastNames/lastNameStore';

/** See the file comment. */
export interface DrainCache {
  /** Each index partition's fence ETag as this process last wrote it, by PartitionKey. */
  fences: LruMap<string, string>;
  /** Each org-wide member list as this process last wrote it, by normalised last name. */
  lists: LruMap<string, MemberListSnapshot>;
  /**
   * The ETag of each department's listing as this process's count refresh last wrote it, by
   * department (src/directory/departments/listingCount.ts): a refresh then reads no listing.
   */
  listings: LruMap<string, string>;
  /** When this process last refreshed each department's listed count (ms), by department. */
  countRefreshedAt: LruMap<string, number>;
  /** Departments whose listed count a timer of this process refreshes soon (listedCount.ts). */
  trailingRefreshes: Set<string>;
}

/** Index partitions (two per department) and last names remembered, each. */
const REMEMBERED = 2_000;

/** An empty {@link DrainCache}: one per process (configuredIndexStores builds it). */
export function newDrainCache(): DrainCache {
  return {
    fences: new LruMap(REMEMBERED),
    lists: new LruMap(REMEMBERED),
    listings: new LruMap(REMEMBERED),
    countRefreshedAt: new LruMap(REMEMBERED),
    trailingRefreshes: new Set(),
  };
}

/**
 * Forgets what a lost round of `department` used: another drainer is at work there, so whatever
 * else this process remembers of it is likely stale too, and the next round reads it all again
 * instead of losing once per stale version.
 */
export function forgetRound(
  cache: DrainCache | undefined,
  department: string,
  lastNames: readonly string[],
): void {
  if (!cache) return;
  cache.fences.delete(idIndexPartitionKey(department));
  cache.fences.delete(emailIndexPartitionKey(department));
  for (const name of lastNames) cache.lists.delete(name);
}
