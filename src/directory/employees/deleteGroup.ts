/**
 * One group of {@link deleteEmployeeVersions} (deleteEmployeeVersions.ts): its entity group
 * transaction (per employee its entity under the ETag read, its email copy and its reviews; per
 * group the last-name index entities of its names, one count shard, the department when a manager
 * is among them, the outbox rows), what a refusal of it means for the next attempt, and the
 * versions its commit leaves in the version cache.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
  reviewRowKey,
} from '../../storage/keys/tables/employees';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';
import { directoryRetry, type DirectoryContext } from '../context';
import type { TransactionFailure } from '../directoryErrors';
import { countShardChange } from '../entities/departmentCount';
import { departmentMerge, type Department } from '../entities/departmentEntity';
import { readEmployeeState, type EmployeeState } from '../entities/employeeState';
import { outboxActions, type OutboxChange } from '../entities/outbox';
import { lastNameIndexRemoval, type LastNameIndex } from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import {
  forgetCountShard,
  forgetVersions,
  loadCountShard,
  loadDepartment,
  rememberCountShard,
  rememberDepartment,
  type ChosenShard,
} from '../writes/departmentVersions';
import { loadLastNameIndex, rememberIndexWrite } from '../writes/lastNameVersions';
import { PlannedTransaction, retryUnexplained, submitPlan } from '../writes/plannedTransaction';

type Role =
  | { kind: 'employee' | 'email'; employeeId: string }
  | { kind: 'review'; employeeId: string; year: number }
  | { kind: 'index'; lastName: string }
  | { kind: 'count' | 'department' | 'outbox' };

/** An employee to delete in a group, at the version read. */
export interface Candidate {
  state: EmployeeState;
  years: number[];
  lastName: string;
  /** The email copy turned out to be missing: no delete of it. */
  noEmailCopy?: boolean;
}

/** One group being deleted: its members left, and those set aside so far. */
interface Group {
  context: DirectoryContext;
  table: TableAccess;
  department: string;
  partitionKey: string;
  reason: 'deleted' | 'archived';
  beforeGroup?: (employeeIds: string[]) => Promise<void> | void;
  members: Candidate[];
  gone: Candidate[];
  changed: string[];
}

/** The shared entities a group's transaction is decided from (maybe from the version cache). */
interface GroupReads {
  dept: Versioned<Department> | undefined;
  count: ChosenShard | undefined;
  /** The last names of the group, each with its index entity (`undefined`: none). */
  names: string[];
  indexes: (Versioned<LastNameIndex> | undefined)[];
}

/** A group's transaction, with what {@link rememberGroup} needs once it committed. */
interface GroupPlan {
  plan: PlannedTransaction<Role>;
  /** The ids each index entity holds after the transaction (`undefined`: none). */
  written: Map<string, string[] | undefined>;
  /** Whether the department lists one of the members as its manager (its copy is cleared). */
  listed: boolean;
}

/**
 * One group, retried until it commits, with the employees that changed or vanished set aside.
 *
 * @throws {ThrottledError} when the group kept losing races on the shared entities.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function deleteGroup(
  context: DirectoryContext,
  department: string,
  initial: Candidate[],
  reason: 'deleted' | 'archived',
  options: { beforeGroup?: (employeeIds: string[]) => Promise<void> | void },
): Promise<{ deleted: Candidate[]; gone: Candidate[]; changed: string[] }> {
  const group: Group = {
    context,
    table: await context.table(),
    department,
    partitionKey: departmentPartitionKey(department),
    reason,
    beforeGroup: options.beforeGroup,
    members: [...initial],
    gone: [],
    changed: [],
  };
  const committed = await retryOptimistically(
    directoryRetry(context, `Department "${department}"`),
    (attempt) => groupAttempt(group, attempt),
  );
  return { deleted: committed, gone: group.gone, changed: group.changed };
}

/** One attempt: read the shared entities, submit the transaction, learn from a refusal. */
async function groupAttempt(group: Group, attempt: number): Promise<Candidate[] | Retry> {
  const { context, table, department } = group;
  if (group.members.length === 0) return [];
  // The versions a failure did not name stay cached (it forgets the one it names), so a
  // conflict on one of up to ~32 index entities costs one read, not 32; from the third
  // attempt on everything is read afresh.
  const useCache = attempt <= 2;
  await group.beforeGroup?.(group.members.map((m) => m.state.data.employeeId));
  const names = [...new Set(group.members.map((m) => m.lastName))];
  const [dept, count, ...indexes] = await Promise.all([
    loadDepartment(context, table, department, useCache),
    loadCountShard(context, table, department, useCache),
    ...names.map((name) => loadLastNameIndex(context, table, department, name, useCache)),
  ]);
  const reads: GroupReads = { dept, count, names, indexes };
  const planned = groupPlan(group, reads);
  const submitted = await submitPlan(table, planned.plan);
  if ('refused' in submitted) return explainGroupRefusal(group, reads, submitted.refused, attempt);
  rememberGroup(group, reads, planned, submitted.etags);
  return group.members;
}

/** The members' own deletes: entity (under its ETag), email copy, reviews. */
function memberDeletes(plan: PlannedTransaction<Role>, partitionKey: string, member: Candidate) {
  const { employeeId, email } = member.state.data;
  plan.add(
    ['delete', { partitionKey, rowKey: employeeRowKey(employeeId) }, { etag: member.state.etag }],
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

/** The outbox change of an employee leaving its department (its email and last name go). */
function leaving(member: Candidate, reason: OutboxChange['reason']): OutboxChange {
  const { employeeId, email, lastName } = member.state.data;
  return { employeeId, reason, previous: { email, lastName } };
}

/** The group's transaction over the shared entities as read. */
function groupPlan(group: Group, { dept, count, names, indexes }: GroupReads): GroupPlan {
  const { context, department, partitionKey, members } = group;
  const plan = new PlannedTransaction<Role>();
  for (const member of members) memberDeletes(plan, partitionKey, member);
  const written = new Map<string, string[] | undefined>();
  // Each index entity read is in the transaction, conditional on its version, even when it
  // lists none of the group (see lastNameIndexRemoval; none read: absence is never cached).
  names.forEach((lastName, i) => {
    const index = indexes[i];
    if (!index) return;
    const ids = members.filter((m) => m.lastName === lastName).map((m) => m.state.data.employeeId);
    const removal = lastNameIndexRemoval(partitionKey, index, ids);
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
  const listed =
    managerId !== undefined && members.some((m) => m.state.data.employeeId === managerId);
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
        members.map((m) => leaving(m, group.reason)),
      )
    : [];
  recorded.forEach((action) => plan.add(action, { kind: 'outbox' }));
  return { plan, written, listed };
}

/** What a refused transaction of the group means: whom to set aside, what to read again. */
async function explainGroupRefusal(
  group: Group,
  { count, names }: GroupReads,
  failure: TransactionFailure<Role>,
  attempt: number,
): Promise<Retry> {
  const { context, department } = group;
  const role = failure.role;
  if (count) forgetCountShard(context, department, count.shard);
  if (role?.kind === 'index') forgetVersions(context, department, [role.lastName]);
  else if (role?.kind !== 'employee') forgetVersions(context, department, names);
  if (role?.kind === 'employee' && failure.status === 412) {
    group.changed.push(role.employeeId);
    group.members = group.members.filter((m) => m.state.data.employeeId !== role.employeeId);
    return RETRY;
  }
  if (role?.kind === 'employee' && failure.status === 404) {
    await sortOutVanished(group);
    return RETRY;
  }
  if (role?.kind === 'email' && failure.status === 404) {
    const member = group.members.find((m) => m.state.data.employeeId === role.employeeId);
    if (member) member.noEmailCopy = true;
    return RETRY;
  }
  if (role?.kind === 'review' && failure.status === 404) {
    const member = group.members.find((m) => m.state.data.employeeId === role.employeeId);
    if (member) member.years = member.years.filter((y) => y !== role.year);
    return RETRY;
  }
  // Another writer changed an index entity, the count shard or the department: read them
  // again. Unexplained failures are retried a couple of times only.
  return role === undefined ? retryUnexplained(failure, attempt) : RETRY;
}

/** Sets aside the members that are gone or changed (read again after a 404 on one of them). */
async function sortOutVanished(group: Group): Promise<void> {
  const now = await Promise.all(
    group.members.map((m) =>
      readEmployeeState(group.table, group.partitionKey, m.state.data.employeeId),
    ),
  );
  const kept: Candidate[] = [];
  group.members.forEach((member, i) => {
    const current = now[i];
    if (!current) group.gone.push(member);
    else if (current.etag !== member.state.etag) group.changed.push(member.state.data.employeeId);
    else kept.push(member);
  });
  group.members = kept;
}

/** Remembers the versions the committed transaction gave (`etags`, by operation). */
function rememberGroup(
  group: Group,
  { dept, count }: GroupReads,
  { plan, written, listed }: GroupPlan,
  etags: readonly (string | undefined)[],
): void {
  const { context, department, members } = group;
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
}
