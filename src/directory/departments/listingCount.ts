/**
 * The employee count the department listing carries (denormalization), so a page of
 * `GET /departments` is one range query however many departments it lists. It is eventually
 * consistent: the index drain refreshes it after each round that drained a change of the
 * department's membership (src/indexing/drain/outboxDrain.ts), and `GET /departments/{dept}`
 * stays the exact count.
 *
 * A refresh never leaves an older count behind a newer one: it knows the listing's ETag from
 * BEFORE it reads the count (read first, or this process's own last write of it), and writes
 * conditionally on it. A refresh that read an older count read the listing's ETag earlier still,
 * so any later write in between fails it (412) and it starts over. The count is read after the
 * drained rows were read, and each membership change commits its count shard with its outbox
 * row: once the last row is drained, the listing holds a count read after every change.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  isAlreadyExists,
  isNotFound,
  isPreconditionFailed,
  toDomainError,
} from '../../storage/storageFaults';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
} from '../../storage/keys/tables/employees';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { readEntity } from '../../storage/tables/entities';
import { contendedError } from '../directoryErrors';
import { readDepartmentWithCount } from '../entities/departmentCount';
import {
  departmentListingEntity,
  listedCountProperties,
  readListingVersion,
  type ListedCount,
} from '../entities/departmentEntity';

/** Where a process keeps the ETag of each listing it last wrote (by department). */
export interface ListingEtags {
  get(department: string): string | undefined;
  set(department: string, etag: string): unknown;
  delete(department: string): unknown;
}

/** Options of {@link refreshListingCount}. */
export interface ListingCountOptions {
  /** The listing ETags this process last wrote: with one, a refresh reads no listing. */
  etags?: ListingEtags;
  /** Called after the reads, right before the write (tests pause a refresh here). */
  beforeWrite?: () => Promise<void> | void;
  /** The clock of `countAsOf` (ms since 1970). */
  now?: () => number;
}

/** What {@link refreshListingCount} did. */
export type CountRefresh =
  /** The listing now carries the count read (created, when the department was unlisted). */
  | 'written'
  /** The department does not exist (here): nothing to count. */
  | 'gone';

/** Rounds against other writers of the same listing before giving up. */
const MAX_ROUNDS = 10;

/**
 * Reads the department's count (one range query over its entity and count shards) and makes its
 * listing carry it, conditionally on the listing's ETag known before that read (see the file
 * comment). An unlisted department is listed, copying the department as its `PUT` would.
 *
 * @throws {ContentionError} when other writers kept changing the listing.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function refreshListingCount(
  table: TableAccess,
  department: string,
  options: ListingCountOptions = {},
): Promise<CountRefresh> {
  const rowKey = departmentListRowKey(department);
  const now = options.now ?? Date.now;
  const retry = {
    maxAttempts: MAX_ROUNDS,
    giveUp: (attempts: number) =>
      contendedError(`The listed count of department "${department}"`, attempts),
  };
  return retryOptimistically<CountRefresh>(retry, async () => {
    let etag = options.etags?.get(department);
    if (etag === undefined) {
      etag = (await readEntity(table, DEPARTMENT_LIST_PARTITION_KEY, rowKey))?.etag ?? '';
    }
    const asOf = new Date(now());
    const read = await readDepartmentWithCount(table, department);
    await options.beforeWrite?.();
    if (!read) return 'gone';
    const count: ListedCount = { employeeCount: read.department.value.employeeCount, asOf };
    try {
      const response =
        etag === ''
          ? await table.createEntity(
              departmentListingEntity(
                { name: department, description: read.department.value.description },
                readListingVersion(read.entity),
                count,
              ),
            )
          : await table.updateEntity(
              {
                partitionKey: DEPARTMENT_LIST_PARTITION_KEY,
                rowKey,
                ...listedCountProperties(count),
              },
              'Merge',
              { etag },
            );
      if (response.etag) options.etags?.set(department, response.etag);
      return 'written';
    } catch (error) {
      options.etags?.delete(department);
      // Another writer changed (or listed, or removed) the listing since: look again.
      if (isPreconditionFailed(error) || isAlreadyExists(error) || isNotFound(error)) return RETRY;
      throw toDomainError(error);
    }
  });
}

/**
 * Gives a listing written before listings carried counts the department's count: read now (one
 * range query), and stored when the listing is still at `etag` (the page's read of it); a write
 * that fails is left to the next refresh. For the list's read path: never throws on the write.
 *
 * @returns the count read, or `undefined` when the department does not exist.
 * @throws {DomainError} for storage faults of the read.
 */
export async function fillListedCount(
  table: TableAccess,
  department: string,
  etag: string,
  now: () => number = Date.now,
): Promise<ListedCount | undefined> {
  const asOf = new Date(now());
  const read = await readDepartmentWithCount(table, department);
  if (!read) return undefined;
  const count: ListedCount = { employeeCount: read.department.value.employeeCount, asOf };
  const entity = {
    partitionKey: DEPARTMENT_LIST_PARTITION_KEY,
    rowKey: departmentListRowKey(department),
    ...listedCountProperties(count),
  };
  await table.updateEntity(entity, 'Merge', { etag }).catch(() => undefined);
  return count;
}
