/**
 * The department list (`GET /departments`): pages of the listing partition (`.departments`, one
 * range query each, cached a few seconds per directory instance), each listed department with the
 * employee count its listing carries (eventually consistent, listingCount.ts).
 */
import { DEPARTMENT_LIST_PARTITION_KEY } from '../../storage/keys/tables/employees';
import type { DirectoryContext } from '../context';
import {
  readDepartmentListing,
  readListedCount,
  type DepartmentListItem,
  type DepartmentSummary,
  type ListedCount,
} from '../entities/departmentEntity';
import { pageSizeOf } from '../validation';
import { readRangePage, type Page } from '../../storage/tables/rangePages';
import { fillListedCount } from './listingCount';
import type { TtlCache } from './ttlCache';

/** The department list cache of one directory instance. */
export type DepartmentListCache = TtlCache<Page<ListedDepartment>>;

/** A department as the listing holds it: its copy, the count it carries (if any), its ETag. */
export interface ListedDepartment extends DepartmentSummary {
  count?: ListedCount;
  etag: string;
}

/**
 * A page of the listing partition, from the in-process cache when a fresh copy is there, else one
 * range query.
 */
async function listingPage(
  context: DirectoryContext,
  listCache: DepartmentListCache,
  options: { pageSize?: number; continuationToken?: string },
): Promise<{ key: string; page: Page<ListedDepartment> }> {
  const pageSize = pageSizeOf(options.pageSize);
  const key = `${pageSize}|${options.continuationToken ?? ''}`;
  const cached = listCache.get(key);
  if (cached) return { key, page: cached };
  // Department names use only characters from " " (U+0020) to "z": this range holds them all.
  const range = { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, ge: ' ', lt: '~' };
  const page = await readRangePage(await context.table(), 'departments', range, {
    pageSize,
    continuationToken: options.continuationToken,
  });
  const items: ListedDepartment[] = [];
  for (const entity of page.entities) {
    const summary = readDepartmentListing(entity);
    if (!summary) continue;
    const count = readListedCount(entity);
    items.push({ ...summary, ...(count ? { count } : {}), etag: entity.etag ?? '' });
  }
  const result = { items, continuationToken: page.continuationToken };
  listCache.set(key, result);
  return { key, page: result };
}

/**
 * A page of the department list (`{name, description}` in name order), from the in-process cache
 * when a fresh copy is there, else one range query over the listing partition.
 *
 * @throws {ValidationError} for an invalid page size or continuation token.
 */
export async function listDepartments(
  context: DirectoryContext,
  listCache: DepartmentListCache,
  options: { pageSize?: number; continuationToken?: string } = {},
): Promise<Page<DepartmentSummary>> {
  const { page } = await listingPage(context, listCache, options);
  return {
    items: page.items.map(({ name, description }) => ({ name, description })),
    continuationToken: page.continuationToken,
  };
}

/** Count reads of one department page running at once (listings without a count only). */
const COUNT_READS_IN_PARALLEL = 16;

/**
 * A page of the department list with each department's employee count as the listing carries it
 * (`countAsOf`: when it was read; the index drain refreshes it after membership changes,
 * listingCount.ts): the one range query of {@link listDepartments} (cached), whatever the page
 * size. A listing written before listings carried counts gets its department's count read (the
 * one range query of `GET /departments/{dept}`, at most {@link COUNT_READS_IN_PARALLEL} at a time)
 * and stored, once. A listed department whose entity is gone (a listing not yet repaired) counts 0.
 *
 * @throws {ValidationError} for an invalid page size or continuation token.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function listDepartmentsWithCounts(
  context: DirectoryContext,
  listCache: DepartmentListCache,
  options: { pageSize?: number; continuationToken?: string } = {},
): Promise<Page<DepartmentListItem>> {
  const { key, page } = await listingPage(context, listCache, options);
  const uncounted = page.items.filter((item) => item.count === undefined);
  if (uncounted.length > 0) {
    const table = await context.table();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(COUNT_READS_IN_PARALLEL, uncounted.length) }, async () => {
        while (next < uncounted.length) {
          const item = uncounted[next++]!;
          item.count = (await fillListedCount(table, item.name, item.etag)) ?? {
            employeeCount: 0,
            asOf: new Date(),
          };
        }
      }),
    );
    listCache.set(key, page);
  }
  return {
    items: page.items.map(({ name, description, count }) => ({
      name,
      description,
      employeeCount: count?.employeeCount ?? 0,
      countAsOf: (count?.asOf ?? new Date(0)).toISOString(),
    })),
    continuationToken: page.continuationToken,
  };
}
