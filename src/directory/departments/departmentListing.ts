/**
 * One true department list: the listing copy of a department (`.departments` partition) can
 * never stay different from the department.
 *
 * The department and its listing live in different partitions, so no entity group transaction
 * can hold both. Instead the department entity carries `ListingVersion`, increased (under the
 * department's ETag) by every write that changes what the listing copies, and the listing carries
 * the version it copies. A writer copies the version it wrote, and the copy only ever replaces an
 * OLDER one: it reads the listing, then inserts it (none yet) or replaces it with `If-Match` the
 * ETag it read, and starts over when another writer got there first. So whichever order
 * concurrent writers' copies land in, the newest department version is what stays listed; and a
 * writer that died before its copy is repaired by the next write or by the index audit, which
 * calls the same function. A replacement keeps the count the listing carries (the index drain's,
 * listingCount.ts): it is conditional on the ETag of the read it copies the count from.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  isAlreadyExists,
  isNotFound,
  isPreconditionFailed,
  toDomainError,
} from '../../storage/storageFaults';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../storage/keys/tables/employees';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { contendedError } from '../directoryErrors';
import {
  departmentListingEntity,
  readDepartmentListing,
  readListedCount,
  storedVersion,
  type DepartmentSummary,
  type ListedCount,
} from '../entities/departmentEntity';
import { type StoredEntity, readEntity } from '../../storage/tables/entities';

/** What {@link syncDepartmentListing} found and did. */
export type ListingOutcome =
  /** The listing now copies this version (this call wrote it). */
  | 'written'
  /** The listing already copied this version. */
  | 'current'
  /** The listing copies a newer version (a later write got there first): left alone. */
  | 'newer';

/** Rounds against other writers of the same listing before giving up. */
const MAX_ROUNDS = 20;

/** The version a stored listing copies (0 for a listing written before listings carried it). */
export function listingVersionOf(listing: StoredEntity): number {
  return storedVersion(listing.Version);
}

/**
 * Whether a stored listing must be replaced by the copy of `summary` at `version` (pure): when it
 * copies an older version, or the same version with different content (a listing written before
 * listings carried versions).
 */
export function listingNeedsUpdate(
  listing: StoredEntity,
  summary: DepartmentSummary,
  version: number,
): ListingOutcome | 'replace' {
  const stored = listingVersionOf(listing);
  if (stored > version) return 'newer';
  const content = readDepartmentListing(listing);
  if (stored === version && content?.description === summary.description) return 'current';
  return 'replace';
}

/**
 * Makes the department's listing copy `summary` at `version`, unless it already copies that or a
 * newer version. Idempotent. A new listing carries `count` (none: the list reads the department's
 * count itself until a drain writes one); a replaced one keeps the count it carried.
 *
 * @throws {ContentionError} when other writers kept changing the listing.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function syncDepartmentListing(
  table: TableAccess,
  summary: DepartmentSummary,
  version: number,
  count?: ListedCount,
): Promise<ListingOutcome> {
  const rowKey = departmentListRowKey(summary.name);
  const retry = {
    maxAttempts: MAX_ROUNDS,
    giveUp: (attempts: number) =>
      contendedError(`The listing of department "${summary.name}"`, attempts),
  };
  return retryOptimistically<ListingOutcome>(retry, async () => {
    const listing = await readEntity(table, DEPARTMENT_LIST_PARTITION_KEY, rowKey);
    try {
      if (!listing) {
        await table.createEntity(departmentListingEntity(summary, version, count));
        return 'written';
      }
      const decision = listingNeedsUpdate(listing, summary, version);
      if (decision !== 'replace') return decision;
      const kept = readListedCount(listing);
      const entity = departmentListingEntity(summary, version, kept);
      await table.updateEntity(entity, 'Replace', { etag: listing.etag });
      return 'written';
    } catch (error) {
      // Another writer's copy landed between our read and our write: look again.
      if (isAlreadyExists(error) || isPreconditionFailed(error) || isNotFound(error)) return RETRY;
      throw toDomainError(error);
    }
  });
}
