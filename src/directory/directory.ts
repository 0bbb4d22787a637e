/**
 * The directory's entry point: departments, employees and reviews over one `Employees` table.
 *
 * Build it with {@link createDirectory}, passing the table client (tests pass a client for a
 * unique table; the HTTP adapters pass the configured one) and, optionally, the sink that receives
 * committed employee changes for the asynchronous indexes. The table is created on first use
 * (once per process), or up front with {@link Directory.ensureTables}. The operations are plain
 * functions over a context; the service objects only give them this one (docs/architecture.md).
 */
import type { DirectoryContext, DirectoryOptions } from './context';
import { createContext } from './context';
import {
  deleteEmployee,
  type DeleteEmployeeOptions,
  type EmployeeDeleted,
} from './employees/deleteEmployee';
import {
  deleteEmployeeVersions,
  type DeleteVersionsOptions,
  type VersionsDeleted,
} from './employees/deleteEmployeeVersions';
import { getDepartment, putDepartment, setManager } from './departments/departments';
import { listDepartmentsWithCounts, type DepartmentListCache } from './departments/departmentList';
import {
  getEmployee,
  getEmployeeByEmail,
  listEmployeeEntities,
  listEmployees,
  type EmployeeRange,
  type EmployeeRecord,
  type ListOptions,
} from './employees/employeeQueries';
import { requireDepartment, requireEmployee } from './employees/existence';
import { findByLastName } from './employees/lastNameLookup';
import { importEmployees, type ImportResult } from './bulkImport/importEmployees';
import type { ImportHooks } from './bulkImport/importChunk';
import { createEmployee } from './employees/insertEmployee';
import { listReviews, putReview, type Review } from './employees/reviews';
import type { Department, DepartmentListItem } from './entities/departmentEntity';
import type { Employee } from './entities/employeeEntity';
import type { Versioned } from './entities/versionCache';
import type { Page } from '../storage/tables/rangePages';
import type { StoredEntity } from '../storage/tables/entities';
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

/** Departments: the department entity, its listing, and its manager. */
export interface DepartmentService {
  /** Creates or updates a department. See {@link putDepartment}. */
  put(
    name: string,
    body: unknown,
    options?: { ifMatch?: string; mayCreate?: boolean },
  ): Promise<{ created: boolean } & Versioned<Department>>;
  /** One department, one point read. See {@link getDepartment}. */
  get(name: string): Promise<Versioned<Department>>;
  /** A page of the (cached) department list with counts. See {@link listDepartmentsWithCounts}. */
  list(options?: PageOptions): Promise<Page<DepartmentListItem>>;
  /** Returns when the department exists (one projected read). See {@link requireDepartment}. */
  requireExists(name: string): Promise<void>;
  /** Makes an employee the manager. See {@link setManager}. */
  setManager(
    department: string,
    employeeId: string,
    options?: { ifMatch?: string },
  ): Promise<Versioned<Department>>;
}

/** Employees: writes through entity group transactions, reads through keys. */
export interface EmployeeService {
  /** Creates one employee. See {@link createEmployee}. */
  create(department: string, input: unknown): Promise<Versioned<Employee>>;
  /** Imports up to 1,000 employees. See {@link importEmployees}. */
  import(department: string, rows: readonly unknown[], hooks?: ImportHooks): Promise<ImportResult>;
  /** One employee by id, with ETag and stored entity. See {@link getEmployee}. */
  get(department: string, employeeId: string): Promise<EmployeeRecord>;
  /**
   * Returns when the employee exists (one projected point read); the services of per-employee
   * records take it as their `EmployeeCheck`. See {@link requireEmployee}.
   */
  requireExists(department: string, employeeId: string): Promise<void>;
  /** One employee by email. See {@link getEmployeeByEmail}. */
  getByEmail(department: string, email: string): Promise<Versioned<Employee>>;
  /** A page of employees by id or email range. See {@link listEmployees}. */
  list(
    department: string,
    range?: EmployeeRange,
    options?: ListOptions,
  ): Promise<Page<Record<string, unknown>>>;
  /** A page of primary employee entities, for workers. See {@link listEmployeeEntities}. */
  listEntities(
    department: string,
    options?: PageOptions,
  ): Promise<{ entities: StoredEntity[]; continuationToken: string | null }>;
  /** Employees of a department with a last name. See {@link findByLastName}. */
  findByLastName(
    department: string,
    lastName: string,
    options?: ListOptions,
  ): Promise<Page<Record<string, unknown>>>;
  /** Applies a PATCH body. See {@link patchEmployee}. */
  patch(
    department: string,
    employeeId: string,
    body: unknown,
    options?: { ifMatch?: string },
  ): Promise<Versioned<Employee>>;
  /**
   * Names a photo (URL and the photo feature's properties, in the employee's one transaction)
   * without publishing: the caller publishes the change it returns with {@link publish}. See
   * {@link writeChanges}.
   */
  writePhoto(
    department: string,
    employeeId: string,
    photo: PhotoChanges,
    options?: Pick<WriteOptions, 'giveUp'>,
  ): Promise<WrittenChanges>;
  /** Publishes committed changes to the change sink (see {@link EmployeeChangeSink.publish}). */
  publish: EmployeeChangeSink['publish'];
  /** Deletes an employee (with `mustExist: false`: if it exists). See {@link deleteEmployee}. */
  delete(
    department: string,
    employeeId: string,
    options?: DeleteEmployeeOptions,
  ): Promise<EmployeeDeleted>;
  /** Deletes employees each at a version (the archive). See {@link deleteEmployeeVersions}. */
  deleteVersions(
    department: string,
    read: readonly StoredEntity[],
    options?: DeleteVersionsOptions,
  ): Promise<VersionsDeleted>;
}

/** Yearly reviews (compound key). */
export interface ReviewService {
  /** Writes one review. See {@link putReview}. */
  put(
    department: string,
    employeeId: string,
    year: number,
    body: unknown,
    options?: { ifMatch?: string },
  ): Promise<Versioned<Review>>;
  /** One page of an employee's reviews, by year. See {@link listReviews}. */
  list(
    department: string,
    employeeId: string,
    select?: readonly string[],
    options?: PageOptions,
  ): Promise<Page<Record<string, unknown>>>;
}

/** A page size and where the previous page ended. */
interface PageOptions {
  pageSize?: number;
  continuationToken?: string;
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
 * with whoever else holds the context, e.g. the orchestrations' activities).
 */
export function directoryOver(
  context: DirectoryContext,
  options: Pick<DirectoryOptions, 'departmentCacheTtlMs' | 'now'> = {},
): Directory {
  const listCache: DepartmentListCache = new TtlCache(
    options.departmentCacheTtlMs ?? 30_000,
    options.now,
  );
  // Each member passes its call on with the context: one expression, no frame a reader opens.
  return {
    departments: {
      put: (name, body, o) => putDepartment(context, listCache, name, body, o),
      get: (name) => getDepartment(context, name),
      list: (o) => listDepartmentsWithCounts(context, listCache, o),
      requireExists: (name) => requireDepartment(context, name),
      setManager: (department, id, o) => setManager(context, department, id, o),
    },
    employees: {
      create: (department, input) => createEmployee(context, department, input),
      import: (department, rows, hooks) => importEmployees(context, department, rows, hooks),
      get: (department, id) => getEmployee(context, department, id),
      requireExists: (department, id) => requireEmployee(context, department, id),
      getByEmail: (department, email) => getEmployeeByEmail(context, department, email),
      list: (department, range, o) => listEmployees(context, department, range, o),
      listEntities: (department, o) => listEmployeeEntities(context, department, o),
      findByLastName: (department, name, o) => findByLastName(context, department, name, o),
      patch: (department, id, body, o) => patchEmployee(context, department, id, body, o),
      writePhoto: (department, id, photo, o) => writeChanges(context, department, id, photo, o),
      publish: (changes) => context.changes.publish(changes),
      delete: (department, id, o) => deleteEmployee(context, department, id, o),
      deleteVersions: (department, read, o) => deleteEmployeeVersions(context, department, read, o),
    },
    reviews: {
      put: (department, id, year, body, o) => putReview(context, department, id, year, body, o),
      list: (department, id, select, o) => listReviews(context, department, id, select, o),
    },
    ensureTables: async () => {
      await context.table();
    },
  };
}
