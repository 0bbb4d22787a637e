/**
 * Steps 3 and 4 of a drain round (src/indexing/drain/outboxDrain.ts): the index writes that bring
 * the targets in line with the sources, each conditional on what the snapshot read (entries,
 * fences, member lists), and the deletion of the drained rows.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import {
  isAlreadyExists,
  isNotFound,
  isPreconditionFailed,
  tookEffect,
  toDomainError,
} from '../../storage/storageFaults';
import type { LruMap } from '../../storage/lruMap';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import { emailIndexRowKey, idIndexRowKey } from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import {
  emailIndexEntity,
  idIndexEntity,
  indexFenceEntity,
  keysOf,
  readTracked,
} from '../employeeIndex/indexEntities';
import type { IndexStores } from '../indexStores';
import {
  encodeMember,
  type EmployeeRef,
  type MemberListSnapshot,
} from '../lastNames/lastNameStore';
import { readRowKeys, readSources, type Snapshot, type Sources } from './outboxDrainSnapshot';
import type { Work } from './outboxDrainWork';
import type { OutboxRow } from '../../directory/entities';
import type { StoredEntity } from '../../storage/tables/entities';
import type { ContentionError } from '../../domainErrors';
import {
  RETRY,
  retryOptimistically,
  type Retry,
  type RetryTiming,
} from '../../storage/optimisticRetry';
import { memberListContended, outboxRowsContended } from '../indexingErrors';

/** The app's transaction budget (100, less what the relocation fence may add). */
const MAX_OPERATIONS = MAX_TRANSACTION_OPERATIONS;

/**
 * Writes the actions of one index partition together with its drain fence, in transactions of
 * up to 98 operations (the fence and 97 actions): the first conditional on the fence's ETag as
 * the snapshot read it (or creating it), each next on the ETag the previous one gave it. A round
 * with nothing to change in the partition still writes the fence. False when a transaction lost
 * a race — another round wrote the partition since our read, or an entry changed — and the round
 * is then lost. `fences` (this process's cache, src/indexing/drain/drainCache.ts) learns the
 * fence's new ETag, or forgets it after a lost race.
 *
 * @throws {DomainError} for storage faults.
 */
export async function submitFenced(
  table: TableAccess,
  partitionKey: string,
  actions: EntityGroupAction[],
  fence: string | undefined,
  fences?: LruMap<string, string>,
): Promise<boolean> {
  let etag = fence;
  fences?.delete(partitionKey);
  const perTransaction = MAX_OPERATIONS - 1;
  for (let start = 0; start === 0 || start < actions.length; start += perTransaction) {
    const fenceAction: EntityGroupAction =
      etag === undefined
        ? ['create', indexFenceEntity(partitionKey)]
        : ['update', indexFenceEntity(partitionKey), 'Replace', { etag }];
    const chunk = [fenceAction, ...actions.slice(start, start + perTransaction)];
    let next: string | undefined;
    try {
      next = (await submitEntityGroupTransaction(table, chunk)).subResponses[0]?.etag;
    } catch (error) {
      // Lost to a concurrent change (412, 409 or 404; as `tookEffect` decides): the round is lost.
      if (isPreconditionFailed(error) || isAlreadyExists(error) || isNotFound(error)) return false;
      throw toDomainError(error);
    }
    // Without the new ETag the next transaction could not be chained to this one: lose the round
    // rather than read the fence again (a read now could see another round's write).
    if (next === undefined && start + perTransaction < actions.length) return false;
    etag = next;
  }
  if (etag !== undefined) fences?.set(partitionKey, etag);
  return true;
}

/**
 * The action that makes one index entry what it should be: `wanted` written over `target` under
 * the ETag it was read with (or created where nothing was), `target` deleted under its ETag when
 * nothing is wanted; none when neither exists.
 */
function entryAction(
  target: StoredEntity | undefined,
  wanted: TableEntity | undefined,
): EntityGroupAction[] {
  if (wanted) {
    return [target ? ['update', wanted, 'Replace', { etag: target.etag }] : ['create', wanted]];
  }
  if (!target) return [];
  return [
    ['delete', { partitionKey: target.partitionKey, rowKey: target.rowKey }, { etag: target.etag }],
  ];
}

/** By-email entries: a copy of whoever holds each address now, none where nobody does. */
export function emailActions(
  department: string,
  work: Work,
  snapshot: Snapshot,
): EntityGroupAction[] {
  return work.emails.flatMap((email) => {
    const target = snapshot.emailEntries.get(emailIndexRowKey(email));
    const copy = snapshot.sources.copies.get(email);
    if (copy && target?.SourceETag === copy.etag) return [];
    return entryAction(target, copy && emailIndexEntity(department, copy.data, copy.etag));
  });
}

/** By-id entries: a copy of each present employee tracking its keys, none for a gone one. */
export function idActions(department: string, work: Work, snapshot: Snapshot): EntityGroupAction[] {
  return work.employeeIds.flatMap((employeeId) => {
    const target = snapshot.idEntries.get(idIndexRowKey(employeeId));
    const source = snapshot.sources.employees.get(employeeId);
    if (!source) return entryAction(target, undefined);
    const keys = keysOf(source.data);
    const current =
      target?.SourceETag === source.etag &&
      JSON.stringify(readTracked(target)) === JSON.stringify(keys);
    if (current) return [];
    return entryAction(target, idIndexEntity(department, source.data, source.etag, keys));
  });
}

/** Tries of one member list in a round: its first write and the reruns of that name alone. */
export const MAX_LIST_TRIES = 8;

/**
 * The members to add to and remove from `list` so each employee of the round is where it should.
 */
function membershipChange(
  department: string,
  work: Work,
  sources: Sources,
  list: MemberListSnapshot,
): { add: EmployeeRef[]; remove: EmployeeRef[] } {
  const members = new Set(list.members);
  const add: EmployeeRef[] = [];
  const remove: EmployeeRef[] = [];
  for (const employeeId of work.employeeIds) {
    const source = sources.employees.get(employeeId);
    const wanted =
      source !== undefined && normalizeLastName(source.data.lastName) === list.lastName;
    const member = { department, employeeId };
    const held = members.has(encodeMember(member));
    if (wanted && !held) add.push(member);
    if (!wanted && held) remove.push(member);
  }
  return { add, remove };
}

/** Longest wait before a member list is tried again, in ms (as between lost drain rounds). */
const LIST_BACKOFF_CAP_MS = 2_000;

/**
 * Each employee a member of exactly its current last name, among the names of the round. Every
 * list of the round is written, changed or not (LastNameStore.change): it is that list's fence.
 *
 * A list is org-wide: other departments' drains write it too, and a round that had to win every
 * one of its lists at once could be starved. So a list whose write lost is tried again alone, up
 * to {@link MAX_LIST_TRIES} times (after a back-off): that list read again first, then the
 * round's sources — the order of every round (targets, then sources: drain/outboxDrain.ts), so
 * the write, conditional on the list as read again, is from sources read after it. The lists
 * already written stay written. False when a list kept losing (the retry routine gave up): the
 * round is then lost.
 *
 * @throws {DomainError} for storage faults.
 */
export async function writeLastNames(
  stores: IndexStores,
  department: string,
  work: Work,
  snapshot: Snapshot,
  timing: RetryTiming,
): Promise<boolean> {
  let lists = work.lastNames
    .map((name) => snapshot.lists.get(name))
    .filter((list): list is MemberListSnapshot => list !== undefined);
  let sources = snapshot.sources;
  let again: string[] = [];
  let gaveUp: ContentionError | undefined;
  const retry = {
    maxAttempts: MAX_LIST_TRIES,
    capMs: LIST_BACKOFF_CAP_MS,
    waitFirst: true,
    timing,
    giveUp: (tries: number) =>
      (gaveUp = memberListContended(`The last-name lists ${again.join(', ')}`, tries)),
  };
  const attempt = async (tries: number): Promise<true | Retry> => {
    if (tries > 1) {
      lists = await stores.lastNames.snapshots(again);
      sources = await readSources(stores.employees, departmentPartitionKey(department), work);
    }
    // All the round's lists at once: the store writes names sharing a partition together.
    const written = await stores.lastNames.changes(
      lists.map((list) => ({
        snapshot: list,
        ...membershipChange(department, work, sources, list),
      })),
    );
    const lost = lists.map((list, i) => {
      const wrote = written[i];
      if (wrote) stores.drainCache?.lists.set(list.lastName, wrote);
      else stores.drainCache?.lists.delete(list.lastName);
      return wrote === undefined ? list.lastName : undefined;
    });
    again = lost.filter((name): name is string => name !== undefined);
    return again.length === 0 || RETRY;
  };
  try {
    return await retryOptimistically(retry, attempt);
  } catch (error) {
    if (error === gaveUp) return false;
    throw error;
  }
}

/** Tries of one deletion of drained rows (a row a concurrent drainer deleted drops out). */
const MAX_DELETE_TRIES = 3;

/**
 * Deletes drained rows, each conditional on the ETag it was read with, in transactions of up to
 * 98. A row already deleted by a concurrent drainer fails its transaction (404): the rows still
 * there are read again and the rest deleted. Rows still failing after {@link MAX_DELETE_TRIES}
 * tries (the routine's give-up, `outboxRowsContended`) are left to the next nudge or sweep:
 * harmless.
 *
 * @throws {DomainError} for storage faults.
 */
export async function deleteRows(
  table: TableAccess,
  department: string,
  rows: OutboxRow[],
  timing: RetryTiming,
): Promise<void> {
  const partitionKey = departmentPartitionKey(department);
  let pending = rows;
  let gaveUp: ContentionError | undefined;
  const retry = {
    maxAttempts: MAX_DELETE_TRIES,
    timing,
    giveUp: (tries: number) => (gaveUp = outboxRowsContended(department, pending.length, tries)),
  };
  if (pending.length === 0) return;
  const attempt = async (): Promise<void | Retry> => {
    const failed: OutboxRow[] = [];
    for (let start = 0; start < pending.length; start += MAX_OPERATIONS) {
      const chunk = pending.slice(start, start + MAX_OPERATIONS);
      const deleted = await tookEffect(() =>
        submitEntityGroupTransaction(
          table,
          chunk.map((row) => ['delete', { partitionKey, rowKey: row.rowKey }, { etag: row.etag }]),
        ),
      );
      if (!deleted) failed.push(...chunk);
    }
    if (failed.length === 0) return undefined;
    const still = await readRowKeys(
      table,
      partitionKey,
      failed.map((row) => row.rowKey),
    );
    pending = failed.filter((row) => still.get(row.rowKey)?.etag === row.etag);
    return pending.length === 0 ? undefined : RETRY;
  };
  try {
    await retryOptimistically(retry, attempt);
  } catch (error) {
    if (error !== gaveUp) throw error;
  }
}
