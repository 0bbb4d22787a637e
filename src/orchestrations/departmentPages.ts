/**
 * Department names, page by page, from the directory's department listing (one partition range
 * query per page, never a table scan).
 */
import { listDepartments, TtlCache, type DirectoryContext } from '../directory';

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
