/**
 * Creating one employee: the employee entity, its email copy, the department's count and the
 * last-name index entity change in ONE entity group transaction, conditional on the department's
 * and the index entity's ETags (a missing department fails the whole batch: 404).
 */
import { randomUUID } from 'node:crypto';
import { departmentPartitionKey, normalizeLastName } from '../storage/keys';
import type { DirectoryContext } from './context';
import { departmentMerge } from './departmentEntity';
import { departmentNotFound, emailTaken, employeeExists } from './directoryErrors';
import { emailCopyEntity, employeeEntity, toEmployee, type Employee } from './employeeEntity';
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
import { newEmployeeSchema, validateInput } from './validation';
import type { Versioned } from './versionCache';

type Role = 'employee' | 'email' | 'department' | 'lastNameIndex';

/**
 * Creates an employee and publishes a `created` change.
 *
 * @param input - `{employeeId, firstName, lastName, email, age?}` (validated here).
 * @returns the employee and the new ETag of its entity.
 * @throws {ValidationError} for invalid input or department name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken`, `LastNameIndexFull`.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
export async function createEmployee(
  context: DirectoryContext,
  department: string,
  input: unknown,
): Promise<Versioned<Employee>> {
  const data = validateInput(newEmployeeSchema, input, 'body');
  const partitionKey = departmentPartitionKey(department);
  const table = await context.table();
  const writeId = randomUUID();
  const lastName = normalizeLastName(data.lastName);

  const created = await retryOnConflict(
    context.maxConflictAttempts,
    async (attempt) => {
      const useCache = attempt === 1;
      const [dept, index] = await Promise.all([
        loadDepartment(context, department, useCache),
        loadLastNameIndex(context, department, lastName, useCache),
      ]);
      if (!dept) throw departmentNotFound(department);
      const ids = withIds(index?.value.ids ?? [], [data.employeeId]);
      const primary = employeeEntity(partitionKey, data, { isManager: false, writeId });
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
        if (departmentEtag)
          rememberDepartment(context, department, {
            value: { ...dept.value, employeeCount },
            etag: departmentEtag,
          });
        rememberLastNameIndex(
          context,
          department,
          indexEtag ? { value: { lastName, ids }, etag: indexEtag } : undefined,
          lastName,
        );
        return {
          value: toEmployee(department, data),
          etag: etag ?? (await currentEtag(table, partitionKey, primary.rowKey)),
        };
      } catch (error) {
        if (!(error instanceof TransactionFailure)) throw error;
        forgetVersions(context, department, [lastName]);
        switch (error.role) {
          case 'employee':
            return (
              (await ownCommit(table, department, partitionKey, data.employeeId, writeId)) ??
              Promise.reject(employeeExists(department, data.employeeId))
            );
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
  await context.changes.publish([{ department, employeeId: data.employeeId, reason: 'created' }]);
  return created;
}
