/**
 * Department names, page by page, from the directory's department listing (one partition range
 * query per page, never a table scan) — and, for an audit, the departments the listing misses.
 */
import type { DirectoryContext } from '../directory';
import { departmentsHoldingRows, listDepartments, TtlCache } from '../directory/departments';
import { departmentWithCountRowKeyRange } from '../storage/keys/tables/employees';

/** One page of department names. */
export interface DepartmentPage {
  departments: string[];
  continuationToken: string | null;
}

/** Departments per listing page. */
export const DEPARTMENT_PAGE_SIZE = 500;

/**
 * One page of department names (uncached: an audit must see the current listing).
 *
 * @throws {ValidationError} for a token this listing did not produce.
 * @throws {DomainError} for storage faults.
 */
export async function departmentPage(
  directory: DirectoryContext,
  continuationToken: string | null,
): Promise<DepartmentPage> {
  const page = await listDepartments(directory, new TtlCache(0), {
    pageSize: DEPARTMENT_PAGE_SIZE,
    continuationToken: continuationToken ?? undefined,
  });
  return {
    departments: page.items.map((d) => d.name),
    continuationToken: page.continuationToken,
  };
}

/**
 * Every department name.
 *
 * @throws {DomainError} for storage faults.
 */
export async function allDepartments(directory: DirectoryContext): Promise<string[]> {
  const names: string[] = [];
  let token: string | null = null;
  do {
    const page = await departmentPage(directory, token);
    names.push(...page.departments);
    token = page.continuationToken;
  } while (token);
  return names;
}

/**
 * The departments whose department entity exists but which the listing does not name (a creating
 * `PUT` that failed between its two writes): found from the department entities themselves, one
 * query across partitions (directory/departments/departmentDiscovery.ts), minus the listing.
 *
 * @throws {DomainError} for storage faults.
 */
export async function unlistedDepartments(directory: DirectoryContext): Promise<string[]> {
  const table = await directory.table();
  const [inData, listed] = await Promise.all([
    departmentsHoldingRows(table, departmentWithCountRowKeyRange()),
    allDepartments(directory),
  ]);
  const names = new Set(listed);
  return inData.filter((department) => !names.has(department));
}
