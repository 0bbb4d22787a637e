/**
 * Removing many employees of one department, each exactly at the version its caller read (the
 * department archive: the caller copied those versions first), in entity group transactions of up
 * to 100 operations: per employee its entity (conditional on the ETag read), its email copy and
 * the reviews it lists; per group the last-name index entities of its names, ONE count shard, the
 * department's manager copy when a manager is among them, and the outbox row(s). A transaction
 * refused because of one employee leaves the others to go again without it (`changed`, `gone`,
 * or without a missing copy): deleteGroup.ts. An employee with more reviews than fit beside a
 * group goes through the single delete (deleteEmployee.ts).
 *
 * Why: docs/directory.md "Deleting at a version (department archive)".
 */
import { normalizeLastName } from '../../storage/keys/text';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';
import { packTransactions } from '../../storage/tables/transactionPacking';
import type { StoredEntity } from '../../storage/tables/entities';
import { PreconditionFailedError } from '../../domainErrors';
import type { EmployeeChange } from '../changes';
import type { DirectoryContext } from '../context';
import { employeeStateOf, type EmployeeState } from '../entities/employeeState';
import { deleteEmployee } from './deleteEmployee';
import { deleteGroup, type Candidate } from './deleteGroup';
import { reviewYearsOf } from './reviews';

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

/**
 * Cuts employees (all of one department's partition) into groups whose operations fit one
 * transaction beside the group's own (pure): 2 + reviews per employee, plus one per distinct last
 * name in the group.
 */
export function planDeleteGroups<T extends { lastName: string; reviews: number }>(
  employees: readonly T[],
  budget = EMPLOYEE_OPERATIONS,
): T[][] {
  return packTransactions(employees, {
    operations: (employee, group) =>
      2 + employee.reviews + (group.some((e) => e.lastName === employee.lastName) ? 0 : 1),
    budget,
  });
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
