/**
 * A move's copies of an employee's reviews (src/orchestrations/move): stored review entities
 * written to the employee in its new department, bound to it as putReview (reviews.ts) binds one
 * review: each transaction carries the Merge that lists their years on the employee, conditional
 * on its ETag.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  departmentPartitionKey,
  parseReviewRowKey,
  reviewRowKey,
} from '../../storage/keys/tables/employees';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { SYSTEM_PROPERTIES, type StoredProperties } from '../../storage/tables/entities';
import {
  MAX_TRANSACTION_OPERATIONS,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { contendedError, notAReviewOf } from '../directoryErrors';
import { submitPlan, unexplainedFailure } from '../writes/plannedTransaction';
import { planReviewYears } from './reviews';

/** Attempts of one chunk of {@link writeReviewEntities} against a changing employee. */
const MAX_CHUNK_ATTEMPTS = 10;

/**
 * Writes (upserts) stored review entities of one employee — a move's copies — bound to the
 * employee as putReview (reviews.ts) is: in transactions of up to 99 reviews, each with the
 * Merge that adds their years to the employee's list, conditional on its ETag (read again when it
 * changed).
 * Writing the same entities again is harmless.
 *
 * @param reviews - review entities of this employee (RowKey `review_<employeeId>_<year>`), with
 *   their stored properties; keys, ETags and timestamps are not copied.
 * @param conditions - per RowKey, the version the stored review must still be (`null`: it must
 *   still be absent); a review without a condition is upserted. A move passes these so that it
 *   never replaces a review someone else wrote after its read.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee does not exist (or was deleted
 *   meanwhile).
 * @throws {ContentionError} when the employee kept changing, or a review no longer met its
 *   condition (nothing of that chunk was written: read again, decide again); {@link DomainError}
 *   for storage faults.
 */
export async function writeReviewEntities(
  table: TableAccess,
  department: string,
  employeeId: string,
  reviews: readonly StoredProperties[],
  conditions: ReadonlyMap<string, string | null> = new Map(),
): Promise<void> {
  const partitionKey = departmentPartitionKey(department);
  const entities = reviews.map((review) => copyOfReview(partitionKey, employeeId, review));
  const chunkSize = MAX_TRANSACTION_OPERATIONS - 1;
  for (let i = 0; i < entities.length; i += chunkSize) {
    const chunk = entities.slice(i, i + chunkSize);
    await retryOptimistically(
      {
        maxAttempts: MAX_CHUNK_ATTEMPTS,
        giveUp: (attempts) => contendedError(`Employee ${employeeId}`, attempts),
      },
      async (attempt) => {
        const plan = await planReviewYears(
          table,
          department,
          employeeId,
          chunk.map((entity) => entity.year),
        );
        for (const { entity } of chunk) plan.add(reviewWrite(entity, conditions), 'review');
        const outcome = await submitPlan(table, plan);
        if (!('refused' in outcome)) return true;
        const failure = outcome.refused;
        if (failure.role === 'review' && conditions.size > 0) {
          throw contendedError(`A review of employee ${employeeId}`, attempt);
        }
        // The employee changed (or was deleted) since the read: read it again.
        if (failure.role !== 'employee') throw unexplainedFailure(failure);
        return RETRY;
      },
    );
  }
}

/** One review's write: conditional when its caller said which version it must still be. */
function reviewWrite(
  entity: TableEntity<StoredProperties>,
  conditions: ReadonlyMap<string, string | null>,
): EntityGroupAction {
  const etag = conditions.get(entity.rowKey);
  if (etag === undefined) return ['upsert', entity, 'Replace'];
  return etag === null ? ['create', entity] : ['update', entity, 'Replace', { etag }];
}

function copyOfReview(
  partitionKey: string,
  employeeId: string,
  review: StoredProperties,
): { year: number; entity: TableEntity<StoredProperties> } {
  const key = typeof review.rowKey === 'string' ? parseReviewRowKey(review.rowKey) : undefined;
  if (!key || key.employeeId !== employeeId) {
    throw notAReviewOf(employeeId, review.rowKey);
  }
  const entity: TableEntity<StoredProperties> = {
    partitionKey,
    rowKey: reviewRowKey(employeeId, key.year),
  };
  for (const [name, value] of Object.entries(review)) {
    if (!SYSTEM_PROPERTIES.has(name) && !name.startsWith('odata.')) entity[name] = value;
  }
  return { year: key.year, entity };
}
