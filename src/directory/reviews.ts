/**
 * Yearly reviews (compound key): `review_<employeeId>_<year>` in the department's partition, so
 * every review of one employee is one RowKey range query, ordered by year.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import { ValidationError } from '../errors';
import { withStorageErrors } from '../storage/errors';
import {
  departmentPartitionKey,
  employeeRowKey,
  parseReviewRowKey,
  reviewRowKey,
  reviewRowKeyRange,
} from '../storage/keys';
import type { DirectoryContext } from './context';
import { employeeNotFound, staleVersion } from './directoryErrors';
import type { StoredEntity, StoredProperties } from './employeeEntity';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
import { readWholeRange } from './paging';
import { readEntity } from './state';
import { PlannedTransaction, submitPlanned, TransactionFailure } from './transaction';
import { reviewBodySchema, validateInput } from './validation';
import type { Versioned } from './versionCache';

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

/** A stored review as API JSON (only `fields` plus the key `year`); `undefined` for another type. */
function projectReview(
  entity: StoredEntity,
  fields: readonly ReviewField[],
): Record<string, unknown> | undefined {
  const key = parseReviewRowKey(entity.rowKey);
  if (!key || !isEntityOfType(entity, EntityTypes.review)) return undefined;
  const json: Record<string, unknown> = { year: key.year };
  for (const field of fields) {
    if (field === 'year') continue;
    const value = entity[FIELD_PROPERTIES[field]];
    if (value !== undefined) json[field] = value;
  }
  return json;
}

/**
 * Writes (inserts or replaces) one yearly review of an existing employee.
 *
 * @param body - `{managerRating, peerRating, comments?}` (validated here; ratings 0-10).
 * @throws {ValidationError} for invalid input, department, id or year.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {PreconditionFailedError} when `ifMatch` is not the review's current ETag.
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
  const employee = await readEntity(table, partitionKey, employeeRowKey(employeeId), [
    'RowKey',
    ENTITY_TYPE_PROPERTY,
  ]);
  if (!employee || !isEntityOfType(employee, EntityTypes.employee))
    throw employeeNotFound(department, employeeId);
  const review = {
    managerRating: input.managerRating,
    peerRating: input.peerRating,
    comments: input.comments ?? '',
  };
  const entity = reviewEntity(partitionKey, employeeId, year, review);
  const response = await withStorageErrors(
    () =>
      options.ifMatch === undefined
        ? table.upsertEntity(entity, 'Replace')
        : table.updateEntity(entity, 'Replace', { etag: options.ifMatch }),
    {
      notFound: {
        code: 'ReviewNotFound',
        message: `Employee ${employeeId} has no review for ${year} to match If-Match against.`,
      },
      preconditionFailed: staleVersion(`The ${year} review of employee ${employeeId}`).message,
    },
  );
  return { value: { year, ...review }, etag: response.etag ?? '' };
}

/**
 * Every review of one employee, ordered by year: one range query.
 *
 * @param select - fields to return (the key `year` always comes back); all when omitted.
 * @throws {ValidationError} for an invalid department, id or select field.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee has no reviews because it does not exist.
 */
export async function listReviews(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  select?: readonly string[],
): Promise<{ items: Record<string, unknown>[] }> {
  const partitionKey = departmentPartitionKey(department);
  const fields = parseReviewSelect(select);
  const table = await context.table();
  const properties = [
    'PartitionKey',
    'RowKey',
    ENTITY_TYPE_PROPERTY,
    ...fields.map((f) => FIELD_PROPERTIES[f]),
  ];
  const entities = await readWholeRange(
    table,
    { partitionKey, ...reviewRowKeyRange(employeeId) },
    properties,
  );
  const items = entities
    .map((e) => projectReview(e, fields))
    .filter((r): r is Record<string, unknown> => r !== undefined);
  if (items.length === 0) {
    const employee = await readEntity(table, partitionKey, employeeRowKey(employeeId), [
      'RowKey',
      ENTITY_TYPE_PROPERTY,
    ]);
    if (!employee || !isEntityOfType(employee, EntityTypes.employee))
      throw employeeNotFound(department, employeeId);
  }
  return { items };
}

function parseReviewSelect(select?: readonly string[]): ReviewField[] {
  if (select === undefined) return [...REVIEW_FIELDS];
  for (const field of select) {
    if (!(REVIEW_FIELDS as readonly string[]).includes(field)) {
      throw new ValidationError(
        `query.select: unknown field "${field}"; use ${REVIEW_FIELDS.join(', ')}.`,
        'query.select',
        'InvalidSelect',
      );
    }
  }
  return select as ReviewField[];
}

/**
 * Removes every review of one employee (after the employee is deleted), in transactions of up to
 * 100 deletes. Idempotent: a review already gone makes it list again and carry on.
 *
 * @throws {DomainError} for storage faults.
 */
export async function purgeReviews(
  table: TableClient,
  partitionKey: string,
  employeeId: string,
): Promise<void> {
  const range = { partitionKey, ...reviewRowKeyRange(employeeId) };
  for (let round = 0; round < 5; round++) {
    const keys = await readWholeRange(table, range, ['PartitionKey', 'RowKey']);
    if (keys.length === 0) return;
    try {
      for (let i = 0; i < keys.length; i += 100) {
        const plan = new PlannedTransaction<string>();
        for (const key of keys.slice(i, i + 100))
          plan.add(['delete', { partitionKey, rowKey: key.rowKey }], key.rowKey);
        await submitPlanned(table, plan);
      }
      return;
    } catch (error) {
      if (!(error instanceof TransactionFailure)) throw error;
    }
  }
}
