/**
 * Departments: create/update, point read, and the manager (whose details are copied onto the
 * department entity: denormalization). The cached department list: departmentList.ts.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { isPreconditionFailed, isAlreadyExists, toDomainError } from '../../storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../../storage/keys/tables/employees';
import { directoryRetry, type DirectoryContext } from '../context';
import {
  departmentEntity,
  departmentMerge,
  readListingVersion,
  type Department,
} from '../entities/departmentEntity';
import { readDepartmentWithCount } from '../entities/departmentCount';
import { syncDepartmentListing } from './departmentListing';
import {
  departmentCreateForbidden,
  departmentNotFound,
  employeeNotFound,
  staleVersion,
} from '../directoryErrors';
import { readEmployeeState, type EmployeeState } from '../entities/employeeState';
import { DATA_ETAG_PROPERTY } from '../entities/reviewYears';
import type { StoredProperties } from '../../storage/tables/entities';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { forgetVersions, loadDepartment, rememberDepartment } from '../writes/departmentVersions';
import { PlannedTransaction, retryUnexplained, submitPlan } from '../writes/plannedTransaction';
import { departmentBodySchema, validateInput } from '../validation';
import type { Versioned } from '../entities/versionCache';
import type { DepartmentListCache } from './departmentList';

/**
 * Creates a department or updates its description, and lists it in the department listing: the
 * listing copies the department's `ListingVersion` and is replaced only by a newer copy, so
 * concurrent PUTs leave it agreeing with the department (departmentListing.ts).
 *
 * @param body - `{description?}`; an omitted description leaves an existing one unchanged.
 * @returns whether it was created, the department and its new ETag.
 * @throws {ValidationError} for an invalid name or body.
 * @param options.mayCreate - false when the caller may update but not create (default true).
 * @throws {PreconditionFailedError} when `ifMatch` is given and is not the current ETag (or the
 *   department does not exist).
 * @throws {ForbiddenError} when the department does not exist and `mayCreate` is false.
 */
export async function putDepartment(
  context: DirectoryContext,
  listCache: DepartmentListCache,
  name: string,
  body: unknown,
  options: { ifMatch?: string; mayCreate?: boolean } = {},
): Promise<{ created: boolean } & Versioned<Department>> {
  const input = validateInput(departmentBodySchema, body, 'body');
  departmentPartitionKey(name);
  const table = await context.table();
  const subject = `Department "${name}"`;
  // Before the read: the count a listing created below carries is at least this recent.
  const readAt = new Date();
  const result = await retryOptimistically(directoryRetry(context, subject), async () => {
    // One range read: the department with its count (its shards), as GET shows it.
    const read = await readDepartmentWithCount(table, name);
    const entity = read && { ...read.entity, etag: read.department.etag };
    const current = read?.department.value;
    if (!entity || !current) {
      if (options.ifMatch !== undefined) throw staleVersion(`Department "${name}"`);
      if (options.mayCreate === false) {
        throw departmentCreateForbidden(name);
      }
      const created = departmentEntity(name, input.description ?? '');
      try {
        const response = await table.createEntity(created);
        const value: Department = {
          name,
          description: input.description ?? '',
          employeeCount: 0,
          manager: null,
        };
        return {
          created: true,
          value,
          etag: response.etag ?? '',
          listingVersion: readListingVersion(created),
        };
      } catch (error) {
        if (isAlreadyExists(error)) return RETRY;
        throw toDomainError(error);
      }
    }
    if (options.ifMatch !== undefined && options.ifMatch !== entity.etag)
      throw staleVersion(`Department "${name}"`);
    const listingVersion = readListingVersion(entity);
    if (input.description === undefined || input.description === current.description) {
      return { created: false, value: current, etag: entity.etag, listingVersion };
    }
    try {
      const response = await table.updateEntity(
        departmentMerge(name, {
          description: { text: input.description, listingVersion: listingVersion + 1 },
        }),
        'Merge',
        { etag: entity.etag },
      );
      return {
        created: false,
        value: { ...current, description: input.description },
        etag: response.etag ?? '',
        listingVersion: listingVersion + 1,
      };
    } catch (error) {
      forgetVersions(context, name);
      if (isPreconditionFailed(error)) {
        if (options.ifMatch !== undefined) throw staleVersion(`Department "${name}"`);
        return RETRY;
      }
      throw toDomainError(error);
    }
  });
  rememberDepartment(context, name, { value: result.value, etag: result.etag });
  // The listing lives in another partition: copied after the department, conditionally, so only
  // a newer copy ever replaces it (departmentListing.ts); a failure here is repaired by the
  // caller's retry of the same PUT, by the next PUT, or by the index audit.
  await syncDepartmentListing(
    table,
    { name, description: result.value.description },
    result.listingVersion,
    { employeeCount: result.value.employeeCount, asOf: readAt },
  );
  listCache.clear();
  return { created: result.created, value: result.value, etag: result.etag };
}

/**
 * One department with its ETag and employee count: ONE range query over the department entity and
 * its count shards (departmentCount.ts).
 *
 * @throws {ValidationError} for an invalid name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {DomainError} for storage faults.
 */
export async function getDepartment(
  context: DirectoryContext,
  name: string,
): Promise<Versioned<Department>> {
  const read = await readDepartmentWithCount(await context.table(), name);
  if (!read) throw departmentNotFound(name);
  return read.department;
}

type ManagerRole = 'department' | 'employee' | 'previousManager';

/** The Merge that sets or clears an employee's manager flag, keeping its data version. */
function managerFlag(employee: EmployeeState, isManager: boolean): TableEntity<StoredProperties> {
  return {
    partitionKey: employee.entity.partitionKey,
    rowKey: employee.entity.rowKey,
    IsManager: isManager,
    [DATA_ETAG_PROPERTY]: employee.meta.dataEtag ?? employee.etag,
  };
}

/**
 * Makes an employee of the department its manager: copies the manager's details onto the
 * department entity and flags the employee (and unflags the previous manager) in one transaction,
 * so later name/email changes of the manager update the copy in their own transaction.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `DepartmentNotFound`, or `EmployeeNotFound` when the employee is not in
 *   the department.
 * @throws {PreconditionFailedError} when `ifMatch` is not the department's current ETag.
 */
export async function setManager(
  context: DirectoryContext,
  department: string,
  employeeId: string,
  options: { ifMatch?: string } = {},
): Promise<Versioned<Department>> {
  const partitionKey = departmentPartitionKey(department);
  employeeRowKey(employeeId);
  const table: TableAccess = await context.table();
  const subject = `Department "${department}"`;
  let previousMissing: string | undefined;
  return retryOptimistically(directoryRetry(context, subject), async (attempt) => {
    const [dept, employee] = await Promise.all([
      loadDepartment(context, table, department, false),
      readEmployeeState(table, partitionKey, employeeId),
    ]);
    if (!dept) throw departmentNotFound(department);
    if (!employee) throw employeeNotFound(department, employeeId);
    if (options.ifMatch !== undefined && options.ifMatch !== dept.etag) throw staleVersion(subject);
    const manager = {
      employeeId,
      firstName: employee.data.firstName,
      lastName: employee.data.lastName,
      email: employee.data.email,
    };
    const previous = dept.value.manager?.employeeId;
    const unflag =
      previous !== undefined && previous !== employeeId && previous !== previousMissing
        ? await readEmployeeState(table, partitionKey, previous)
        : undefined;
    // The flag is bookkeeping, not data: each Merge keeps the employee's data version (DataETag),
    // so a client's If-Match still holds and a move still knows the copy it wrote.
    const plan = new PlannedTransaction<ManagerRole>()
      .add(
        ['update', departmentMerge(department, { manager }), 'Merge', { etag: dept.etag }],
        'department',
      )
      .add(['update', managerFlag(employee, true), 'Merge', { etag: employee.etag }], 'employee');
    if (unflag) {
      plan.add(
        ['update', managerFlag(unflag, false), 'Merge', { etag: unflag.etag }],
        'previousManager',
      );
    } else if (previous !== undefined && previous !== employeeId) {
      previousMissing = previous;
    }
    const outcome = await submitPlan(table, plan);
    if ('refused' in outcome) {
      const failure = outcome.refused;
      forgetVersions(context, department);
      if (failure.role === 'department' && options.ifMatch !== undefined)
        throw staleVersion(subject);
      // Gone since: read again without touching the previous manager; changed since (412), or
      // another role: read again.
      if (failure.role === 'previousManager' && failure.status === 404) {
        previousMissing = previous;
      }
      return retryUnexplained(failure, attempt);
    }
    const [etag] = outcome.etags;
    const value = { ...dept.value, manager };
    if (etag) rememberDepartment(context, department, { value, etag });
    return { value, etag: etag ?? '' };
  });
}
