/**
 * Inserting one employee into a department's partition: the employee entity, its email copy, the
 * department's count and the last-name index entity change in ONE entity group transaction,
 * conditional on the department's and the index entity's ETags (a missing department fails the
 * whole batch: 404). Creating an employee and a move's copy into its target both insert this way.
 */
import { departmentPartitionKey, normalizeLastName } from '../storage/keys';
import type { DirectoryContext } from './context';
import { departmentMerge } from './departmentEntity';
import { departmentNotFound, emailTaken, employeeExists } from './directoryErrors';
import {
  emailCopyEntity,
  employeeEntity,
  toEmployee,
  type Employee,
  type EmployeeData,
  type EmployeeMeta,
} from './employeeEntity';
import { ownCommit } from './employeeState';
import { lastNameIndexEntity, withIds } from './lastNameIndex';
import { RETRY, retryOnConflict } from './retry';
import {
  contendedError,
  currentEtag,
  forgetVersions,
  loadDepartment,
  loadLastNameIndex,
  rememberDepartment,
  rememberLastNameIndex,
} from './state';
import {
  PlannedTransaction,
  retryUnexplained,
  submitPlanned,
  TransactionFailure,
} from './transaction';
import type { Versioned } from './versionCache';

type Role = 'employee' | 'email' | 'department' | 'lastNameIndex';

/** The inserted employee and its entity's ETag. */
export interface InsertedEmployee extends Versioned<Employee> {
  /**
   * False when the employee was already there from an earlier try carrying the same write id
   * (its answer was lost): nothing was written this time.
   */
  inserted: boolean;
}

/**
 * Inserts a (validated) employee into `department` as a non-manager, retrying on concurrent
 * changes of the department or index entity. Publishes no change: the caller does.
 *
 * @param meta - `writeId` recognises this write's own earlier commit; `preserved` carries
 *   properties of a newer app version (a move keeps them).
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists` (another write's employee has the id), `EmailTaken`,
 *   `LastNameIndexFull`.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
export async function insertEmployee(
  context: DirectoryContext,
  department: string,
  data: EmployeeData,
  meta: Pick<EmployeeMeta, 'writeId' | 'preserved'>,
): Promise<InsertedEmployee> {
  const partitionKey = departmentPartitionKey(department);
  const table = await context.table();
  const lastName = normalizeLastName(data.lastName);
  const primary = employeeEntity(partitionKey, data, {
    ...meta,
    isManager: false,
    reviewYears: [],
  });

  return retryOnConflict(
    context.maxConflictAttempts,
    async (attempt) => {
      const useCache = attempt === 1;
      const [dept, index] = await Promise.all([
        loadDepartment(context, department, useCache),
        loadLastNameIndex(context, department, lastName, useCache),
      ]);
      if (!dept) throw departmentNotFound(department);
      const ids = withIds(index?.value.ids ?? [], [data.employeeId]);
      const indexEntity = lastNameIndexEntity(partitionKey, { lastName, ids });
      const employeeCount = dept.value.employeeCount + 1;
      const plan = new PlannedTransaction<Role>()
        .add(['create', primary], 'employee')
        .add(['create', emailCopyEntity(primary)], 'email')
        .add(
          ['update', departmentMerge(department, { employeeCount }), 'Merge', { etag: dept.etag }],
          'department',
        )
        .add(
          index
            ? ['update', indexEntity, 'Replace', { etag: index.etag }]
            : ['create', indexEntity],
          'lastNameIndex',
        );
      try {
        const [etag, , departmentEtag, indexEtag] = await submitPlanned(table, plan);
        if (departmentEtag) {
          rememberDepartment(context, department, {
            value: { ...dept.value, employeeCount },
            etag: departmentEtag,
          });
        }
        rememberLastNameIndex(
          context,
          department,
          indexEtag ? { value: { lastName, ids }, etag: indexEtag } : undefined,
          lastName,
        );
        return {
          value: toEmployee(department, data),
          etag: etag ?? (await currentEtag(table, partitionKey, primary.rowKey)),
          inserted: true,
        };
      } catch (error) {
        if (!(error instanceof TransactionFailure)) throw error;
        forgetVersions(context, department, [lastName]);
        switch (error.role) {
          case 'employee': {
            const own = await ownCommit(
              table,
              department,
              partitionKey,
              data.employeeId,
              meta.writeId,
            );
            if (own) return { ...own, inserted: false };
            throw employeeExists(department, data.employeeId);
          }
          case 'email':
            throw emailTaken(department, data.email);
          case 'department':
            if (error.status === 404 && !useCache) throw departmentNotFound(department);
            return RETRY;
          default:
            return retryUnexplained(error, attempt);
        }
      }
    },
    () => contendedError(`Department "${department}"`),
  );
}
