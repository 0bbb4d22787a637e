/**
 * The reviews a move carries: those the source employee lists, read after it, upserted into the
 * target in transactions of up to 99, each conditional on the target employee's ETag, and only
 * where the move still owns the target's review (copyToTarget.ts runs them after the employee).
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { reviewYearsOf, writeReviewEntities } from '../../directory/moveWrites';
import type { EmployeeState } from '../../directory/entities';
import {
  departmentPartitionKey,
  parseReviewRowKey,
  reviewRowKeyRange,
} from '../../storage/keys/tables/employees';
import type { StoredEntity, StoredProperties } from '../../storage/tables/entities';
import { readWholeRange } from '../../storage/tables/rangePages';
import { MOVE_MARKER_PROPERTY, type MoveInput } from './moveRequest';

/**
 * The reviews the source employee lists (all of its review range for an employee written before
 * employees carried the list), with their ETags.
 *
 * @throws {DomainError} for storage faults.
 */
export async function sourceReviews(
  table: TableAccess,
  source: EmployeeState,
): Promise<StoredEntity[]> {
  const years = new Set(await reviewYearsOf(table, source));
  if (years.size === 0) return [];
  const stored = await readWholeRange(table, {
    partitionKey: source.entity.partitionKey,
    ...reviewRowKeyRange(source.data.employeeId),
  });
  return stored.filter((review) => {
    const key = parseReviewRowKey(review.rowKey);
    return key !== undefined && years.has(key.year);
  });
}

/**
 * Writes the source's reviews into the target, each only where the move still owns it: absent
 * there (written only if still absent) or the move's own copy (replaced only if still that
 * version, and only when it differs). A review written on the target is left as it is.
 *
 * @throws {ThrottledError} when a review or the employee changed meanwhile (the activity retries).
 * @throws {NotFoundError} `EmployeeNotFound` when the target copy was deleted meanwhile.
 */
export async function copyReviews(
  table: TableAccess,
  move: MoveInput,
  reviews: readonly StoredEntity[],
  marker: string,
): Promise<void> {
  if (reviews.length === 0) return;
  const existing = new Map(
    (
      await readWholeRange(table, {
        partitionKey: departmentPartitionKey(move.toDepartment),
        ...reviewRowKeyRange(move.employeeId),
      })
    ).map((review) => [review.rowKey, review]),
  );
  const conditions = new Map<string, string | null>();
  const writes: StoredProperties[] = [];
  for (const review of reviews) {
    const copy: StoredProperties = { ...review, [MOVE_MARKER_PROPERTY]: marker };
    const stored = existing.get(review.rowKey);
    if (stored && (stored[MOVE_MARKER_PROPERTY] !== marker || sameData(stored, copy))) continue;
    conditions.set(review.rowKey, stored ? stored.etag : null);
    writes.push(copy);
  }
  await writeReviewEntities(table, move.toDepartment, move.employeeId, writes, conditions);
}

/** True when two stored entities hold the same properties (keys, ETags and timestamps aside). */
function sameData(a: StoredProperties, b: StoredProperties): boolean {
  const data = (entity: StoredProperties): [string, unknown][] =>
    Object.entries(entity)
      .filter(([name]) => !['partitionKey', 'rowKey', 'etag', 'timestamp'].includes(name))
      .filter(([name]) => !name.startsWith('odata.'))
      .sort(([x], [y]) => x.localeCompare(y));
  return JSON.stringify(data(a)) === JSON.stringify(data(b));
}
