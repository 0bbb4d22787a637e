/**
 * The per-name layout the org-wide last-name index had before 2026-12-07 (`lastname_jones`, rows
 * `part_000`, ... and `~fence`; keys: employeeIndex.ts in src/storage/keys/tables). Nothing writes
 * it any more, but after an upgrade it still lists the employees indexed before, until the outbox
 * sweep moves them into the grouped layout (legacyLastNameMigration.ts). Until then the entity
 * store's reads add a name's old members to its grouped ones (lastNameEntityReads.ts).
 *
 * Whether any old partition remains is one range query of one row, remembered per table and
 * process for {@link LEGACY_CHECK_TTL_MS}: once none remains a search costs no extra request (the
 * check, once per TTL and process, is all). A query rather than a marker row: a new installation
 * never had old data and has no marker to write, and absence is the very fact a marker would only
 * repeat; an instance of the old version still writing during a rolling deploy is seen again.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { withStorageErrors } from '../../storage/storageFaults';
import {
  legacyOrgLastNamePartitionKey,
  legacyOrgLastNamePartitionKeyRange,
  parseLegacyOrgLastNameShardRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { parseMemberList } from './lastNameStore';
import { LAST_NAME_SHARD_TYPE } from './lastNameEntityShards';

/** How long a process trusts what it learnt of old partitions before asking again. */
export const LEGACY_CHECK_TTL_MS = 5 * 60_000;

/** What a process knows of a table's old partitions. */
interface Presence {
  remains: boolean;
  at: number;
  /** The check in flight: concurrent searches share it. */
  pending?: Promise<boolean>;
}

const presence = new Map<string, Presence>();

const keyOf = (table: TableClient): string => `${table.url}#${table.tableName}`;

/** Options of {@link legacyLayoutMayRemain} (tests: a clock and a short TTL). */
export interface LegacyCheckOptions {
  ttlMs?: number;
  now?: () => number;
}

/**
 * Whether any partition of the per-name layout may remain in `table`: remembered for the TTL,
 * else one query of one row.
 *
 * @throws {DomainError} for storage faults.
 */
export async function legacyLayoutMayRemain(
  table: TableClient,
  options: LegacyCheckOptions = {},
): Promise<boolean> {
  const now = options.now ?? Date.now;
  const known = presence.get(keyOf(table));
  if (known?.pending) return known.pending;
  if (known && now() - known.at < (options.ttlMs ?? LEGACY_CHECK_TTL_MS)) return known.remains;
  const pending = anyLegacyRow(table).then(
    (remains) => {
      presence.set(keyOf(table), { remains, at: now() });
      return remains;
    },
    (error: unknown) => {
      presence.delete(keyOf(table));
      throw error;
    },
  );
  presence.set(keyOf(table), { remains: known?.remains ?? true, at: known?.at ?? 0, pending });
  return pending;
}

/** Whether this process last found no old partition in `table` (whatever the TTL). */
export function legacyLayoutKnownGone(table: TableClient): boolean {
  const known = presence.get(keyOf(table));
  return known !== undefined && !known.pending && !known.remains;
}

/** Records what a walk of every old partition found (the migration), sparing the next check. */
export function noteLegacyLayout(table: TableClient, remains: boolean, now = Date.now()): void {
  presence.set(keyOf(table), { remains, at: now });
}

/** One query of at most one row over every old partition. */
async function anyLegacyRow(table: TableClient): Promise<boolean> {
  await ensureTable(table);
  const range = legacyOrgLastNamePartitionKeyRange();
  return withStorageErrors(async () => {
    const pages = table
      .listEntities({
        queryOptions: {
          filter: odata`PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}`,
          select: ['PartitionKey'],
        },
      })
      .byPage({ maxPageSize: 1 });
    // The service may end a page early, even empty, with a continuation: read on until it says.
    for await (const page of pages) {
      if (page.length > 0) return true;
      if (!page.continuationToken) return false;
    }
    return false;
  });
}

/** One row of an old partition as read (for a conditional delete). */
export interface LegacyRow {
  rowKey: string;
  etag: string;
}

/** One name's old partition as read: its members (encoded) and every row of it. */
export interface LegacyList {
  partitionKey: string;
  /** The normalised last name; `undefined` for a partition key that names none. */
  lastName: string | undefined;
  members: string[];
  rows: LegacyRow[];
}

/** Adds one row of an old partition to `list` (shards give members; every row is kept). */
export function addLegacyRow(list: LegacyList, entity: Record<string, unknown>): void {
  const rowKey = String(entity.rowKey ?? '');
  list.rows.push({ rowKey, etag: String(entity.etag ?? '') });
  const shard = parseLegacyOrgLastNameShardRowKey(rowKey);
  if (shard !== undefined && entity.EntityType === LAST_NAME_SHARD_TYPE) {
    list.members.push(...parseMemberList(entity.Members));
  }
}

/**
 * One name's old partition, in one query (an empty list when it has none).
 *
 * @throws {DomainError} for storage faults.
 */
export async function readLegacyList(table: TableClient, lastName: string): Promise<LegacyList> {
  const name = normalizeLastName(lastName);
  const partitionKey = legacyOrgLastNamePartitionKey(name);
  const list: LegacyList = { partitionKey, lastName: name, members: [], rows: [] };
  await withStorageErrors(async () => {
    const filter = odata`PartitionKey eq ${partitionKey}`;
    for await (const entity of table.listEntities<Record<string, unknown>>({
      queryOptions: { filter },
    })) {
      addLegacyRow(list, entity);
    }
  });
  return list;
}
