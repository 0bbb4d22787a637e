/**
 * The directory's entry point: departments, employees and reviews over one `Employees` table.
 *
 * Build it with {@link createDirectory}, passing the table client (tests pass a client for a
 * unique table; the HTTP adapters pass the configured one) and, optionally, the sink that receives
 * committed employee changes for the asynchronous indexes. The table is created on first use
 * (once per process), or up front with {@link Directory.ensureTables}.
 */
import { invalidPhotoUrl } from './directoryErrors';
import type { DirectoryContext, DirectoryOptions } from './context';
import { createContext } from './context';
import { createEmployee } from './employees/createEmployee';
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
import type { Department, DepartmentListItem } from './entities/departmentEntity';
import {
  getDepartment,
  listDepartmentsWithCounts,
  putDepartment,
  setManager,
  type DepartmentListCache,
} from './departments/departments';
import type { Employee } from './entities/employeeEntity';
import {
  findByLastName,
  getEmployee,
  getEmployeeByEmail,
  listEmployeeEntities,
  listEmployees,
  type EmployeeRange,
  type EmployeeRecord,
  type ListOptions,
} from './employees/employeeQueries';
import { requireDepartment, requireEmployee } from './employees/existence';
import { importEmployees, type ImportResult } from './bulkImport/importEmployees';
import { listReviews, putReview, type Review } from './employees/reviews';
import { TtlCache } from './departments/ttlCache';
import { updateEmployee } from './employees/updateEmployee';
import { employeePatchSchema, validateInput } from './validation';
import type { Versioned } from './entities/versionCache';
import type { StoredEntity } from '../storage/tables/entities';
import type { Page } from '../storage/tables/rangePages';

export type { DirectoryOptions } from './context';

/** The parameters of a directory function after its context (the services pass their own). */
type WithoutContext<F extends (context: DirectoryContext, ...rest: never[]) => unknown> =
  Parameters<F> extends [DirectoryContext, ...infer Rest] ? Rest : never;

/** Departments: the department entity, its listing, and its manager. */
export class DepartmentService {
  constructor(
    private readonly context: DirectoryContext,
    private readonly listCache: DepartmentListCache,
  ) {}

  /** Creates or updates a department. See {@link putDepartment}. */
  put(
    name: string,
    body: unknown,
    options: { ifMatch?: string; mayCreate?: boolean } = {},
  ): Promise<{ created: boolean } & Versioned<Department>> {
    return putDepartment(this.context, this.listCache, name, body, options);
  }

  /** One department, one point read. See {@link getDepartment}. */
  get(name: string): Promise<Versioned<Department>> {
    return getDepartment(this.context, name);
  }

  /**
   * A page of the (cached) department list, each with its current employee count. See
   * {@link listDepartmentsWithCounts}.
   */
  list(
    options: { pageSize?: number; continuationToken?: string } = {},
  ): Promise<Page<DepartmentListItem>> {
    return listDepartmentsWithCounts(this.context, this.listCache, options);
  }

  /**
   * Returns when the department exists (one projected point read).
   *
   * @throws {NotFoundError} `DepartmentNotFound`. See {@link requireDepartment}.
   */
  requireExists(name: string): Promise<void> {
    return requireDepartment(this.context, name);
  }

  /** Makes an employee the manager. See {@link setManager}. */
  setManager(
    name: string,
    employeeId: string,
    options: { ifMatch?: string } = {},
  ): Promise<Versioned<Department>> {
    return setManager(this.context, name, employeeId, options);
  }
}

/** Employees: writes through entity group transactions, reads through keys. */
export class EmployeeService {
  constructor(private readonly context: DirectoryContext) {}

  /** Creates one employee. See {@link createEmployee}. */
  create(department: string, body: unknown): Promise<Versioned<Employee>> {
    return createEmployee(this.context, department, body);
  }

  /** Imports up to 1,000 employees. See {@link importEmployees}. */
  import(department: string, rows: readonly unknown[]): Promise<ImportResult> {
    return importEmployees(this.context, department, rows);
  }

  /** One employee by id, with ETag and stored entity. See {@link getEmployee}. */
  get(department: string, employeeId: string): Promise<EmployeeRecord> {
    return getEmployee(this.context, department, employeeId);
  }

  /**
   * Returns when the employee exists (one projected point read); the services of per-employee
   * records take it as their `EmployeeCheck`.
   *
   * @throws {NotFoundError} `EmployeeNotFound`. See {@link requireEmployee}.
   */
  requireExists(department: string, employeeId: string): Promise<void> {
    return requireEmployee(this.context, department, employeeId);
  }

  /** One employee by email. See {@link getEmployeeByEmail}. */
  getByEmail(department: string, email: string): Promise<Versioned<Employee>> {
    return getEmployeeByEmail(this.context, department, email);
  }

  /** A page of employees by id or email range. See {@link listEmployees}. */
  list(
    department: string,
    range: EmployeeRange = {},
    options: ListOptions = {},
  ): Promise<Page<Record<string, unknown>>> {
    return listEmployees(this.context, department, range, options);
  }

  /** A page of primary employee entities, for workers. See {@link listEmployeeEntities}. */
  listEntities(
    department: string,
    options: { pageSize?: number; continuationToken?: string } = {},
  ): Promise<{ entities: StoredEntity[]; continuationToken: string | null }> {
    return listEmployeeEntities(this.context, department, options);
  }

  /** Employees of a department with a last name. See {@link findByLastName}. */
  findByLastName(
    department: string,
    lastName: string,
    options: ListOptions = {},
  ): Promise<Page<Record<string, unknown>>> {
    return findByLastName(this.context, department, lastName, options);
  }

  /**
   * Applies a PATCH body (`firstName`, `lastName`, `email`, `age`; `age: null` clears it).
   *
   * @throws {ValidationError} for an invalid body. See {@link updateEmployee} for the rest.
   */
  async patch(
    department: string,
    employeeId: string,
    body: unknown,
    options: { ifMatch?: string } = {},
  ): Promise<Versioned<Employee>> {
    const patch = validateInput(employeePatchSchema, body, 'body');
    return updateEmployee(this.context, department, employeeId, patch, options);
  }

  /**
   * Sets (or with `null` clears) the employee's photo URL on the employee and its email copy in
   * one transaction (for the photo upload, which stores the bytes in blob storage).
   *
   * @throws {ValidationError} for a URL that is not absolute http(s) or is over 2,048 characters.
   */
  async setPhotoUrl(
    department: string,
    employeeId: string,
    photoUrl: string | null,
    options: { ifMatch?: string } = {},
  ): Promise<Versioned<Employee>> {
    if (photoUrl !== null && (photoUrl.length > 2048 || !/^https?:\/\/[^\s]+$/.test(photoUrl))) {
      throw invalidPhotoUrl();
    }
    return updateEmployee(this.context, department, employeeId, { photoUrl }, options);
  }

  /** Deletes an employee (or, with `mustExist: false`, deletes it if it exists). See {@link deleteEmployee}. */
  delete(
    department: string,
    employeeId: string,
    options: DeleteEmployeeOptions = {},
  ): Promise<EmployeeDeleted> {
    return deleteEmployee(this.context, department, employeeId, options);
  }

  /**
   * Deletes employees of one department, each only at the version given, in grouped transactions
   * (the department archive). See {@link deleteEmployeeVersions}.
   */
  deleteVersions(
    department: string,
    read: readonly StoredEntity[],
    options: DeleteVersionsOptions = {},
  ): Promise<VersionsDeleted> {
    return deleteEmployeeVersions(this.context, department, read, options);
  }
}

/** Yearly reviews (compound key). */
export class ReviewService {
  constructor(private readonly context: DirectoryContext) {}

  /** Writes one review: `(department, employeeId, year, body, options)`. See {@link putReview}. */
  put(...args: WithoutContext<typeof putReview>): Promise<Versioned<Review>> {
    return putReview(this.context, ...args);
  }

  /** One page of an employee's reviews, by year. See {@link listReviews}. */
  list(...args: WithoutContext<typeof listReviews>): ReturnType<typeof listReviews> {
    return listReviews(this.context, ...args);
  }
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
  return {
    departments: new DepartmentService(context, listCache),
    employees: new EmployeeService(context),
    reviews: new ReviewService(context),
    ensureTables: async () => {
      await context.table();
    },
  };
}
