/**
 * The records of `EmployeesArchive`: one set per incarnation of an employee (keys/archive.ts), the
 * employee entity after its reviews. Written, read and — for a copy the one-employee sequence must
 * take back (archiveEmployee.ts) — removed here.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../storage/tables/tableAccess';
import type { Employee, Versioned } from '../directory';
import { ensureTable } from '../storage/createOnce';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../storage/tables/entityGroupTransaction';
import { tookEffect, withStorageErrors } from '../storage/storageFaults';
import { archivedEmployeeNotFound } from './archiveErrors';
import { rowKeyRangeFilter } from '../storage/tables/filters';
import {
  archivedEmployeeRowKeyRange,
  archiveRowKey,
  parseArchiveRowKey,
} from '../storage/keys/tables/archive';
import {
  departmentPartitionKey,
  parseReviewRowKey,
  reviewRowKeyRange,
} from '../storage/keys/tables/employees';
import {
  EntityTypes,
  isEntityOfType,
  readEmployeeMeta,
  storedToEmployee,
} from '../directory/entities';
import {
  SYSTEM_PROPERTIES,
  type StoredEntity,
  type StoredProperties,
} from '../storage/tables/entities';
import { readWholeRange } from '../storage/tables/rangePages';

/** A stored entity with its keys. */
export type StoredRow = StoredProperties & { partitionKey: string; rowKey: string };

/** The archive copy of a stored entity of one incarnation, under its per-incarnation key. */
export function archivable(entity: StoredRow, incarnation: string): TableEntity<StoredProperties> {
  const copy: TableEntity<StoredProperties> = {
    partitionKey: entity.partitionKey,
    rowKey: archiveRowKey(entity.rowKey, incarnation),
  };
  for (const [name, value] of Object.entries(entity)) {
    if (!SYSTEM_PROPERTIES.has(name)) {
      copy[name] = value;
    }
  }
  return copy;
}

/**
 * Property of an archive record written by the one-employee sequence (archiveEmployee.ts): the ETag
 * of the directory version it holds. The receipt of that version's removal
 * (`archived_<id>.<incarnation>` in `Employees`, see {@link archiveReceipt}) confirms it; a record
 * without the property (the department archive's, or written before receipts) is archived as it
 * stands.
 */
export const ARCHIVED_FROM_PROPERTY = 'ArchivedFromETag';

/** Payload budget of one archive transaction: under the 4 MiB limit with room for the framing. */
const MAX_COPY_CHARS = 3_500_000;

/**
 * Takes a record this sequence copied, whose removal never happened, back out of the archive:
 * the employee record conditional on the version read (a lost condition leaves it: another run
 * rewrote it, and settles it itself), then the incarnation's archived reviews.
 *
 * @throws {DomainError} for storage faults.
 */
export async function discardRecord(
  archive: TableAccess,
  record: StoredEntity,
  employeeId: string,
  incarnation: string,
): Promise<void> {
  const removed = await tookEffect(() =>
    archive.deleteEntity(record.partitionKey, record.rowKey, { etag: record.etag }),
  );
  if (!removed) return;
  const reviews = (
    await readReviews(archive, record.partitionKey, reviewRowKeyRange(employeeId))
  ).filter((review) => parseArchiveRowKey(review.rowKey).incarnation === incarnation);
  for (let i = 0; i < reviews.length; i += MAX_TRANSACTION_OPERATIONS) {
    await withStorageErrors(() =>
      submitEntityGroupTransaction(
        archive,
        reviews
          .slice(i, i + MAX_TRANSACTION_OPERATIONS)
          .map((review) => [
            'delete',
            { partitionKey: review.partitionKey, rowKey: review.rowKey },
          ]),
      ),
    );
  }
}

/**
 * Upserts same-partition entities in entity group transactions of up to 100 (and ~3.5 MB), in
 * order: an entity is written by the same transaction as the entities before it, or a later one,
 * so an employee that follows its reviews is present only once they are. With `lastIfMatch`, the
 * last entity is written only over that version (`null`: only where there is none yet), and its
 * whole transaction fails otherwise.
 *
 * @throws {PreconditionFailedError} (412), or a 409 storage error, when `lastIfMatch` no longer
 *   holds.
 * @throws {DomainError} for storage faults (nothing after the failed transaction is written).
 */
export async function copyToArchive(
  archive: TableAccess,
  entities: TableEntity<StoredProperties>[],
  options: { lastIfMatch?: string | null } = {},
): Promise<void> {
  const { lastIfMatch } = options;
  const last = entities.at(-1);
  const batches: TableEntity<StoredProperties>[][] = [];
  let batch: TableEntity<StoredProperties>[] = [];
  let chars = 0;
  for (const entity of entities) {
    const size = JSON.stringify(entity).length;
    if (
      batch.length > 0 &&
      (batch.length === MAX_TRANSACTION_OPERATIONS || chars + size > MAX_COPY_CHARS)
    ) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(entity);
    chars += size;
  }
  if (batch.length > 0) batches.push(batch);
  const actionOf = (entity: TableEntity<StoredProperties>): EntityGroupAction => {
    if (entity !== last || lastIfMatch === undefined) return ['upsert', entity, 'Replace'];
    return lastIfMatch === null
      ? ['create', entity]
      : ['update', entity, 'Replace', { etag: lastIfMatch }];
  };
  for (const chunk of batches) {
    await withStorageErrors(async () => {
      const actions = chunk.map(actionOf);
      const [only] = actions;
      if (actions.length === 1 && only && only[0] === 'upsert') {
        await archive.upsertEntity(only[1], 'Replace');
      } else {
        await submitEntityGroupTransaction(archive, actions);
      }
    });
  }
}

/**
 * Of the reviews read after `employee` (any employee's), those it lists (pure); for an employee
 * written before employees carried the list, all of its own.
 */
export function listedReviews<R extends { rowKey: string }>(
  employee: StoredProperties,
  reviews: readonly R[],
): R[] {
  const employeeId = employee.EmployeeId;
  const years = readEmployeeMeta(employee).reviewYears;
  const listed = years && new Set(years);
  return reviews.filter((review) => {
    const key = parseReviewRowKey(review.rowKey);
    return (
      key !== undefined &&
      key.employeeId === employeeId &&
      (listed === undefined || listed.has(key.year))
    );
  });
}

/**
 * The reviews in a range of review keys (one employee's, or those of an id range), as stored.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readReviews(
  table: TableAccess,
  partitionKey: string,
  range: { ge: string; lt: string },
): Promise<(StoredRow & { etag: string })[]> {
  return withStorageErrors(async () => {
    const reviews: (StoredRow & { etag: string })[] = [];
    for await (const entity of table.listEntities<StoredProperties>({
      queryOptions: { filter: rowKeyRangeFilter(partitionKey, range) },
    })) {
      reviews.push({ ...entity, partitionKey, rowKey: entity.rowKey ?? '', etag: entity.etag });
    }
    return reviews;
  });
}

/**
 * The newest archive record of the employee (the latest `ArchivedAt` among its incarnations'),
 * or `undefined`.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readNewestArchived(
  archive: TableAccess,
  partitionKey: string,
  employeeId: string,
): Promise<StoredEntity | undefined> {
  const records = await readWholeRange(archive, {
    partitionKey,
    ...archivedEmployeeRowKeyRange(employeeId),
  });
  const archivedAt = (entity: StoredEntity): number => {
    const value = entity.ArchivedAt;
    const time =
      value instanceof Date || typeof value === 'string' ? new Date(value).getTime() : NaN;
    return Number.isNaN(time) ? 0 : time;
  };
  let newest: StoredEntity | undefined;
  for (const record of records) {
    if (!isEntityOfType(record, EntityTypes.employee)) continue;
    if (!newest || archivedAt(record) > archivedAt(newest)) newest = record;
  }
  return newest;
}

/**
 * An archived employee, with the ETag of its archive entity: when the id was archived more than
 * once (one record per incarnation), the one archived last.
 *
 * @throws {NotFoundError} `ArchivedEmployeeNotFound` until the move has happened.
 * @throws {DomainError} for storage faults.
 */
export async function getArchivedEmployee(
  archive: TableAccess,
  department: string,
  employeeId: string,
): Promise<Versioned<Employee>> {
  await ensureTable(archive);
  const entity = await readNewestArchived(archive, departmentPartitionKey(department), employeeId);
  const employee = entity ? storedToEmployee(entity) : undefined;
  if (!employee || !entity?.etag) {
    throw archivedEmployeeNotFound(department, employeeId);
  }
  return { value: employee, etag: entity.etag };
}
