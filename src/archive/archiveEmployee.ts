/**
 * Archiving one employee: an eventually consistent transaction across two tables (guide:
 * "Eventually consistent transactions pattern"). `Employees` and `EmployeesArchive` cannot share an
 * entity group transaction, so the move is a sequence of idempotent steps driven by a queue
 * message, which the host redelivers until the whole sequence has run once to the end:
 *
 * 1. read the employee, then its yearly reviews from `Employees` (one range query, none when the
 *    employee lists no reviews): exactly the reviews the employee lists (`ReviewYears`; a review
 *    is only ever written together with its year on the employee, conditional on its ETag);
 * 2. insert-or-replace them into `EmployeesArchive` under the keys of the employee's incarnation
 *    (`archiveRowKey`: one set of records per incarnation, so archiving an employee created again
 *    with the id never overwrites the earlier one's), in entity group transactions of up to 100
 *    (they share the department's partition there too), the employee last;
 * 3. delete the employee from the directory — employee, email copy, department count,
 *    same-partition last-name index and its reviews — only if the employee entity is still exactly
 *    the version read in step 1 (`exactEtag`). Any review written since changed that version too,
 *    so a change of the employee or of its reviews committed at any moment since is archived
 *    rather than deleted unseen (the transaction fails with 412 and the sequence starts over).
 *    With more reviews than fit in the employee's transaction the directory deletes them first in
 *    transactions of up to 99, each conditional on the employee, then the employee; a crash in
 *    between leaves an employee with fewer reviews, all of them archived. The delete decides from
 *    the entity read in step 1 instead of reading it again, and its transaction holds the index
 *    outbox row of the removal (when the directory keeps one); the directory then nudges the index
 *    worker, which removes the other indexes.
 *
 * A replay after a crash anywhere ends in the same state: if the employee is already gone from the
 * directory and present in the archive, the only thing left is the `archived` change, published
 * again (the crash may have come between the delete and the publish; with the outbox that is a
 * nudge, the row having been committed with the delete), through
 * {@link ArchiveDependencies.changes}. The employee's photo blob is kept: the archived entity still
 * names it (`PhotoBlob`).
 *
 * The sequence archives one incarnation of the employee (docs/queues.md "Incarnations"): when
 * another one holds the id — the employee was deleted or archived and created again, perhaps while
 * this message waited for its redelivery — it is `superseded` and touches nothing.
 *
 * Reused by the department archive (archiveEmployees.ts) for an employee that changed while its
 * page was archived, and for one a re-run finds gone from the directory.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import type { Employee, EmployeeChangeSink, EmployeeService, Versioned } from '../directory';
import { ensureTable } from '../storage/createOnce';
import { PreconditionFailedError } from '../errors';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
} from '../storage/entityGroupTransaction';
import { withStorageErrors } from '../storage/errors';
import { RETRY, retryOptimistically } from '../storage/optimisticRetry';
import { archiveContended, archivedEmployeeNotFound } from './archiveErrors';
import { rowKeyRangeFilter } from '../storage/filters';
import {
  archivedEmployeeRowKeyRange,
  archiveRowKey,
  departmentPartitionKey,
  employeeRowKey,
  parseReviewRowKey,
  reviewRowKeyRange,
} from '../storage/keys';
import {
  EntityTypes,
  incarnationOf,
  isEntityOfType,
  readEmployeeMeta,
  storedToEmployee,
} from '../directory/storedEntities';
import {
  readEntity,
  SYSTEM_PROPERTIES,
  type StoredEntity,
  type StoredProperties,
} from '../storage/entities';
import { readWholeRange } from '../storage/rangePages';

type StoredRow = StoredProperties & { partitionKey: string; rowKey: string };

/** What archiving works on. */
export interface ArchiveDependencies {
  /** The `Employees` table. */
  employees: TableClient;
  /** The `EmployeesArchive` table. */
  archive: TableClient;
  /** The directory's employees (its idempotent delete keeps every same-partition copy in step). */
  directory: EmployeeService;
  /**
   * The sink the directory publishes to. Given, a replay that finds the employee already archived
   * publishes the `archived` change again (without it, such a replay publishes nothing).
   */
  changes?: EmployeeChangeSink;
}

/** A step of the sequence, reported to {@link ArchiveOptions.afterStep}. */
export type ArchiveStep = 'read' | 'archived' | 'removed';

/** Options of {@link archiveEmployee}. */
export interface ArchiveOptions {
  /**
   * The incarnation to archive (docs/queues.md "Incarnations"): an employee of another one (a
   * re-created employee with the id), or none, is left alone — the request is `superseded`.
   * Omitted, the sequence binds to the incarnation it first reads (callers that knew none).
   */
  incarnation?: string;
  /** Called after each step (observability; tests inject crashes here). */
  afterStep?: (step: ArchiveStep) => Promise<void> | void;
}

/** How the sequence ended. */
export type ArchiveOutcome =
  | { outcome: 'archived'; employee: Employee }
  | { outcome: 'alreadyArchived'; employee: Employee }
  /** The incarnation asked for is gone unarchived, or replaced: nothing was touched. */
  | { outcome: 'superseded'; incarnation: string }
  | { outcome: 'notFound' };

const MAX_ROUNDS = 10;

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
 * Moves one incarnation of an employee from the directory to the archive; safe to run any number
 * of times, and never touches another incarnation of the employee.
 *
 * @returns `archived` when this run moved it, `alreadyArchived` when an earlier run (or a crash
 *   after the delete) already had, `superseded` when the incarnation asked for is gone unarchived
 *   or another one holds the id (nothing written), `notFound` when no incarnation was asked for and
 *   the employee is in neither table.
 * @throws {ValidationError} for an invalid department, id or incarnation.
 * @throws {ContentionError} when the employee kept changing during the move.
 * @throws {DomainError} for storage faults (the queue message is retried).
 */
export async function archiveEmployee(
  dependencies: ArchiveDependencies,
  department: string,
  employeeId: string,
  options: ArchiveOptions = {},
): Promise<ArchiveOutcome> {
  const { employees, archive, directory, changes } = dependencies;
  const partitionKey = departmentPartitionKey(department);
  const rowKey = employeeRowKey(employeeId);
  let incarnation = options.incarnation;
  if (incarnation !== undefined) archiveRowKey(rowKey, incarnation); // validates it
  await Promise.all([ensureTable(employees), ensureTable(archive)]);

  const retry = {
    maxAttempts: MAX_ROUNDS,
    giveUp: (attempts: number) => archiveContended(employeeId, attempts),
  };
  return retryOptimistically<ArchiveOutcome>(retry, async () => {
    // 1. Read the employee, THEN its reviews: a review written in between changes the employee's
    // ETag, so the conditional delete of step 3 cannot take a review that was not archived.
    const read = await readEntity(employees, partitionKey, rowKey);
    const current = read && isEntityOfType(read, EntityTypes.employee) ? read : undefined;
    incarnation ??= current && incarnationOf(current);
    const ours = current && incarnationOf(current) === incarnation ? current : undefined;
    const reviews = ours ? await readOwnReviews(employees, ours) : [];
    await options.afterStep?.('read');
    if (current && !ours) {
      // Another incarnation holds the id (the employee was deleted or archived, then created
      // again): whatever happened to ours, this request no longer concerns the directory.
      return { outcome: 'superseded', incarnation: incarnation ?? incarnationOf(current) };
    }
    if (!ours) return finishedOrSuperseded(archive, changes, department, employeeId, incarnation);
    const employee = storedToEmployee(ours);
    if (!employee) return { outcome: 'notFound' };
    const bound = incarnationOf(ours); // the incarnation asked for

    // 2. Insert-or-replace into this incarnation's archive records (the employee last, so its
    // presence means complete). Another incarnation's records have other keys: never touched.
    await copyToArchive(archive, [
      ...reviews.map((review) => archivable(review, bound)),
      { ...archivable(ours, bound), ArchivedAt: new Date() },
    ]);
    await options.afterStep?.('archived');

    // 3. Remove from the directory, only if it is still the version we archived.
    try {
      await directory.delete(department, employeeId, {
        mustExist: false,
        exactEtag: ours.etag,
        // The version just archived: the delete need not read it again.
        read: ours,
        reason: 'archived',
      });
    } catch (error) {
      // Changed meanwhile: the next round archives it again — or, when the employee was deleted
      // and created again, finds another incarnation and stops.
      if (error instanceof PreconditionFailedError) return RETRY;
      throw error;
    }
    await options.afterStep?.('removed');
    return { outcome: 'archived', employee };
  });
}

/** Payload budget of one archive transaction: under the 4 MiB limit with room for the framing. */
const MAX_COPY_CHARS = 3_500_000;

/**
 * The directory holds no employee with the id: either an earlier run archived this incarnation (a
 * crash may have come between the delete and its change message: publish it again), or it is gone
 * unarchived, and the request is superseded.
 */
async function finishedOrSuperseded(
  archive: TableClient,
  changes: EmployeeChangeSink | undefined,
  department: string,
  employeeId: string,
  incarnation: string | undefined,
): Promise<ArchiveOutcome> {
  const partitionKey = departmentPartitionKey(department);
  const archived =
    incarnation === undefined
      ? await readNewestArchived(archive, partitionKey, employeeId)
      : await readEntity(
          archive,
          partitionKey,
          archiveRowKey(employeeRowKey(employeeId), incarnation),
        );
  const employee = archived ? storedToEmployee(archived) : undefined;
  if (!employee) {
    return incarnation === undefined
      ? { outcome: 'notFound' }
      : { outcome: 'superseded', incarnation };
  }
  await changes?.publish([
    {
      department,
      employeeId,
      reason: 'archived',
      previous: { email: employee.email, lastName: employee.lastName },
    },
  ]);
  return { outcome: 'alreadyArchived', employee };
}

/**
 * Upserts same-partition entities in entity group transactions of up to 100 (and ~3.5 MB), in
 * order: an entity is written by the same transaction as the entities before it, or a later one,
 * so an employee that follows its reviews is present only once they are.
 *
 * @throws {DomainError} for storage faults (nothing after the failed transaction is written).
 */
export async function copyToArchive(
  archive: TableClient,
  entities: TableEntity<StoredProperties>[],
): Promise<void> {
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
  for (const chunk of batches) {
    await withStorageErrors(async () => {
      if (chunk.length === 1) await archive.upsertEntity(chunk[0]!, 'Replace');
      else {
        await submitEntityGroupTransaction(
          archive,
          chunk.map((entity) => ['upsert', entity, 'Replace']),
        );
      }
    });
  }
}

/**
 * The reviews of the employee's range that it lists (for an employee written before employees
 * carried the list: all of them). A review written after the employee was read is left out; it
 * changed the employee's ETag, so the delete fails and the next round archives it.
 */
async function readOwnReviews(table: TableClient, employee: StoredRow): Promise<StoredRow[]> {
  if (readEmployeeMeta(employee).reviewYears?.length === 0) return [];
  const employeeId = employee.EmployeeId;
  if (typeof employeeId !== 'string' || !isEntityOfType(employee, EntityTypes.employee)) return [];
  return listedReviews(
    employee,
    await readReviews(table, employee.partitionKey, reviewRowKeyRange(employeeId)),
  );
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
  table: TableClient,
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
async function readNewestArchived(
  archive: TableClient,
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
  archive: TableClient,
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
