/**
 * Audit of a department's yearly reviews: every review must be listed by its employee
 * (`ReviewYears`). A review is only ever written in one transaction with the Merge that lists it
 * on its employee, and deleted with it, so an unlisted review is an orphan — left by code that
 * wrote reviews before they were bound to their employee — that a later employee with the same id
 * would otherwise show. Repair deletes it, conditional on the ETag read.
 *
 * Race safety: the reviews are read BEFORE the primaries. A review in that read was listed by its
 * employee when it was written; if the employee read afterwards no longer lists it, that employee
 * was deleted (or deleted and re-created) since, which deleted the review too (the conditional
 * delete then fails harmlessly), or the review is a true orphan. An employee written before
 * employees carried the list (no `ReviewYears`) owns every review in its range.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { tookEffect } from '../../storage/storageFaults';
import { parseReviewRowKey } from '../../storage/keys/tables/employees';
import type { AuditCounts } from './auditCounts';
import { readEmployeeMeta } from '../../directory/entities';
import type { StoredEntity } from '../../storage/tables/entities';

/** Reviews (of `reviews`) that no employee of `primaries` lists (pure). */
export function orphanReviews(
  reviews: readonly StoredEntity[],
  primaries: readonly StoredEntity[],
): StoredEntity[] {
  const listed = new Map<string, Set<number> | 'all'>();
  for (const primary of primaries) {
    if (typeof primary.EmployeeId !== 'string') continue;
    const years = readEmployeeMeta(primary).reviewYears;
    listed.set(primary.EmployeeId, years === undefined ? 'all' : new Set(years));
  }
  return reviews.filter((review) => {
    const key = parseReviewRowKey(review.rowKey);
    if (!key) return false;
    const years = listed.get(key.employeeId);
    return years === undefined || (years !== 'all' && !years.has(key.year));
  });
}

/**
 * Counts (and with `repair`, deletes) the reviews of a department that their employee does not
 * list.
 *
 * @param reviews - read BEFORE `primaries`.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function auditOrphanReviews(
  table: TableAccess,
  reviews: readonly StoredEntity[],
  primaries: readonly StoredEntity[],
  repair: boolean,
): Promise<AuditCounts> {
  const checked = reviews.filter((review) => parseReviewRowKey(review.rowKey)).length;
  const orphans = orphanReviews(reviews, primaries);
  const counts: AuditCounts = { checked, missing: 0, stale: orphans.length, repaired: 0 };
  if (!repair) return counts;
  for (const orphan of orphans) {
    const remove = () =>
      table.deleteEntity(orphan.partitionKey, orphan.rowKey, { etag: orphan.etag });
    if (await tookEffect(remove)) counts.repaired++;
  }
  return counts;
}
