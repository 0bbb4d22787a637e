/**
 * Moves what an upgrade left in the per-name layout of the org-wide last-name index
 * (legacyLastNames.ts) into the grouped layout, a bounded number of names per call: a step of the
 * outbox sweep (functions/outboxSweep.ts), so an upgrade needs no manual step and the searches'
 * extra read of old partitions ends on its own once the last one is gone.
 *
 * Per name, as the audit's repair decides (src/orchestrations/audit/orgLastNameAudit.ts): the
 * grouped list is read first, then each old member it lacks is checked against the employee's
 * primary; only those whose current last name is the name are added, in a change conditional on
 * the list as read (a drain's change since fails it, and the name waits for the next call). Only
 * then are the old rows deleted, conditional on their ETags as listed. A crash anywhere leaves old
 * rows the next call reads again, and members already moved are not added twice: idempotent. An
 * old member of an employee renamed or removed since is dropped, never moved.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { withStorageErrors } from '../../storage/storageFaults';
import {
  legacyOrgLastNamePartitionKeyRange,
  parseLegacyOrgLastNamePartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { mapBounded } from '../../storage/parallel';
import { packTransactions } from '../../storage/tables/transactionPacking';
import { currentLastName } from '../../directory/entities';
import {
  toRefs,
  type EmployeeRef,
  type LastNameStore,
  type ListChange,
  type MemberListSnapshot,
} from './lastNameStore';
import { entityLastNameStore } from './lastNameEntityStore';
import { submitOrLose } from './lastNameEntityShards';
import {
  addLegacyRow,
  legacyLayoutKnownGone,
  noteLegacyLayout,
  type LegacyList,
} from './legacyLastNames';

/** Old partitions one call moves at most (a sweep runs every few minutes). */
export const LEGACY_NAMES_PER_CALL = 500;

/** Names whose grouped lists are read and written together. */
const NAMES_PER_BATCH = 100;

/** Point reads of primaries, and deletes, in flight at once. */
const IN_FLIGHT = 16;

/** The `Employees` table as the primary reads take it (routed when data is spread). */
type EmployeesTable = Parameters<typeof currentLastName>[0];

/** One name's move as planned: its grouped list as read, what to add, what was left behind. */
interface Move {
  list: LegacyList;
  snapshot: MemberListSnapshot;
  add: EmployeeRef[];
  dropped: number;
}

/** What one call did. */
export interface LegacyMigrationReport {
  /** Old partitions deleted. */
  names: number;
  /** Members added to the grouped lists. */
  moved: number;
  /** Old members left behind: their employee is gone or carries another last name now. */
  dropped: number;
  /** Old partitions remain (more than one call's worth, or one changed while it was moved). */
  remaining: boolean;
}

/** Options of {@link migrateLegacyLastNames}. */
export interface LegacyMigrationOptions {
  /** Old partitions at most ({@link LEGACY_NAMES_PER_CALL} when absent). */
  maxNames?: number;
  /** Shard size of the grouped lists (`LASTNAME_INDEX_SHARD_CHARS`). */
  maxShardChars?: number;
  /**
   * Look even when this process last found none (the sweep: in its hourly walk runs only, so an
   * idle sweep stays one query). Without it a process that found none asks nothing.
   */
  recheck?: boolean;
  /**
   * Test hooks: after the primaries were read, before the grouped lists are changed; after that,
   * before the old rows are deleted.
   */
  beforeChange?: () => Promise<void>;
  beforeDelete?: () => Promise<void>;
  /** Clock of what this process records (tests: the searches' clock); default `Date.now`. */
  now?: () => number;
}

/**
 * Moves up to `maxNames` old partitions of `index` (one account's `EmployeeIndex`) into its
 * grouped layout and deletes them (see the module comment); records in this process whether any
 * remain, so its searches stop reading them at once.
 *
 * @throws {DomainError} for storage faults (what was moved stays moved).
 */
export async function migrateLegacyLastNames(
  index: TableClient,
  employees: EmployeesTable,
  options: LegacyMigrationOptions = {},
): Promise<LegacyMigrationReport> {
  if (!options.recheck && legacyLayoutKnownGone(index)) {
    return { names: 0, moved: 0, dropped: 0, remaining: false };
  }
  const store = entityLastNameStore(index, { maxShardChars: options.maxShardChars });
  const listed = await listLegacyLists(index, options.maxNames ?? LEGACY_NAMES_PER_CALL);
  const report: LegacyMigrationReport = { names: 0, moved: 0, dropped: 0, remaining: listed.more };
  for (let i = 0; i < listed.lists.length; i += NAMES_PER_BATCH) {
    const batch = listed.lists.slice(i, i + NAMES_PER_BATCH);
    const moved = await moveBatch(store, employees, batch, report, options);
    await options.beforeDelete?.();
    const deleted = await mapBounded(moved, IN_FLIGHT, (list) => deleteLegacyRows(index, list));
    report.names += deleted.filter(Boolean).length;
    if (moved.length < batch.length || deleted.includes(false)) report.remaining = true;
  }
  noteLegacyLayout(index, report.remaining, (options.now ?? Date.now)());
  return report;
}

/**
 * The first `maxNames` old partitions, whole, in one listing; `more` when others follow.
 *
 * @throws {DomainError} for storage faults.
 */
async function listLegacyLists(
  index: TableClient,
  maxNames: number,
): Promise<{ lists: LegacyList[]; more: boolean }> {
  await ensureTable(index);
  const range = legacyOrgLastNamePartitionKeyRange();
  const filter = odata`PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}`;
  const lists: LegacyList[] = [];
  return withStorageErrors(async () => {
    // A partition's rows come together, in key order: a new key closes the previous list.
    for await (const entity of index.listEntities<Record<string, unknown>>({
      queryOptions: { filter },
    })) {
      const partitionKey = String(entity.partitionKey ?? '');
      let list = lists.at(-1);
      if (list?.partitionKey !== partitionKey) {
        if (lists.length >= maxNames) return { lists, more: true };
        const lastName = parseLegacyOrgLastNamePartitionKey(partitionKey);
        list = { partitionKey, lastName, members: [], rows: [] };
        lists.push(list);
      }
      addLegacyRow(list, entity);
    }
    return { lists, more: false };
  });
}

/**
 * Adds each name's old members that belong to it to its grouped list (conditional on the list as
 * read first); counts into `report`.
 *
 * @returns the lists whose old rows may go: moved, or nothing to move.
 */
async function moveBatch(
  store: LastNameStore,
  employees: EmployeesTable,
  batch: readonly LegacyList[],
  report: LegacyMigrationReport,
  options: LegacyMigrationOptions,
): Promise<LegacyList[]> {
  const named = batch.flatMap((list) => (list.lastName === undefined ? [] : [list]));
  // The grouped lists are read BEFORE the employees: see the module comment.
  const snapshots = await store.snapshots(named.map((list) => list.lastName!));
  const moves: Move[] = named.map((list, i) => ({
    list,
    snapshot: snapshots[i]!,
    add: [],
    dropped: 0,
  }));
  const candidates = moves.flatMap((move) => {
    const held = new Set(move.snapshot.members);
    const lacking = [...new Set(move.list.members)].filter((m) => !held.has(m));
    return toRefs(lacking).map((member) => ({ move, member }));
  });
  const belongs = await mapBounded(
    candidates,
    IN_FLIGHT,
    async ({ move, member }) =>
      (await currentLastName(employees, member.department, member.employeeId)) ===
      move.snapshot.lastName,
  );
  candidates.forEach(({ move, member }, k) => {
    if (belongs[k]) move.add.push(member);
    else move.dropped++;
  });
  await options.beforeChange?.();
  const changing = moves.filter((move) => move.add.length > 0);
  const changes = changing.map(({ snapshot, add }): ListChange => ({ snapshot, add, remove: [] }));
  const written = changes.length > 0 ? await store.changes(changes) : [];
  const lost = new Set(changing.filter((_, k) => written[k] === undefined).map((m) => m.list));
  for (const move of moves) {
    if (lost.has(move.list)) continue;
    report.moved += move.add.length;
    report.dropped += move.dropped;
  }
  return batch.filter((list) => !lost.has(list));
}

/**
 * Deletes an old partition's rows, each conditional on its ETag as listed, a transaction per 100.
 *
 * @returns false when a row changed or went since (the next call reads the partition again).
 * @throws {DomainError} for other storage faults.
 */
async function deleteLegacyRows(index: TableClient, list: LegacyList): Promise<boolean> {
  for (const rows of packTransactions(list.rows, { operations: () => 1 })) {
    const applied = await submitOrLose(
      index,
      rows.map((row) => [
        'delete',
        { partitionKey: list.partitionKey, rowKey: row.rowKey },
        { etag: row.etag },
      ]),
    );
    if (!applied) return false;
  }
  return true;
}
