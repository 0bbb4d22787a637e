/**
 * Archiving one employee: an eventually consistent transaction across two tables (guide:
 * "Eventually consistent transactions pattern"). `Employees` and `EmployeesArchive` cannot share an
 * entity group transaction, so the move is a sequence of idempotent steps driven by a queue
 * message, redelivered until it has run once to the end: (1) read this incarnation's archive
 * record, the employee and the reviews it lists; (2) write them into `EmployeesArchive` under the
 * incarnation's keys, the employee last, conditional on the record read in 1; (3) the directory's
 * delete, only if the employee is still exactly the version read in 1, with the receipt of the
 * removal (`archived_<id>.<incarnation>`) in the same transaction.
 *
 * Found gone from the directory, the receipt tells whether this sequence removed it
 * (`alreadyArchived`) or someone else did (`superseded`: the record is taken back out). Another
 * incarnation holding the id is `superseded` too. Reused by the department archive.
 * Why: docs/queues.md "Archive (eventually consistent transactions pattern)", "Incarnations".
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../storage/tables/tableAccess';
import {
  ARCHIVED_FROM_PROPERTY,
  archivable,
  copyToArchive,
  discardRecord,
  listedReviews,
  readNewestArchived,
  readReviews,
  type StoredRow,
} from './archiveRecords';
import type { Employee, EmployeeChangeSink, EmployeeDeleted, EmployeeService } from '../directory';
import { ensureTable } from '../storage/createOnce';
import { PreconditionFailedError } from '../domainErrors';
import { isAlreadyExists } from '../storage/storageFaults';
import { RETRY, retryOptimistically } from '../storage/optimisticRetry';
import { archiveContended } from './archiveErrors';
import {
  archiveReceiptRowKey,
  archiveRowKey,
  parseArchiveRowKey,
} from '../storage/keys/tables/archive';
import {
  departmentPartitionKey,
  employeeRowKey,
  reviewRowKeyRange,
} from '../storage/keys/tables/employees';
import {
  ENTITY_TYPE_PROPERTY,
  EntityTypes,
  incarnationOf,
  isEntityOfType,
  readEmployeeMeta,
  storedToEmployee,
} from '../directory/entities';
import { readEntity, type StoredEntity, type StoredProperties } from '../storage/tables/entities';

export {
  ARCHIVED_FROM_PROPERTY,
  archivable,
  copyToArchive,
  getArchivedEmployee,
  listedReviews,
  readReviews,
} from './archiveRecords';

/** What archiving works on. */
export interface ArchiveDependencies {
  /** The `Employees` table. */
  employees: TableAccess;
  /** The `EmployeesArchive` table. */
  archive: TableAccess;
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
  const { employees, archive, directory } = dependencies;
  const partitionKey = departmentPartitionKey(department);
  const rowKey = employeeRowKey(employeeId);
  let incarnation = options.incarnation;
  if (incarnation !== undefined) archiveRowKey(rowKey, incarnation); // validates it
  await Promise.all([ensureTable(employees), ensureTable(archive)]);

  const retry = {
    maxAttempts: MAX_ROUNDS,
    giveUp: (attempts: number) => archiveContended(employeeId, attempts),
  };
  // The first round takes the record to be absent, as it is unless a run of this incarnation
  // got as far as its copy: it reads no record and creates it (never replacing one). Finding a
  // record, or no employee of the incarnation, every later round reads the record first.
  let recordKnownAbsent = true;
  return retryOptimistically<ArchiveOutcome>(retry, async () => {
    const assumeNoRecord = recordKnownAbsent;
    recordKnownAbsent = false;
    if (incarnation === undefined) {
      // A caller that knew no incarnation: bind to the one current now (or, with none, to the
      // newest archive record).
      const first = await readEmployeeEntity(employees, partitionKey, rowKey);
      if (!first) return finishedOrSuperseded(dependencies, department, employeeId, undefined);
      incarnation = incarnationOf(first);
    }
    const bound = incarnation;
    // 1. This incarnation's archive record, THEN the employee, THEN its reviews. A review written
    // after the employee was read changes the employee's ETag, so the conditional delete of step 3
    // cannot take a review that was not archived. The record is read first so that the copy,
    // conditional on it, can never replace a newer version another run archived meanwhile: any
    // version it holds was read from the directory before the employee is read here.
    const record = assumeNoRecord
      ? undefined
      : await readEntity(archive, partitionKey, archiveRowKey(rowKey, bound));
    const current = await readEmployeeEntity(employees, partitionKey, rowKey);
    const ours = current && incarnationOf(current) === bound ? current : undefined;
    // Gone, with no record read: read it first, as the next round does.
    if (!ours && assumeNoRecord) return RETRY;
    const reviews = ours ? await readOwnReviews(employees, ours) : [];
    await options.afterStep?.('read');
    if (!ours) {
      // Gone from the directory. If another incarnation holds the id (the employee was deleted or
      // archived, then created again), this request no longer concerns the directory; either way
      // this incarnation's record is settled by the receipt of its removal.
      const settled = await finishedOrSuperseded(dependencies, department, employeeId, bound, {
        publish: current === undefined,
        // Read before the employee: any record written since is another run's, which settles it.
        record: record ?? null,
      });
      return current ? { outcome: 'superseded', incarnation: bound } : settled;
    }
    const employee = storedToEmployee(ours);
    if (!employee) return { outcome: 'notFound' };

    // 2. Copy into this incarnation's archive records; another run wrote the record since step 1:
    // read again.
    if (!(await copyIncarnation(archive, ours, reviews, bound, record))) return RETRY;
    await options.afterStep?.('archived');

    // 3. Remove from the directory, only if it is still the version we archived, leaving the
    // receipt of this removal in its transaction.
    let removal: EmployeeDeleted;
    try {
      removal = await directory.delete(department, employeeId, {
        mustExist: false,
        exactEtag: ours.etag,
        // The version just archived: the delete need not read it again.
        read: ours,
        reason: 'archived',
        receipt: archiveReceipt(partitionKey, employeeId, bound, ours.etag),
      });
    } catch (error) {
      // Changed meanwhile: the next round archives it again — or, when it is gone by then, finds
      // no receipt and gives up the copy that is no longer the last version.
      if (error instanceof PreconditionFailedError) return RETRY;
      throw error;
    }
    if (!removal.deleted || removal.vanished) {
      // Gone before our transaction: removed by an earlier try of it (its answer lost), or deleted
      // by someone else, perhaps after a newer version. Only the receipt tells.
      return finishedOrSuperseded(dependencies, department, employeeId, bound);
    }
    await options.afterStep?.('removed');
    return { outcome: 'archived', employee };
  });
}

/**
 * Step 2 of {@link archiveEmployee}: insert-or-replace into this incarnation's archive records
 * (the employee last, so its presence means complete; conditional on the record read in step 1).
 * Another incarnation's records have other keys: never touched.
 *
 * @returns false when another run wrote the record since step 1 (nothing of ours written last).
 * @throws {DomainError} for storage faults.
 */
async function copyIncarnation(
  archive: TableAccess,
  employee: StoredRow,
  reviews: readonly StoredRow[],
  incarnation: string,
  record: { etag?: string } | undefined,
): Promise<boolean> {
  try {
    await copyToArchive(
      archive,
      [
        ...reviews.map((review) => archivable(review, incarnation)),
        {
          ...archivable(employee, incarnation),
          ArchivedAt: new Date(),
          [ARCHIVED_FROM_PROPERTY]: employee.etag,
        },
      ],
      { lastIfMatch: record?.etag ?? null },
    );
    return true;
  } catch (error) {
    if (error instanceof PreconditionFailedError || isAlreadyExists(error)) return false;
    throw error;
  }
}

/**
 * The receipt of an archive's removal of one incarnation: written in the removal's own
 * transaction, so it exists exactly when this sequence removed the employee (kept: a replay, or
 * another run of the same request, may ask at any time later).
 */
function archiveReceipt(
  partitionKey: string,
  employeeId: string,
  incarnation: string,
  etag: string,
): TableEntity<StoredProperties> {
  return {
    partitionKey,
    rowKey: archiveReceiptRowKey(employeeId, incarnation),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.archiveReceipt,
    [ARCHIVED_FROM_PROPERTY]: etag,
  };
}

/** The primary employee entity with the id, whatever its incarnation; `undefined` when none. */
async function readEmployeeEntity(
  employees: TableAccess,
  partitionKey: string,
  rowKey: string,
): Promise<StoredEntity | undefined> {
  const read = await readEntity(employees, partitionKey, rowKey);
  return read && isEntityOfType(read, EntityTypes.employee) ? read : undefined;
}

/**
 * The directory holds no employee of the incarnation: either a removal of this sequence archived
 * it (a crash may have come between the delete and its change message: publish it again), or it
 * is gone unarchived — deleted by someone else, perhaps after a newer version than the record
 * holds — and the request is superseded. A record this sequence wrote is archived only when the
 * receipt of its removal exists; without one it is not the employee's last version, and is taken
 * back out of the archive (conditional on the version read, so a record another run confirms
 * meanwhile stays).
 */
async function finishedOrSuperseded(
  dependencies: ArchiveDependencies,
  department: string,
  employeeId: string,
  incarnation: string | undefined,
  /** `record`: this incarnation's record as already read (`null`: none), else it is read here. */
  options: { publish?: boolean; record?: StoredEntity | null } = {},
): Promise<ArchiveOutcome> {
  const { archive, employees, changes } = dependencies;
  const partitionKey = departmentPartitionKey(department);
  const archived =
    options.record !== undefined
      ? (options.record ?? undefined)
      : incarnation === undefined
        ? await readNewestArchived(archive, partitionKey, employeeId)
        : await readEntity(
            archive,
            partitionKey,
            archiveRowKey(employeeRowKey(employeeId), incarnation),
          );
  const employee = archived ? storedToEmployee(archived) : undefined;
  const gone = (): ArchiveOutcome =>
    incarnation === undefined ? { outcome: 'notFound' } : { outcome: 'superseded', incarnation };
  if (!archived || !employee) return gone();
  if (ARCHIVED_FROM_PROPERTY in archived) {
    const recordIncarnation = incarnation ?? parseArchiveRowKey(archived.rowKey).incarnation;
    const receipt = await readEntity(
      employees,
      partitionKey,
      archiveReceiptRowKey(employeeId, recordIncarnation),
      ['RowKey'],
    );
    if (!receipt) {
      await discardRecord(archive, archived, employeeId, recordIncarnation);
      return { outcome: 'superseded', incarnation: recordIncarnation };
    }
  }
  if (options.publish !== false) {
    await changes?.publish([
      {
        department,
        employeeId,
        reason: 'archived',
        previous: { email: employee.email, lastName: employee.lastName },
      },
    ]);
  }
  return { outcome: 'alreadyArchived', employee };
}

/**
 * The reviews of the employee's range that it lists (for an employee written before employees
 * carried the list: all of them). A review written after the employee was read is left out; it
 * changed the employee's ETag, so the delete fails and the next round archives it.
 */
async function readOwnReviews(table: TableAccess, employee: StoredRow): Promise<StoredRow[]> {
  if (readEmployeeMeta(employee).reviewYears?.length === 0) return [];
  const employeeId = employee.EmployeeId;
  if (typeof employeeId !== 'string' || !isEntityOfType(employee, EntityTypes.employee)) return [];
  return listedReviews(
    employee,
    await readReviews(table, employee.partitionKey, reviewRowKeyRange(employeeId)),
  );
}
