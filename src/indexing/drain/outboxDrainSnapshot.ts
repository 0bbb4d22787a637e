/**
 * Step 2 of a drain round (src/indexing/drain/outboxDrain.ts): what the indexes hold now for the
 * round's keys (the targets, with each index partition's drain fence), then what the department's
 * partition says they should hold (the sources).
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { odata } from '@azure/data-tables';
import type { EmployeeData } from '../../directory';
import { toDomainError } from '../../storage/storageFaults';
import { mapBounded } from '../../storage/parallel';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
} from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  emailIndexRowKey,
  idIndexPartitionKey,
  idIndexRowKey,
  INDEX_FENCE_ROW_KEY,
} from '../../storage/keys/tables/employeeIndex';
import type { IndexStores } from '../indexStores';
import type { MemberListSnapshot } from '../lastNames/lastNameStore';
import { snapshotsCached } from '../lastNames/listBatches';
import type { Work } from './outboxDrainWork';
import { EntityTypes, isEntityOfType, readEmployeeData } from '../../directory/entities';
import type { StoredEntity } from '../../storage/tables/entities';

/** Row keys per `RowKey eq … or …` query: Azure allows 15 comparisons, one is the PartitionKey. */
const KEYS_PER_QUERY = 14;

/** The state of one employee as the sources say: its data, or gone (`undefined`). */
export interface EmployeeSource {
  data: EmployeeData;
  /** ETag of the entity it was read from (an email copy, or the employee): the `SourceETag`. */
  etag: string;
}

/** What one round read in step 2. */
export interface Snapshot {
  idEntries: Map<string, StoredEntity>;
  emailEntries: Map<string, StoredEntity>;
  lists: Map<string, MemberListSnapshot>;
  /** ETag of each index partition's drain fence, read before the sources (`undefined`: none). */
  fences: { id: string | undefined; email: string | undefined };
  sources: Sources;
}

export interface Sources {
  /** Normalised email → the copy holding it now (absent: nobody). */
  copies: Map<string, StoredEntity & { data: EmployeeData }>;
  /** Employee id → its state (`undefined`: gone). */
  employees: Map<string, EmployeeSource | undefined>;
}

/**
 * Entities of one partition by RowKey: a point read for one, `RowKey eq … or …` queries of
 * {@link KEYS_PER_QUERY} for more. Absent keys are absent from the map.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readRowKeys(
  table: TableAccess,
  partitionKey: string,
  rowKeys: readonly string[],
): Promise<Map<string, StoredEntity>> {
  const found = new Map<string, StoredEntity>();
  const unique = [...new Set(rowKeys)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += KEYS_PER_QUERY) {
    chunks.push(unique.slice(i, i + KEYS_PER_QUERY));
  }
  await mapBounded(chunks, 8, (chunk) => queryRowKeys(table, partitionKey, chunk, found));
  return found;
}

/** One `RowKey eq … or …` query of {@link readRowKeys}, its entities added to `found`. */
async function queryRowKeys(
  table: TableAccess,
  partitionKey: string,
  rowKeys: readonly string[],
  found: Map<string, StoredEntity>,
): Promise<void> {
  const keys = rowKeys.map((rowKey) => odata`RowKey eq ${rowKey}`).join(' or ');
  const filter = `${odata`PartitionKey eq ${partitionKey}`} and (${keys})`;
  try {
    for await (const entity of table.listEntities<Record<string, unknown>>({
      queryOptions: { filter },
    })) {
      const stored = { ...entity, partitionKey, rowKey: entity.rowKey ?? '' } as StoredEntity;
      found.set(stored.rowKey, stored);
    }
  } catch (error) {
    throw toDomainError(error);
  }
}

/**
 * The entries of one index partition under `rowKeys`, and its fence: read with them in the same
 * query, or — when there is no entry to read — taken from this process's last write of it
 * (src/indexing/drain/drainCache.ts), which is older than any read we could make now.
 */
async function readTargets(
  stores: IndexStores,
  partitionKey: string,
  rowKeys: string[],
): Promise<{ entries: Map<string, StoredEntity>; fence: string | undefined }> {
  const cached = stores.drainCache?.fences.get(partitionKey);
  if (rowKeys.length === 0 && cached !== undefined) return { entries: new Map(), fence: cached };
  const entries = await readRowKeys(stores.index, partitionKey, [INDEX_FENCE_ROW_KEY, ...rowKeys]);
  const fence = entries.get(INDEX_FENCE_ROW_KEY)?.etag;
  entries.delete(INDEX_FENCE_ROW_KEY);
  return { entries, fence };
}

/**
 * Reads the targets of a round — with the drain fence of both index partitions and the member
 * lists — and only then the sources. The order is what makes the round safe: its writes are
 * conditional on the fences and lists as read here, before the sources, so they fail if another
 * round wrote since — in particular one that drained a change our sources are too old to show
 * (see src/indexing/drain/outboxDrain.ts).
 *
 * @throws {DomainError} for storage faults.
 */
export async function takeSnapshot(
  stores: IndexStores,
  department: string,
  work: Work,
): Promise<Snapshot> {
  const ids = work.employeeIds.filter((id) => !work.fresh.has(`id:${id}`));
  const emails = work.emails.filter((email) => !work.fresh.has(`email:${email}`));
  const [id, email, lists] = await Promise.all([
    readTargets(stores, idIndexPartitionKey(department), ids.map(idIndexRowKey)),
    readTargets(stores, emailIndexPartitionKey(department), emails.map(emailIndexRowKey)),
    snapshotsCached(stores.lastNames, work.lastNames, (name) => stores.drainCache?.lists.get(name)),
  ]);
  const sources = await readSources(stores.employees, departmentPartitionKey(department), work);
  return {
    idEntries: id.entries,
    emailEntries: email.entries,
    lists: new Map(lists.map((list) => [list.lastName, list])),
    fences: { id: id.fence, email: email.fence },
    sources,
  };
}

/** An employee's state from its entity; `undefined` when absent (gone) or not an employee. */
function employeeSource(primary: StoredEntity | undefined): EmployeeSource | undefined {
  const data =
    primary && isEntityOfType(primary, EntityTypes.employee)
      ? readEmployeeData(primary)
      : undefined;
  return primary && data ? { data, etag: primary.etag } : undefined;
}

/**
 * The department's own say on each email and employee of the round: the email copies (one
 * query per 14 addresses, with the employee entities of employees that may be gone), then the
 * employee entity of any employee no single copy speaks for. Read after the targets they are
 * written to (see {@link takeSnapshot}).
 *
 * @throws {DomainError} for storage faults.
 */
export async function readSources(
  table: TableAccess,
  partitionKey: string,
  work: Work,
): Promise<Sources> {
  const copyKeys = work.emails.map(emailRowKey);
  const goneKeys = [...work.maybeGone].map(employeeRowKey);
  const first = await readRowKeys(table, partitionKey, [...copyKeys, ...goneKeys]);

  const copies: Sources['copies'] = new Map();
  const claims = new Map<string, (StoredEntity & { data: EmployeeData })[]>();
  work.emails.forEach((email, i) => {
    const entity = first.get(copyKeys[i]!);
    const data =
      entity && isEntityOfType(entity, EntityTypes.employeeEmail)
        ? readEmployeeData(entity)
        : undefined;
    if (!entity || !data) return;
    const copy = { ...entity, data };
    copies.set(email, copy);
    claims.set(data.employeeId, [...(claims.get(data.employeeId) ?? []), copy]);
  });

  const employees: Sources['employees'] = new Map();
  const unresolved: string[] = [];
  for (const employeeId of work.employeeIds) {
    const primary = first.get(employeeRowKey(employeeId));
    const claimed = claims.get(employeeId) ?? [];
    if (work.maybeGone.has(employeeId)) {
      employees.set(employeeId, employeeSource(primary));
    } else if (claimed.length === 1) {
      employees.set(employeeId, { data: claimed[0]!.data, etag: claimed[0]!.etag });
    } else {
      // No copy among these addresses holds the employee (it changed its email since the row was
      // written) or, with damaged data, several do: the employee entity decides.
      unresolved.push(employeeId);
    }
  }
  const primaries = await readRowKeys(table, partitionKey, unresolved.map(employeeRowKey));
  for (const employeeId of unresolved) {
    const rowKey = employeeRowKey(employeeId);
    employees.set(employeeId, employeeSource(primaries.get(rowKey)));
  }
  return { copies, employees };
}
