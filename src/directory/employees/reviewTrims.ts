/**
 * The reviews of an employee too many for its delete's own transaction (deleteEmployee.ts),
 * deleted ahead of it: each chunk in a transaction with the Merge that drops their years from the
 * employee's list, conditional on its ETag, so no review outlives the list that names it.
 * Why: docs/directory.md "Reviews bound to their employee".
 */
import { reviewRowKey } from '../../storage/keys/tables/employees';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { RETRY } from '../../storage/optimisticRetry';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';
import type { TransactionFailure } from '../directoryErrors';
import { currentEtag, type EmployeeState } from '../entities/employeeState';
import { employeeReviewYearsMerge, withoutReviewYears } from '../entities/reviewYears';
import { PlannedTransaction, submitPlan } from '../writes/plannedTransaction';
import type { Role } from './deleteEmployeePlan';
import { reviewYearsOf } from './reviews';

/**
 * Most reviews deleted in the employee's own transaction (the budget, less the employee, its
 * email copy, a count shard, the department (a manager's copy is cleared), the last-name index
 * entity, the index outbox row and an archive's receipt).
 */
export const MAX_REVIEWS_WITH_EMPLOYEE = MAX_TRANSACTION_OPERATIONS - 7;
/** Reviews per transaction that trims the review list ahead of the employee's (plus its Merge). */
const REVIEWS_PER_TRIM = MAX_TRANSACTION_OPERATIONS - 1;

/** What a refused transaction of an attempt means (throws when nothing explains it). */
export type Explain = (
  failure: TransactionFailure<Role>,
  plan: PlannedTransaction<Role>,
) => Promise<typeof RETRY>;

/** The delete a trim works for: its employee, and what its attempts learnt so far. */
interface TrimmedDelete {
  table: TableAccess;
  employeeId: string;
  partitionKey: string;
  /** Listed review years whose review turned out to be missing. */
  missingYears: ReadonlySet<number>;
  /** The exact version the caller holds: it follows the trims committed. */
  exactEtag?: string;
}

/**
 * Too many reviews for one transaction: deletes them ahead of the employee, each chunk with the
 * Merge that drops its years from the employee's list (conditional on its ETag).
 *
 * @returns the employee's ETag after the trims and the review years left for its own
 *   transaction, or {@link RETRY} when a trim was refused.
 */
export async function trimReviews(
  call: TrimmedDelete,
  current: EmployeeState,
  explain: Explain,
): Promise<{ etag: string; years: number[] } | typeof RETRY> {
  const { table, employeeId, partitionKey } = call;
  const dataEtag = current.meta.dataEtag ?? current.etag;
  let etag = current.etag;
  let years = withoutReviewYears(await reviewYearsOf(table, current), call.missingYears);
  while (years.length > MAX_REVIEWS_WITH_EMPLOYEE) {
    const rest = years.slice(REVIEWS_PER_TRIM);
    const trim = new PlannedTransaction<Role>().add(
      [
        'update',
        employeeReviewYearsMerge(partitionKey, employeeId, rest, dataEtag),
        'Merge',
        { etag },
      ],
      'employee',
    );
    for (const year of years.slice(0, REVIEWS_PER_TRIM)) {
      trim.add(['delete', { partitionKey, rowKey: reviewRowKey(employeeId, year) }], 'review');
    }
    const trimmed = await submitPlan(table, trim);
    if ('refused' in trimmed) return explain(trimmed.refused, trim);
    const [next] = trimmed.etags;
    etag = next ?? (await currentEtag(table, partitionKey, current.entity.rowKey));
    if (call.exactEtag !== undefined) call.exactEtag = etag;
    years = rest;
  }
  return { etag, years };
}
