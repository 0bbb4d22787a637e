/**
 * The employee's own transaction of {@link deleteEmployee} (deleteEmployee.ts): what it deletes and
 * updates, each operation with its role, and the versions it leaves in the version cache once it
 * committed. The attempt that reads, decides and retries stays in deleteEmployee.ts.
 */
import type { TableEntity } from '@azure/data-tables';
import { emailRowKey, reviewRowKey } from '../../storage/keys/tables/employees';
import type { StoredProperties } from '../../storage/tables/entities';
import type { DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import { departmentMerge, type Department } from '../entities/departmentEntity';
import type { EmployeeState } from '../entities/employeeState';
import { outboxAction } from '../entities/outbox';
import { lastNameIndexRemoval, type LastNameIndex } from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import {
  rememberCountShard,
  rememberDepartment,
  type ChosenShard,
} from '../writes/departmentVersions';
import { rememberIndexWrite } from '../writes/lastNameVersions';
import { PlannedTransaction } from '../writes/plannedTransaction';

/** What each operation of a delete's transactions stands for (a refusal is explained by it). */
export type Role =
  'employee' | 'email' | 'count' | 'department' | 'lastNameIndex' | 'outbox' | 'receipt' | 'review';

/** The employee being deleted, as this attempt read and decided it. */
export interface Deletion {
  department: string;
  employeeId: string;
  partitionKey: string;
  current: EmployeeState;
  /** The employee's ETag the delete is conditional on (after this attempt's review trims). */
  etag: string;
  /** The review years still to delete, all in this transaction. */
  years: readonly number[];
  /** Skip the email copy's delete: a refused transaction showed it missing. */
  emailMissing: boolean;
  reason: 'deleted' | 'archived' | 'moved';
  receipt?: TableEntity<StoredProperties>;
}

/** The versions the transaction is decided from (department and count: maybe from the cache). */
export interface DeletionReads {
  dept: Versioned<Department> | undefined;
  count: ChosenShard | undefined;
  index: Versioned<LastNameIndex> | undefined;
}

/** The transaction, with what {@link rememberDeletion} needs once it committed. */
export interface DeletionPlan {
  plan: PlannedTransaction<Role>;
  /** Whether the department lists the employee as its manager (its copy is cleared). */
  listed: boolean;
  /** The ids the last-name index entity holds after the transaction. */
  ids: string[] | undefined;
}

/** The employee's own transaction: its delete under `etag`, with every copy and index entry. */
export function deletionPlan(
  context: DirectoryContext,
  deletion: Deletion,
  { dept, count, index }: DeletionReads,
): DeletionPlan {
  const { department, employeeId, partitionKey, current } = deletion;
  const plan = new PlannedTransaction<Role>().add(
    ['delete', { partitionKey, rowKey: current.entity.rowKey }, { etag: deletion.etag }],
    'employee',
  );
  if (!deletion.emailMissing) {
    plan.add(['delete', { partitionKey, rowKey: emailRowKey(current.data.email) }], 'email');
  }
  if (count) plan.add(countShardChange(partitionKey, count.shard, count.version, -1), 'count');
  // Only a manager's delete touches the department entity (to clear its copy). The department
  // may come from this process's cache, so it never decides alone: the employee's own flag
  // (set with the department's copy by setManager, and read under the ETag this delete is
  // conditional on) brings the department in too, conditional on the version read — a stale
  // one fails with 412 and the retry reads it afresh. Not every delete: concurrent deletes of
  // one department would all collide on it.
  const listed = dept?.value.manager?.employeeId === employeeId;
  if (dept && (listed || current.meta.isManager)) {
    const change = listed ? { manager: null } : {};
    plan.add(
      ['update', departmentMerge(department, change), 'Merge', { etag: dept.etag }],
      'department',
    );
  }
  // Always conditional on the index version the decision comes from (see
  // lastNameIndexRemoval). No entity: that was read from storage just now, after the employee
  // (absence is never cached), and only a write of this employee, which fails this
  // transaction's condition on its ETag, can list it since.
  const removal = index && lastNameIndexRemoval(partitionKey, index, [employeeId]);
  if (removal) plan.add(removal.action, 'lastNameIndex');
  if (deletion.receipt) plan.add(['upsert', deletion.receipt, 'Replace'], 'receipt');
  if (context.outbox) {
    const previous = { email: current.data.email, lastName: current.data.lastName };
    plan.add(
      outboxAction(partitionKey, { employeeId, reason: deletion.reason, previous }),
      'outbox',
    );
  }
  // Unconditional: the employee's own delete, under its ETag, stands for its review list.
  for (const year of deletion.years) {
    plan.add(['delete', { partitionKey, rowKey: reviewRowKey(employeeId, year) }], 'review');
  }
  return { plan, listed, ids: removal?.ids };
}

/** Remembers the versions the committed transaction gave (`etags`, by operation). */
export function rememberDeletion(
  context: DirectoryContext,
  department: string,
  lastName: string,
  { dept, count }: DeletionReads,
  { plan, listed, ids }: DeletionPlan,
  etags: readonly (string | undefined)[],
): void {
  const etagOf = (role: Role): string | undefined => etags[plan.roles.indexOf(role)];
  const departmentEtag = etagOf('department');
  if (dept && departmentEtag) {
    rememberDepartment(context, department, {
      value: {
        ...dept.value,
        employeeCount: Math.max(0, dept.value.employeeCount - 1),
        manager: listed ? null : dept.value.manager,
      },
      etag: departmentEtag,
    });
  }
  const countEtag = etagOf('count');
  if (count && countEtag) {
    rememberCountShard(context, department, count.shard, {
      value: count.version.value - 1,
      etag: countEtag,
    });
  }
  rememberIndexWrite(context, department, lastName, ids, etagOf('lastNameIndex'));
}
