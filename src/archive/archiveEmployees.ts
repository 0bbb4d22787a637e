/**
 * Archiving a page of one department's employees (the department archive's unit of work), with
 * the guarantees of the one-employee sequence (archiveEmployee.ts) at a fraction of its requests:
 * (1) read the page's employees with ONE range query over their ids, THEN the reviews of that id
 * range (a review written in between changes its employee's ETag); (2) upsert every employee and
 * the reviews it lists into `EmployeesArchive`, each employee after its reviews; (3) delete them
 * with the directory's grouped delete (`EmployeeService.deleteVersions`), each employee
 * conditional on the ETag read in (1).
 *
 * An employee changed since (1) fails only its own delete and goes through the one-employee
 * sequence, as does one gone from the directory. Only the listed incarnation of an id is touched,
 * so running a page again — after a crash at any point — neither loses nor duplicates anyone.
 * Why: docs/orchestrations.md "Department archive"; docs/queues.md "Incarnations".
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import type { EmployeeChangeSink } from '../directory';
import { ensureTable } from '../storage/createOnce';
import {
  departmentPartitionKey,
  employeeRowKey,
  employeeRowKeyRange,
  parseEmployeeRowKey,
  reviewRowKeyRange,
} from '../storage/keys/tables/employees';
import {
  archivable,
  archiveEmployee,
  copyToArchive,
  listedReviews,
  readReviews,
  type ArchiveDependencies,
  type ArchiveStep,
} from './archiveEmployee';
import {
  EntityTypes,
  incarnationOf,
  isEntityOfType,
  readEmployeeMeta,
} from '../directory/entities';
import { readWholeRange } from '../storage/tables/rangePages';
import type { StoredEntity } from '../storage/tables/entities';
import { archivePageTooLarge } from './archiveErrors';

/** Most employees one page may hold. */
export const MAX_ARCHIVE_PAGE = 1_000;

/** How a page's archive ended, per employee of the page. */
export interface PageArchived {
  /** Moved to the archive by this run. */
  archived: number;
  /** Already in the archive and gone from the directory (an earlier run, or a crash after it). */
  alreadyArchived: number;
  /** In neither table. */
  notFound: number;
  /**
   * Another incarnation holds the id than the one listed (the employee was created again since),
   * or the listed one is gone unarchived: nothing touched (docs/queues.md "Incarnations").
   */
  superseded: number;
}

/** Options of {@link archiveEmployeePage}. */
export interface ArchivePageOptions {
  /**
   * The incarnation listed for each id (same order as the ids given): only that one is archived.
   * Absent (pages listed before incarnations), whichever incarnation is read is archived.
   */
  incarnations?: readonly string[];
  /** Called after each step of the page (tests inject crashes here). */
  afterStep?: (step: ArchiveStep) => Promise<void> | void;
  /** Called before each grouped delete transaction (tests inject edits here). */
  beforeDeleteGroup?: (employeeIds: string[]) => Promise<void> | void;
}

/** The employee entities of `ids` in their department partition: one range query. */
async function readEmployeesOf(
  table: TableAccess,
  partitionKey: string,
  ids: readonly string[],
): Promise<Map<string, StoredEntity>> {
  const found = new Map<string, StoredEntity>();
  if (ids.length === 0) return found;
  const wanted = new Set(ids);
  const range = { partitionKey, ...employeeRowKeyRange(ids[0], ids[ids.length - 1]) };
  for (const entity of await readWholeRange(table, range)) {
    const id = parseEmployeeRowKey(entity.rowKey);
    if (id !== undefined && wanted.has(id) && isEntityOfType(entity, EntityTypes.employee)) {
      found.set(id, entity);
    }
  }
  return found;
}

/**
 * Archives the given employees of one department (see the file comment); safe to run any number
 * of times with the same page.
 *
 * @param employeeIds - up to {@link MAX_ARCHIVE_PAGE} ids (any order, duplicates ignored), meant
 *   to be neighbours in the department (a listing page): the reads cover the id range from the
 *   first to the last, whatever else lies between.
 * @throws {ValidationError} for an invalid department or id.
 * @throws {RangeError} for more than {@link MAX_ARCHIVE_PAGE} ids.
 * @throws {ThrottledError} when an employee kept changing, or the department's shared entities
 *   kept changing, while the page was archived.
 * @throws {DomainError} for storage faults (the caller runs the page again).
 */
export async function archiveEmployeePage(
  dependencies: ArchiveDependencies & { changes: EmployeeChangeSink },
  department: string,
  employeeIds: readonly string[],
  options: ArchivePageOptions = {},
): Promise<PageArchived> {
  const { employees, archive, directory } = dependencies;
  const partitionKey = departmentPartitionKey(department);
  const listed = new Map<string, string | undefined>(
    employeeIds.map((id, i) => [id, options.incarnations?.[i]]),
  );
  const ids = [...listed.keys()].sort();
  if (ids.length > MAX_ARCHIVE_PAGE) {
    throw archivePageTooLarge(MAX_ARCHIVE_PAGE);
  }
  ids.forEach(employeeRowKey);
  const result: PageArchived = { archived: 0, alreadyArchived: 0, notFound: 0, superseded: 0 };
  if (ids.length === 0) return result;
  await Promise.all([ensureTable(employees), ensureTable(archive)]);

  // 1. The employees, THEN the reviews of their id range. An employee of another incarnation than
  // the one listed is left alone.
  const read = await readEmployeesOf(employees, partitionKey, ids);
  const current = new Map<string, StoredEntity>();
  for (const [id, entity] of read) {
    const wanted = listed.get(id);
    if (wanted === undefined || incarnationOf(entity) === wanted) current.set(id, entity);
    else result.superseded++;
  }
  const present = [...current.values()];
  const withReviews = present.some((e) => readEmployeeMeta(e).reviewYears?.length !== 0);
  const reviews = withReviews
    ? await readReviews(employees, partitionKey, {
        ge: reviewRowKeyRange(ids[0]!).ge,
        lt: reviewRowKeyRange(ids[ids.length - 1]!).lt,
      })
    : [];
  await options.afterStep?.('read');

  // Gone from the directory (only on a re-run, or when deleted meanwhile): the one-employee
  // sequence finds this incarnation's archive record (and publishes its change again), or none.
  for (const id of ids.filter((id) => !read.has(id))) {
    const gone = await archiveEmployee(dependencies, department, id, {
      ...(listed.get(id) !== undefined ? { incarnation: listed.get(id) } : {}),
    });
    result[gone.outcome]++;
  }
  if (present.length === 0) return result;

  // 2. Copy each employee after its reviews.
  const archivedAt = new Date();
  await copyToArchive(
    archive,
    present.flatMap((employee) => {
      const incarnation = incarnationOf(employee);
      return [
        ...listedReviews(employee, reviews).map((review) => archivable(review, incarnation)),
        { ...archivable(employee, incarnation), ArchivedAt: archivedAt },
      ];
    }),
  );
  await options.afterStep?.('archived');

  // 3. Delete exactly the versions copied, grouped; a changed one is archived again on its own.
  const outcome = await directory.deleteVersions(department, present, {
    reason: 'archived',
    ...(options.beforeDeleteGroup ? { beforeGroup: options.beforeDeleteGroup } : {}),
  });
  result.archived += outcome.deleted.length;
  // Gone meanwhile, after the copy: archived, as the one-employee sequence counts it on a replay.
  result.alreadyArchived += outcome.gone.length;
  for (const id of outcome.changed) {
    // Bound to the incarnation copied: one created again meanwhile is left alone.
    const again = await archiveEmployee(dependencies, department, id, {
      incarnation: incarnationOf(current.get(id)!),
    });
    result[again.outcome]++;
  }
  await options.afterStep?.('removed');
  return result;
}
