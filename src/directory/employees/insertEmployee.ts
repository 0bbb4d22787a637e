/**
 * Creating one employee, and inserting one into a department's partition (a create and a move's
 * copy into its target both insert this way): the employee entity, its email copy, one count shard
 * of the department (the process's next, departmentCount.ts) and the last-name index entity change
 * in ONE entity group transaction, conditional on the shard's and the index entity's ETags, plus
 * the index outbox row when the directory keeps one (outbox.ts). The department's existence is
 * read with its shards (departments are never deleted), so concurrent creates in one department
 * collide only on the same shard or last name.
 */
import { randomUUID } from 'node:crypto';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import { directoryRetry, type DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import { departmentNotFound, emailTaken, employeeExists } from '../directoryErrors';
import {
  emailCopyEntity,
  employeeEntity,
  toEmployee,
  type Employee,
  type EmployeeData,
  type EmployeeMeta,
  newIncarnation,
} from '../entities/employeeEntity';
import { currentEtag, ownCommit } from '../entities/employeeState';
import { lastNameIndexEntity, withIds } from '../entities/partitionLastNameIndex';
import { outboxAction } from '../entities/outbox';
import { forgetCountShard, loadCountShard, rememberCountShard } from '../writes/departmentVersions';
import { lastNameKey } from '../entities/versionCache';
import { loadLastNameIndex, rememberIndexWrite } from '../writes/lastNameVersions';
import {
  PlannedTransaction,
  replaceOrCreate,
  retryUnexplained,
  submitPlan,
} from '../writes/plannedTransaction';
import type { Versioned } from '../entities/versionCache';
import { newEmployeeSchema, validateInput } from '../validation';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { publishingIfUncertain } from '../writes/uncertainCommit';

type Role = 'employee' | 'email' | 'count' | 'lastNameIndex' | 'outbox';

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
 * @param meta - `writeId` recognises this write's own earlier commit; `incarnation` is the
 *   employee's (a new one for a create, the source's for a move); `preserved` carries
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
  meta: Pick<EmployeeMeta, 'writeId' | 'incarnation' | 'preserved'>,
): Promise<InsertedEmployee> {
  const partitionKey = departmentPartitionKey(department);
  const table = await context.table();
  const lastName = normalizeLastName(data.lastName);
  const primary = employeeEntity(partitionKey, data, {
    ...meta,
    isManager: false,
    reviewYears: [],
  });

  const subject = `Department "${department}"`;
  return retryOptimistically(
    directoryRetry(context, subject),
    async (attempt): Promise<InsertedEmployee | typeof RETRY> => {
      const useCache = attempt === 1;
      const [count, index] = await Promise.all([
        // A lost race on a shard only makes that shard's cached version stale: the next attempt
        // takes another shard from the cache before reading them all again.
        loadCountShard(context, table, department, attempt <= 2),
        loadLastNameIndex(context, table, department, lastName, useCache),
      ]);
      if (!count) throw departmentNotFound(department);
      const ids = withIds(index?.value.ids ?? [], [data.employeeId]);
      const indexEntity = lastNameIndexEntity(partitionKey, { lastName, ids });
      const plan = new PlannedTransaction<Role>()
        .add(['create', primary], 'employee')
        .add(['create', emailCopyEntity(primary)], 'email')
        .add(countShardChange(partitionKey, count.shard, count.version, 1), 'count')
        .add(replaceOrCreate(indexEntity, index?.etag), 'lastNameIndex');
      if (context.outbox) {
        const current = { email: data.email, lastName: data.lastName };
        plan.add(
          outboxAction(partitionKey, { employeeId: data.employeeId, reason: 'created', current }),
          'outbox',
        );
      }
      const submitted = await submitPlan(table, plan);
      if ('refused' in submitted) {
        const failure = submitted.refused;
        // The transaction applied nothing: only the entity that refused it may be stale.
        if (failure.role === 'count') forgetCountShard(context, department, count.shard);
        else context.lastNameVersions.delete(lastNameKey(department, lastName));
        switch (failure.role) {
          case 'employee': {
            // This write's own earlier try (the SDK resent it, its answer lost), or another's.
            const own = await ownCommit(table, department, data.employeeId, meta.writeId);
            if (!own) throw employeeExists(department, data.employeeId);
            return { ...own, inserted: false };
          }
          case 'email':
            throw emailTaken(department, data.email);
          case 'count':
            // Another writer changed or created the same shard: read again, pick again.
            return RETRY;
          default:
            return retryUnexplained(failure, attempt);
        }
      }
      const [etag, , countEtag, indexEtag] = submitted.etags;
      if (countEtag) {
        rememberCountShard(context, department, count.shard, {
          value: count.version.value + 1,
          etag: countEtag,
        });
      }
      rememberIndexWrite(context, department, lastName, ids, indexEtag);
      return {
        value: toEmployee(department, data),
        etag: etag ?? (await currentEtag(table, partitionKey, primary.rowKey)),
        inserted: true,
      };
    },
  );
}

/**
 * Creates an employee ({@link insertEmployee} with a new write id and incarnation) and publishes
 * a `created` change.
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
  const change = { department, employeeId: data.employeeId, reason: 'created' as const };
  const inserted = await publishingIfUncertain(context, change, () =>
    insertEmployee(context, department, data, {
      writeId: randomUUID(),
      incarnation: newIncarnation(),
    }),
  );
  await context.changes.publish([change]);
  return { value: inserted.value, etag: inserted.etag };
}
