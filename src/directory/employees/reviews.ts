/**
 * Yearly reviews (compound key): `review_<employeeId>_<year>` in the department's partition, so
 * every review of one employee is one RowKey range query, ordered by year.
 *
 * Bound to their employee: every review write is one entity group transaction with a Merge of the
 * employee, conditional on its ETag, that lists the review's year (`ReviewYears`, reviewYears.ts).
 * So a review can neither precede nor outlive its employee, and deleting the employee takes
 * exactly the reviews it lists (deleteEmployee.ts), never a list of the partition. A move's
 * copies of reviews are written the same way (reviewCopies.ts).
 */
import { randomUUID } from 'node:crypto';
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  departmentPartitionKey,
  parseReviewRowKey,
  reviewRowKey,
  reviewRowKeyRange,
} from '../../storage/keys/tables/employees';
import { directoryRetry, type DirectoryContext } from '../context';
import {
  employeeNotFound,
  reviewNotFound,
  staleVersion,
  unknownSelectField,
} from '../directoryErrors';
import { withFields } from '../entities/employeeSelect';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from '../entities/entityTypes';
import { currentEtag, type EmployeeState, readEmployeeState } from '../entities/employeeState';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { employeeReviewYearsMerge, normaliseYears, withReviewYears } from '../entities/reviewYears';
import { requireEmployee } from './existence';
import { PlannedTransaction, retryUnexplained, submitPlan } from '../writes/plannedTransaction';
import { pageSizeOf, reviewBodySchema, validateInput } from '../validation';
import type { Versioned } from '../entities/versionCache';
import {
  type StoredEntity,
  type StoredProperties,
  readEntity,
} from '../../storage/tables/entities';
import { readRangePage, readWholeRange, type Page } from '../../storage/tables/rangePages';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';

/**
 * The Merge that records the employee's review years, conditional on the version just read, so
 * the reviews written or deleted beside it in one transaction can neither outlive nor precede it.
 */
function recordReviewYears(
  partitionKey: string,
  employeeId: string,
  years: Iterable<number>,
  employee: EmployeeState,
): EntityGroupAction {
  const merge = employeeReviewYearsMerge(
    partitionKey,
    employeeId,
    years,
    employee.meta.dataEtag ?? employee.etag,
  );
  return ['update', merge, 'Merge', { etag: employee.etag }];
}
/** A review as the API shows it. */
export interface Review {
  year: number;
  managerRating: number;
  peerRating: number;
  comments: string;
}

/** A field of the review JSON that `select` may name. */
export type ReviewField = keyof Review;

/** Every field `select` accepts for reviews. */
export const REVIEW_FIELDS: readonly ReviewField[] = [
  'year',
  'managerRating',
  'peerRating',
  'comments',
];

const FIELD_PROPERTIES: Record<ReviewField, string> = {
  year: 'Year',
  managerRating: 'ManagerRating',
  peerRating: 'PeerRating',
  comments: 'Comments',
};

function reviewEntity(
  partitionKey: string,
  employeeId: string,
  year: number,
  review: Omit<Review, 'year'>,
): TableEntity<StoredProperties> {
  return {
    partitionKey,
    rowKey: reviewRowKey(employeeId, year),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.review,
    EmployeeId: employeeId,
    Year: year,
    ManagerRating: review.managerRating,
    PeerRating: review.peerRating,
    Comments: review.comments,
  };
}

/** A stored review as API JSON (only `fields` and the key `year`); `undefined` for another type. */
function projectReview(
  entity: StoredEntity,
  fields: readonly ReviewField[],
): Record<string, unknown> | undefined {
  const key = parseReviewRowKey(entity.rowKey);
  if (!key || !isEntityOfType(entity, EntityTypes.review)) return undefined;
  // The key comes from the RowKey; the other fields from their properties.
  return withFields({ year: key.year }, fields, (field) =>
    field === 'year' ? undefined : entity[FIELD_PROPERTIES[field]],
  );
}

/**
 * Writes (inserts or replaces) one yearly review of an existing employee, bound to it: ONE entity
 * group transaction merges the review's year into the employee's review years, conditional on the
 * employee's ETag, and writes the review. A review therefore never outlives or precedes its
 * employee: if the employee is deleted (or re-created) between this call's read and its
 * transaction, the transaction fails and nothing is written; and every review an employee has is
 * listed on it, so a delete takes exactly those.
 *
 * The Merge changes the employee entity's ETag but not its data: it keeps the ETag of the last data
 * write in `DataETag`, which `If-Match` on PATCH and DELETE still accepts (employeeState.ts).
 *
 * @param body - `{managerRating, peerRating, comments?}` (validated here; ratings 0-10).
 * @returns the review and the review's new ETag.
 * @throws {ValidationError} for invalid input, department, id or year.
 * @throws {NotFoundError} `EmployeeNotFound`; `ReviewNotFound` when `ifMatch` is given and there is
 *   no review for that year.
 * @throws {PreconditionFailedError} when `ifMatch` is not the review's current ETag.
 * @throws {ThrottledError} when the employee kept changing concurrently, or storage is busy.
 */
export async function putReview(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  year: number,
  body: unknown,
  options: { ifMatch?: string } = {},
): Promise<Versioned<Review>> {
  const input = validateInput(reviewBodySchema, body, 'body');
  const partitionKey = departmentPartitionKey(department);
  reviewRowKey(employeeId, year); // validates id and year before any storage call
  const table = await context.table();
  const review = {
    managerRating: input.managerRating,
    peerRating: input.peerRating,
    comments: input.comments ?? '',
  };
  const writeId = randomUUID();
  const entity = { ...reviewEntity(partitionKey, employeeId, year, review), WriteId: writeId };
  const written = (etag: string): Versioned<Review> => ({ value: { year, ...review }, etag });

  const subject = `Employee ${employeeId}`;
  return retryOptimistically(directoryRetry(context, subject), async (attempt) => {
    const plan = (await planReviewYears(table, department, employeeId, [year])).add(
      options.ifMatch === undefined
        ? ['upsert', entity, 'Replace']
        : ['update', entity, 'Replace', { etag: options.ifMatch }],
      'review',
    );
    const outcome = await submitPlan(table, plan);
    if ('refused' in outcome) {
      const failure = outcome.refused;
      if (failure.status === 412) {
        // The SDK may have resent a transaction whose first answer was lost: is it ours?
        const own = await readEntity(table, partitionKey, entity.rowKey, ['WriteId']);
        if (own?.WriteId === writeId) return written(own.etag);
      }
      if (failure.role === 'review' && failure.status === 404) {
        throw reviewNotFound(employeeId, year);
      }
      if (failure.role === 'review' && failure.status === 412) {
        throw staleVersion(`The ${year} review of employee ${employeeId}`);
      }
      // The employee changed (or was deleted) since the read: read it again.
      if (failure.role === 'employee') return RETRY;
      return retryUnexplained(failure, attempt);
    }
    const [, etag] = outcome.etags;
    return written(etag ?? (await currentEtag(table, partitionKey, entity.rowKey)));
  });
}

/**
 * The years of an employee's reviews: the list the employee carries, or, for an employee written
 * before employees carried one, the years found in its review range (read once; its next review
 * write records them on the employee).
 *
 * @throws {DomainError} for storage faults.
 */
export async function reviewYearsOf(
  table: TableAccess,
  employee: EmployeeState,
): Promise<number[]> {
  if (employee.meta.reviewYears !== undefined) return [...employee.meta.reviewYears];
  const keys = await readWholeRange(
    table,
    { partitionKey: employee.entity.partitionKey, ...reviewRowKeyRange(employee.data.employeeId) },
    ['PartitionKey', 'RowKey'],
  );
  return normaliseYears(
    keys
      .map((key) => parseReviewRowKey(key.rowKey)?.year)
      .filter((year): year is number => year !== undefined),
  );
}

/**
 * One page of an employee's reviews, ordered by year: one range query per page (`pageSize` 1-1000,
 * default 100; `continuationToken` from the previous page, bound to this employee's range).
 *
 * @param select - fields to return (the key `year` always comes back); all when omitted.
 * @throws {ValidationError} for an invalid department, id, select field, page size or token.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee has no reviews because it does not
 *   exist.
 */
export async function listReviews(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  select?: readonly string[],
  options: { pageSize?: number; continuationToken?: string } = {},
): Promise<Page<Record<string, unknown>>> {
  const partitionKey = departmentPartitionKey(department);
  const fields = parseReviewSelect(select);
  const table = await context.table();
  const properties = [
    'PartitionKey',
    'RowKey',
    ENTITY_TYPE_PROPERTY,
    ...fields.map((f) => FIELD_PROPERTIES[f]),
  ];
  const page = await readRangePage(
    table,
    'reviews',
    { partitionKey, ...reviewRowKeyRange(employeeId) },
    {
      pageSize: pageSizeOf(options.pageSize),
      continuationToken: options.continuationToken,
      select: properties,
    },
  );
  const items = page.entities
    .map((e) => projectReview(e, fields))
    .filter((r): r is Record<string, unknown> => r !== undefined);
  if (items.length === 0 && options.continuationToken === undefined) {
    await requireEmployee(context, department, employeeId);
  }
  return { items, continuationToken: page.continuationToken };
}

function parseReviewSelect(select?: readonly string[]): ReviewField[] {
  if (select === undefined) return [...REVIEW_FIELDS];
  for (const field of select) {
    if (!(REVIEW_FIELDS as readonly string[]).includes(field)) {
      throw unknownSelectField(field, REVIEW_FIELDS);
    }
  }
  return select as ReviewField[];
}

/**
 * A transaction that starts with the employee's review-year list grown by `years`, conditional
 * on the employee as read now (its reviews are added by the caller).
 *
 * @throws {NotFoundError} when the employee does not exist.
 */
export async function planReviewYears(
  table: TableAccess,
  department: string,
  employeeId: string,
  years: readonly number[],
): Promise<PlannedTransaction<'employee' | 'review'>> {
  const partitionKey = departmentPartitionKey(department);
  const employee = await readEmployeeState(table, partitionKey, employeeId);
  if (!employee) throw employeeNotFound(department, employeeId);
  const grown = withReviewYears(await reviewYearsOf(table, employee), years);
  return new PlannedTransaction<'employee' | 'review'>().add(
    recordReviewYears(partitionKey, employeeId, grown, employee),
    'employee',
  );
}
