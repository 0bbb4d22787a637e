/**
 * Archiving one employee: an eventually consistent transaction across two tables (guide:
 * "Eventually consistent transactions pattern"). `Employees` and `EmployeesArchive` cannot share an
 * entity group transaction, so the move is a sequence of idempotent steps driven by a queue
 * message, which the host redelivers until the whole sequence has run once to the end:
 *
 * 1. read the employee (and its yearly reviews) from `Employees`;
 * 2. insert-or-replace them into `EmployeesArchive` under the same keys;
 * 3. delete the employee from the directory — employee, email copy, department count and
 *    same-partition last-name index in one entity group transaction — conditional on the ETag read
 *    in step 1, so a change made meanwhile is archived too (the sequence starts over). The
 *    directory then publishes an `archived` change, and the index worker removes the other indexes.
 *
 * A replay after a crash anywhere ends in the same state: if the employee is already gone from the
 * directory and present in the archive, there is nothing left to do. The employee's photo blob is
 * kept: the archived entity still names it (`PhotoBlob`).
 *
 * Reused by the department-archive orchestration (one activity per employee).
 */
import { odata, type TableClient, type TableEntity } from '@azure/data-tables';
import type { EmployeeService } from '../directory/directory';
import {
  storedToEmployee,
  type Employee,
  type StoredProperties,
} from '../directory/employeeEntity';
import { EntityTypes, isEntityOfType } from '../directory/entityTypes';
import { readEntity } from '../directory/state';
import { ensureTable } from '../directory/tables';
import { NotFoundError, PreconditionFailedError, ThrottledError } from '../errors';
import { withStorageErrors } from '../storage/errors';
import { departmentPartitionKey, employeeRowKey, reviewRowKeyRange } from '../storage/keys';

/** What archiving works on. */
export interface ArchiveDependencies {
  /** The `Employees` table. */
  employees: TableClient;
  /** The `EmployeesArchive` table. */
  archive: TableClient;
  /** The directory's employees (its idempotent delete keeps every same-partition copy in step). */
  directory: EmployeeService;
}

/** A step of the sequence, reported to {@link ArchiveOptions.afterStep}. */
export type ArchiveStep = 'read' | 'archived' | 'removed';

/** Options of {@link archiveEmployee}. */
export interface ArchiveOptions {
  /** Called after each step (observability; tests inject crashes here). */
  afterStep?: (step: ArchiveStep) => Promise<void> | void;
}

/** How the sequence ended. */
export type ArchiveOutcome =
  | { outcome: 'archived'; employee: Employee }
  | { outcome: 'alreadyArchived'; employee: Employee }
  | { outcome: 'notFound' };

const SYSTEM_PROPERTIES = new Set(['etag', 'timestamp', 'odata.etag', 'odata.metadata']);
const MAX_ROUNDS = 10;

function archivable(
  entity: StoredProperties & { partitionKey: string; rowKey: string },
): TableEntity<StoredProperties> {
  const copy: TableEntity<StoredProperties> = {
    partitionKey: entity.partitionKey,
    rowKey: entity.rowKey,
  };
  for (const [name, value] of Object.entries(entity)) {
    if (!SYSTEM_PROPERTIES.has(name)) copy[name] = value;
  }
  return copy;
}

/**
 * Moves one employee from the directory to the archive; safe to run any number of times.
 *
 * @returns `archived` when this run moved it, `alreadyArchived` when an earlier run (or a crash
 *   after the delete) already had, `notFound` when it is in neither table.
 * @throws {ValidationError} for an invalid department or id.
 * @throws {ThrottledError} when the employee kept changing during the move.
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
  await Promise.all([ensureTable(employees), ensureTable(archive)]);

  for (let round = 1; round <= MAX_ROUNDS; round++) {
    // 1. Read.
    const current = await readEntity(employees, partitionKey, rowKey);
    const reviews = current ? await readReviews(employees, partitionKey, employeeId) : [];
    await options.afterStep?.('read');
    if (!current || !isEntityOfType(current, EntityTypes.employee)) {
      const archived = await readEntity(archive, partitionKey, rowKey);
      const employee = archived ? storedToEmployee(archived) : undefined;
      return employee ? { outcome: 'alreadyArchived', employee } : { outcome: 'notFound' };
    }
    const employee = storedToEmployee(current);
    if (!employee) return { outcome: 'notFound' };

    // 2. Insert-or-replace into the archive (the employee last, so its presence means complete).
    for (const review of reviews) {
      await withStorageErrors(() => archive.upsertEntity(archivable(review), 'Replace'));
    }
    await withStorageErrors(() =>
      archive.upsertEntity({ ...archivable(current), ArchivedAt: new Date() }, 'Replace'),
    );
    await options.afterStep?.('archived');

    // 3. Remove from the directory, only if it is still the version we archived.
    try {
      await directory.delete(department, employeeId, {
        mustExist: false,
        ifMatch: current.etag,
        reason: 'archived',
      });
    } catch (error) {
      if (error instanceof PreconditionFailedError) continue; // changed meanwhile: archive again
      throw error;
    }
    await options.afterStep?.('removed');
    return { outcome: 'archived', employee };
  }
  throw new ThrottledError(`Employee ${employeeId} kept changing while it was archived.`, 5);
}

async function readReviews(
  table: TableClient,
  partitionKey: string,
  employeeId: string,
): Promise<(StoredProperties & { partitionKey: string; rowKey: string })[]> {
  const range = reviewRowKeyRange(employeeId);
  return withStorageErrors(async () => {
    const reviews: (StoredProperties & { partitionKey: string; rowKey: string })[] = [];
    for await (const entity of table.listEntities<StoredProperties>({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
      },
    })) {
      reviews.push({ ...entity, partitionKey, rowKey: entity.rowKey ?? '' });
    }
    return reviews;
  });
}

/**
 * An archived employee.
 *
 * @throws {NotFoundError} `ArchivedEmployeeNotFound` until the move has happened.
 * @throws {DomainError} for storage faults.
 */
export async function getArchivedEmployee(
  archive: TableClient,
  department: string,
  employeeId: string,
): Promise<Employee> {
  await ensureTable(archive);
  const entity = await readEntity(
    archive,
    departmentPartitionKey(department),
    employeeRowKey(employeeId),
  );
  const employee = entity ? storedToEmployee(entity) : undefined;
  if (!employee) {
    throw new NotFoundError(
      'ArchivedEmployeeNotFound',
      `Employee ${employeeId} of department "${department}" is not in the archive (yet).`,
    );
  }
  return employee;
}
