/**
 * The directory's entry point: departments, employees and reviews over one `Employees` table.
 *
 * Build it with {@link createDirectory}, passing the table client (tests pass a client for a
 * unique table; the HTTP adapters pass the configured one) and, optionally, the sink that receives
 * committed employee changes for the asynchronous indexes. The table is created on first use
 * (once per process), or up front with {@link Directory.ensureTables}. Its service objects hold
 * the operations themselves, bound to one context: no layer of its own between a caller and them.
 */
import type { DirectoryContext, DirectoryOptions } from './context';
import { createContext } from './context';
import { deleteEmployee } from './employees/deleteEmployee';
import { deleteEmployeeVersions } from './employees/deleteEmployeeVersions';
import { getDepartment, putDepartment, setManager } from './departments/departments';
import { listDepartmentsWithCounts, type DepartmentListCache } from './departments/departmentList';
import {
  findByLastName,
  getEmployee,
  getEmployeeByEmail,
  listEmployeeEntities,
  listEmployees,
} from './employees/employeeQueries';
import { requireDepartment, requireEmployee } from './employees/existence';
import { importEmployees } from './bulkImport/importEmployees';
import { createEmployee } from './employees/insertEmployee';
import { listReviews, putReview } from './employees/reviews';
import { TtlCache } from './departments/ttlCache';
import type { EmployeeChangeSink } from './changes';
import {
  patchEmployee,
  writeChanges,
  type PhotoChanges,
  type WriteOptions,
  type WrittenChanges,
} from './employees/updateEmployee';

export type { DirectoryOptions } from './context';

/** An operation with its first arguments (`Given`: the context, by default) already given. */
type Bound<F, Given extends unknown[] = [DirectoryContext]> = F extends (
  ...args: [...Given, ...infer A]
) => infer R
  ? (...rest: A) => R
  : never;

/** A department operation with its context and the department list cache already given. */
type BoundWithCache<F> = Bound<F, [DirectoryContext, DepartmentListCache]>;

/** Departments: the department entity, its listing, and its manager. */
export interface DepartmentService {
  /** Creates or updates a department. See {@link putDepartment}. */
  readonly put: BoundWithCache<typeof putDepartment>;
  /** One department, one point read. See {@link getDepartment}. */
  readonly get: Bound<typeof getDepartment>;
  /** A page of the (cached) department list with counts. See {@link listDepartmentsWithCounts}. */
  readonly list: BoundWithCache<typeof listDepartmentsWithCounts>;
  /** Returns when the department exists (one projected read). See {@link requireDepartment}. */
  readonly requireExists: Bound<typeof requireDepartment>;
  /** Makes an employee the manager. See {@link setManager}. */
  readonly setManager: Bound<typeof setManager>;
}

/** Employees: writes through entity group transactions, reads through keys. */
export interface EmployeeService {
  /** Creates one employee. See {@link createEmployee}. */
  readonly create: Bound<typeof createEmployee>;
  /** Imports up to 1,000 employees. See {@link importEmployees}. */
  readonly import: Bound<typeof importEmployees>;
  /** One employee by id, with ETag and stored entity. See {@link getEmployee}. */
  readonly get: Bound<typeof getEmployee>;
  /**
   * Returns when the employee exists (one projected point read); the services of per-employee
   * records take it as their `EmployeeCheck`. See {@link requireEmployee}.
   */
  readonly requireExists: Bound<typeof requireEmployee>;
  /** One employee by email. See {@link getEmployeeByEmail}. */
  readonly getByEmail: Bound<typeof getEmployeeByEmail>;
  /** A page of employees by id or email range. See {@link listEmployees}. */
  readonly list: Bound<typeof listEmployees>;
  /** A page of primary employee entities, for workers. See {@link listEmployeeEntities}. */
  readonly listEntities: Bound<typeof listEmployeeEntities>;
  /** Employees of a department with a last name. See {@link findByLastName}. */
  readonly findByLastName: Bound<typeof findByLastName>;
  /** Applies a PATCH body. See {@link patchEmployee}. */
  readonly patch: Bound<typeof patchEmployee>;
  /**
   * Names a photo (URL and the photo feature's properties, in the employee's one transaction)
   * without publishing: the caller publishes the change it returns with {@link publish}. See
   * {@link writeChanges}.
   */
  readonly writePhoto: (
    department: string,
    employeeId: string,
    photo: PhotoChanges,
    options?: Pick<WriteOptions, 'giveUp'>,
  ) => Promise<WrittenChanges>;
  /** Publishes committed changes to the change sink (see {@link EmployeeChangeSink.publish}). */
  readonly publish: EmployeeChangeSink['publish'];
  /** Deletes an employee (with `mustExist: false`: if it exists). See {@link deleteEmployee}. */
  readonly delete: Bound<typeof deleteEmployee>;
  /** Deletes employees each at a version (the archive). See {@link deleteEmployeeVersions}. */
  readonly deleteVersions: Bound<typeof deleteEmployeeVersions>;
}

/** Yearly reviews (compound key). */
export interface ReviewService {
  /** Writes one review: `(department, employeeId, year, body, options)`. See {@link putReview}. */
  readonly put: Bound<typeof putReview>;
  /** One page of an employee's reviews, by year. See {@link listReviews}. */
  readonly list: Bound<typeof listReviews>;
}

/** The directory's services over one `Employees` table. */
export interface Directory {
  readonly departments: DepartmentService;
  readonly employees: EmployeeService;
  readonly reviews: ReviewService;
  /**
   * Creates the `Employees` table if needed (idempotent; otherwise done on first use).
   *
   * @throws {DomainError} when storage refuses or cannot be reached.
   */
  ensureTables(): Promise<void>;
}

/** Builds the directory services over a context of their own. */
export function createDirectory(options: DirectoryOptions): Directory {
  return directoryOver(createContext(options), options);
}

/**
 * The directory services over an existing context (one version cache and one change sink shared
 * with whoever else holds the context, e.g. the orchestrations' activities). Each service holds
 * the operations bound to `context` (bound, not wrapped: no call frame of their own).
 */
export function directoryOver(
  context: DirectoryContext,
  options: Pick<DirectoryOptions, 'departmentCacheTtlMs' | 'now'> = {},
): Directory {
  const listCache: DepartmentListCache = new TtlCache(
    options.departmentCacheTtlMs ?? 30_000,
    options.now,
  );
  return {
    departments: {
      put: putDepartment.bind(null, context, listCache),
      get: getDepartment.bind(null, context),
      list: listDepartmentsWithCounts.bind(null, context, listCache),
      requireExists: requireDepartment.bind(null, context),
      setManager: setManager.bind(null, context),
    },
    employees: {
      create: createEmployee.bind(null, context),
      import: importEmployees.bind(null, context),
      get: getEmployee.bind(null, context),
      requireExists: requireEmployee.bind(null, context),
      getByEmail: getEmployeeByEmail.bind(null, context),
      list: listEmployees.bind(null, context),
      listEntities: listEmployeeEntities.bind(null, context),
      findByLastName: findByLastName.bind(null, context),
      patch: patchEmployee.bind(null, context),
      writePhoto: writeChanges.bind(null, context),
      publish: context.changes.publish.bind(context.changes),
      delete: deleteEmployee.bind(null, context),
      deleteVersions: deleteEmployeeVersions.bind(null, context),
    },
    reviews: {
      put: putReview.bind(null, context),
      list: listReviews.bind(null, context),
    },
    ensureTables: async () => {
      await context.table();
    },
  };
}
