/**
 * What the activities need from the rest of the application, passed in (the function adapters
 * build it from the configuration; tests build it over their own tables).
 */
import type { DirectoryContext } from '../directory/context';
import type { IndexStores } from '../indexing/indexMaintenance';

/** The services behind the orchestrations' activities. */
export interface OrchestrationServices {
  /** The directory over the `Employees` table. */
  directory: DirectoryContext;
  /** The indexes outside the department partitions (`EmployeeIndex`, org-wide last names). */
  indexStores: IndexStores;
}
