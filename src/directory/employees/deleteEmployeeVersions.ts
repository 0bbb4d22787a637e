/**
 * Removing many employees of one department, each exactly at the version its caller read (the
 * department archive: the caller copied those versions first), in entity group transactions of up
 * to 100 operations: per employee its entity (conditional on the ETag read), its email copy and
 * the reviews it lists; per group the last-name index entities of its names, ONE count shard, the
 * department's manager copy when a manager is among them, and the outbox row(s). A transaction
 * refused because of one employee leaves the others to go again without it (`changed`, `gone`,
 * or without a missing copy). An employee with more reviews than fit beside a group goes through
 * the single delete (deleteEmployee.ts).
 *
 * Why: docs/directory.md "Deleting at a version (department archive)".
 */
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
  reviewRowKey,
} from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import { PreconditionFailedError } from '../../domainErrors';
import type { EmployeeChange } from '../changes';
import { directoryRetry, type DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import { departmentMerge } from '../entities/departmentEntity';
import { deleteEmployee } from './deleteEmployee';
import { employeeStateOf, readEmployeeState, type EmployeeState } from '../entities/employeeState';
import { lastNameIndexRemoval, type LastNameIndex } from '../entities/partitionLastNameIndex';
import { outboxActions, type OutboxChange } from '../entities/outbox';
import { reviewYearsOf } from './reviews';
import {
  forgetCountShard,
  forgetVersions,
  loadCountShard,
  loadDepartment,
  rememberCountShard,
  rememberDepartment,
} from '../writes/departmentVersions';
import { loadLastNameIndex, rememberIndexWrite } from '../writes/lastNameVersions';
import { PlannedTransaction, retryUnexplained, submitPlan } from '../writes/plannedTransaction';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import type { Versioned } from '../entities/versionCache';
import type { StoredEntity } from '../../storage/tables/entities';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';

/** Outcome of {@link deleteEmployeeVersions}. */
export interface VersionsDeleted {
  /** Ids this call deleted. */
  deleted: string[];
  /**
   * Ids found already gone when their delete ran (deleted concurrently, or by an earlier try of
   * this call's own transaction whose answer was lost): gone, as asked.
   */
  gone: string[];
  /** Ids whose entity is no longer the version given: nothing of them was deleted. */
  changed: string[];
}

/** Options of {@link deleteEmployeeVersions}. */
export interface DeleteVersionsOptions {
  /** Reason published with the changes and recorded in the outbox (default `deleted`). */
  reason?: 'deleted' | 'archived';
  /** Called before each group's transaction is submitted (tests inject races here). */
  beforeGroup?: (employeeIds: string[]) => Promise<void> | void;
}

/**
 * Operations a group keeps for itself: the count shard, the department (a manager's copy) and up
 * to two outbox rows (one holds the changes of ~100 employees; two leave room for long addresses).
 */
const GROUP_OPERATIONS = 4;
/** Operations left for the employees and their index entities. */
const EMPLOYEE_OPERATIONS = MAX_TRANSACTION_OPERATIONS - GROUP_OPERATIONS;
/** More reviews than this: the employee goes through the single delete (it trims them first). */
const MAX_GROUPED_REVIEWS = 30;

type Role =
  | { kind: 'employee' | 'email'; employeeId: string }
  | { kind: 'review'; employeeId: string; year: number }
  | { kind: 'index'; lastName: string }
  | { kind: 'count' | 'department' | 'outbox' };

interface Candidate {
  state: EmployeeState;
  years: number[];
  lastName: string;
  /** The email copy turned out to be missing: no delete of it. */
  noEmailCopy?: boolean;
}

/**
 * Cuts employees into groups whose operations fit one transaction beside the group's own
 * (pure): 2 + reviews per employee, plus one per distinct last name in the group.
 */
export function planDeleteGroups<T extends { lastName: string; reviews: number }>(
  employees: readonly T[],
  budget = EMPLOYEE_OPERATIONS,
): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let names = new Set<string>();
  let operations = 0;
  for (const employee of employees) {
    const cost = 2 + employee.reviews + (names.has(employee.lastName) ? 0 : 1);
    if (group.length > 0 && operations + cost > budget) {
      groups.push(group);
      group = [];
      names = new Set();
      operations = 0;
    }
    operations += 2 + employee.reviews + (names.has(employee.lastName) ? 0 : 1);
    names.add(employee.lastName);
    group.push(employee);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Deletes employees of one department, each only if its entity is still exactly the version given
 * (as read by the caller, ETag included), in grouped transactions (see the file comment), then
 * publishes one change per deleted employee. Safe to run again with the same versions: those
 * already gone count as deleted.
 *
 * @param read - the employee entities as the caller read them (other entities are ignored).
 * @throws {ThrottledError} when a group kept losing races on the shared entities.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries; the groups committed
 *   before stay committed (a run again finds their employees gone).
 */
export async function deleteEmployeeVersions(
  context: DirectoryContext,
  department: string,
  read: readonly StoredEntity[],
  options: DeleteVersionsOptions = {},
): Promise<VersionsDeleted> {
  const table = await context.table();
  const reason = options.reason ?? 'deleted';
  const result: VersionsDeleted = { deleted: [], gone: [], changed: [] };
  const grouped: Candidate[] = [];
  const single: EmployeeState[] = [];
  for (const entity of read) {
    const state = employeeStateOf(entity);
    if (!state) continue;
    const years = await reviewYearsOf(table, state);
    const candidate = { state, years, lastName: normalizeLastName(state.data.lastName) };
    if (years.length > MAX_GROUPED_REVIEWS) single.push(state);
    else grouped.push(candidate);
  }

  for (const state of single) {
    try {
      const single = await deleteEmployee(context, department, state.data.employeeId, {
        mustExist: false,
        exactEtag: state.etag,
        read: state.entity,
        reason,
      });
      (single.deleted ? result.deleted : result.gone).push(state.data.employeeId);
    } catch (error) {
      if (!(error instanceof PreconditionFailedError)) throw error;
      result.changed.push(state.data.employeeId);
    }
  }

  // Sorted by last name, so employees sharing a name share a group and its index operation.
  grouped.sort((a, b) => (a.lastName < b.lastName ? -1 : a.lastName > b.lastName ? 1 : 0));
  const groups = planDeleteGroups(grouped.map((c) => ({ ...c, reviews: c.years.length })));
  for (const group of groups) {
    const outcome = await deleteGroup(context, department, group, reason, options);
    result.deleted.push(...outcome.deleted.map((c) => c.state.data.employeeId));
    result.gone.push(...outcome.gone.map((c) => c.state.data.employeeId));
    result.changed.push(...outcome.changed);
    // The gone ones too: the lost answer of our own commit would otherwise leave them unpublished.
    const left = [...outcome.deleted, ...outcome.gone];
    if (left.length > 0) {
      await context.changes.publish(
        left.map((c): EmployeeChange => ({
          department,
          employeeId: c.state.data.employeeId,
          reason,
          previous: { email: c.state.data.email, lastName: c.state.data.lastName },
        })),
      );
    }
  }
  return result;
}

/** The outbox change of an employee leaving its department (its email and last name go). */
function leaving(member: Candidate, reason: OutboxChange['reason']): OutboxChange {
  const { employeeId, email, lastName } = member.state.data;
  return { employeeId, reason, previous: { email, lastName } };
}

/** One group, retried until it commits, with the employees that changed or vanished set aside. */
async function deleteGroup(
  context: DirectoryContext,
  department: string,
  initial: Candidate[],
  reason: 'deleted' | 'archived',
  options: DeleteVersionsOptions,
): Promise<{ deleted: Candidate[]; gone: Candidate[]; changed: string[] }> {
  const partitionKey = departmentPartitionKey(department);
  const table = await context.table();
  let members = [...initial];
  const gone: Candidate[] = [];
  const changed: string[] = [];

  /** Sets aside the members that are gone or changed (read again after a 404 on one of them). */
  const sortOutVanished = async (): Promise<void> => {
    const now = await Promise.all(
      members.map((m) => readEmployeeState(table, partitionKey, m.state.data.employeeId)),
    );
    const kept: Candidate[] = [];
    members.forEach((member, i) => {
      const current = now[i];
      if (!current) gone.push(member);
      else if (current.etag !== member.state.etag) changed.push(member.state.data.employeeId);
      else kept.push(member);
    });
    members = kept;
  };

  const committed = await retryOptimistically(
    directoryRetry(context, `Department "${department}"`),
    async (attempt) => {
      if (members.length === 0) return [];
      // The versions a failure did not name stay cached (it forgets the one it names), so a
      // conflict on one of up to ~32 index entities costs one read, not 32; from the third
      // attempt on everything is read afresh.
      const useCache = attempt <= 2;
      const ids = members.map((m) => m.state.data.employeeId);
      await options.beforeGroup?.(ids);
      const names = [...new Set(members.map((m) => m.lastName))];
      const [dept, count, ...indexes] = await Promise.all([
        loadDepartment(context, table, department, useCache),
        loadCountShard(context, table, department, useCache),
        ...names.map((name) => loadLastNameIndex(context, table, department, name, useCache)),
      ]);
      const plan = new PlannedTransaction<Role>();
      for (const member of members) {
        const { employeeId, email } = member.state.data;
        plan.add(
          [
            'delete',
            { partitionKey, rowKey: employeeRowKey(employeeId) },
            { etag: member.state.etag },
          ],
          { kind: 'employee', employeeId },
        );
        if (!member.noEmailCopy) {
          plan.add(['delete', { partitionKey, rowKey: emailRowKey(email) }], {
            kind: 'email',
            employeeId,
          });
        }
        // Unconditional: the employee's own delete, under its ETag, stands for its review list.
        for (const year of member.years) {
          plan.add(['delete', { partitionKey, rowKey: reviewRowKey(employeeId, year) }], {
            kind: 'review',
            employeeId,
            year,
          });
        }
      }
      const written = new Map<string, string[] | undefined>();
      // Each index entity read is in the transaction, conditional on its version, even when it
      // lists none of the group (see lastNameIndexRemoval; none read: absence is never cached).
      names.forEach((lastName, i) => {
        const index = indexes[i] as Versioned<LastNameIndex> | undefined;
        if (!index) return;
        const leaving = members.filter((m) => m.lastName === lastName).map((m) => m.state.data);
        const removal = lastNameIndexRemoval(
          partitionKey,
          index,
          leaving.map((e) => e.employeeId),
        );
        written.set(lastName, removal.ids.length === 0 ? undefined : removal.ids);
        plan.add(removal.action, { kind: 'index', lastName });
      });
      if (count) {
        plan.add(countShardChange(partitionKey, count.shard, count.version, -members.length), {
          kind: 'count',
        });
      }
      // A manager's copy is cleared from the department as read; a member's own manager flag
      // brings the department in as well, so a cached department that predates another process
      // naming that member fails the transaction instead of deciding (deleteEmployee.ts).
      const managerId = dept?.value.manager?.employeeId;
      const listed = managerId !== undefined && ids.includes(managerId);
      if (dept && (listed || members.some((m) => m.state.meta.isManager))) {
        const change = listed ? { manager: null } : {};
        plan.add(['update', departmentMerge(department, change), 'Merge', { etag: dept.etag }], {
          kind: 'department',
        });
      }
      // The outbox row(s) of the whole group: each change names what the indexes held.
      const recorded = context.outbox
        ? outboxActions(
            partitionKey,
            members.map((m) => leaving(m, reason)),
          )
        : [];
      recorded.forEach((action) => plan.add(action, { kind: 'outbox' }));
      const submitted = await submitPlan(table, plan);
      if ('refused' in submitted) {
        const failure = submitted.refused;
        const role = failure.role;
        if (count) forgetCountShard(context, department, count.shard);
        if (role?.kind === 'index') forgetVersions(context, department, [role.lastName]);
        else if (role?.kind !== 'employee') forgetVersions(context, department, names);
        if (role?.kind === 'employee' && failure.status === 412) {
          changed.push(role.employeeId);
          members = members.filter((m) => m.state.data.employeeId !== role.employeeId);
          return RETRY;
        }
        if (role?.kind === 'employee' && failure.status === 404) {
          await sortOutVanished();
          return RETRY;
        }
        if (role?.kind === 'email' && failure.status === 404) {
          const member = members.find((m) => m.state.data.employeeId === role.employeeId);
          if (member) member.noEmailCopy = true;
          return RETRY;
        }
        if (role?.kind === 'review' && failure.status === 404) {
          const member = members.find((m) => m.state.data.employeeId === role.employeeId);
          if (member) member.years = member.years.filter((y) => y !== role.year);
          return RETRY;
        }
        // Another writer changed an index entity, the count shard or the department: read them
        // again. Unexplained failures are retried a couple of times only.
        return role === undefined ? retryUnexplained(failure, attempt) : RETRY;
      }
      const { etags } = submitted;
      plan.roles.forEach((role, i) => {
        const etag = etags[i];
        if (role.kind === 'index') {
          rememberIndexWrite(context, department, role.lastName, written.get(role.lastName), etag);
        } else if (role.kind === 'count' && count) {
          if (etag) {
            rememberCountShard(context, department, count.shard, {
              value: count.version.value - members.length,
              etag,
            });
          } else forgetCountShard(context, department, count.shard);
        } else if (role.kind === 'department' && dept && etag) {
          rememberDepartment(context, department, {
            value: {
              ...dept.value,
              employeeCount: Math.max(0, dept.value.employeeCount - members.length),
              manager: listed ? null : dept.value.manager,
            },
            etag,
          });
        }
      });
      return members;
    },
  );
  return { deleted: committed, gone, changed };
}
