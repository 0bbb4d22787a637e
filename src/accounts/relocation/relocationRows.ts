/**
 * What a relocation reads and writes, one bounded page at a time (docs/accounts.md
 * "Relocating a department"): the department's table partitions (departmentData.ts), the
 * per-employee partitions of its expenses, message statistics and access events (one PartitionKey
 * range per table), and its photo blobs. Rows are copied as they are, but for the fence rows,
 * which belong to the account, and the photo URLs, which name the account. Deletions that must
 * stop once the partition moves on are fencedDelete.ts's.
 */
import { odata, type TableClient, type TableEntity } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { SYSTEM_PROPERTIES, readEntity, type StoredEntity } from '../../storage/tables/entities';
import { isNotFound, tookEffect, withStorageErrors } from '../../storage/storageFaults';
import { ensureTable } from '../../storage/createOnce';
import {
  FENCE_EPOCH_ROW_KEY,
  isFenceRowKey,
  type RegisteredTable,
} from '../../storage/keys/tables/placement';
import { parseEmployeePartitionKey } from '../../storage/keys/tables/employeePartitions';
import { mapBounded } from '../../storage/parallel';
import { whileBusy } from '../../storage/busyRetry';
import { fixedPartitions, registeredTables, type DepartmentTables } from '../departmentData';

/** One thing a relocation walks: a partition, a table's per-employee partitions, the photos. */
export type RelocationSource =
  | { kind: 'partition'; table: string; partitionKey: string }
  | { kind: 'employees'; table: string; code: RegisteredTable }
  | { kind: 'photos' };

/** What a relocation walks, in order. */
export function relocationSources(
  tables: DepartmentTables,
  department: string,
): RelocationSource[] {
  return [
    ...fixedPartitions(tables, department).map((partition): RelocationSource => ({
      kind: 'partition',
      ...partition,
    })),
    ...Object.entries(registeredTables(tables)).map(([code, table]): RelocationSource => ({
      kind: 'employees',
      table,
      code: code as RegisteredTable,
    })),
    { kind: 'photos' },
  ];
}

/** A page of rows and where the next one starts (`undefined`: the source is read). */
export interface RowPage {
  rows: StoredEntity[];
  next: string | undefined;
}

/**
 * One page (at most `max` rows) of a table source in one account: the rows of the department
 * only, fence rows left out.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readRowPage(
  client: TableClient,
  source: Extract<RelocationSource, { kind: 'partition' | 'employees' }>,
  department: string,
  token: string | undefined,
  max: number,
  options: { withFenceRows?: boolean } = {},
): Promise<RowPage> {
  const filter =
    source.kind === 'partition'
      ? odata`PartitionKey eq ${source.partitionKey}`
      : // Per-employee keys are `<department>_<six digits>`: digits sort before `:`.
        odata`PartitionKey ge ${`${department}_0`} and PartitionKey lt ${`${department}_:`}`;
  return whileBusy(() => readRows(client, filter, source, department, token, max, options));
}

async function readRows(
  client: TableClient,
  filter: string,
  source: Extract<RelocationSource, { kind: 'partition' | 'employees' }>,
  department: string,
  token: string | undefined,
  max: number,
  options: { withFenceRows?: boolean },
): Promise<RowPage> {
  return withStorageErrors(async () => {
    let page;
    try {
      page = await client
        .listEntities<Record<string, unknown>>({ queryOptions: { filter } })
        .byPage({ maxPageSize: max, continuationToken: token })
        .next();
    } catch (error) {
      if (isNotFound(error)) return { rows: [], next: undefined };
      throw error;
    }
    if (page.done) return { rows: [], next: undefined };
    const rows = (page.value as StoredEntity[]).filter(
      (row) =>
        (options.withFenceRows || !isFenceRowKey(row.rowKey)) &&
        (source.kind === 'partition' ||
          parseEmployeePartitionKey(row.partitionKey)?.department === department),
    );
    return { rows, next: page.value.continuationToken ?? undefined };
  });
}

/** Rewrites the photo URLs a row carries from one account's photos container to another's. */
export type UrlRewrite = (value: string) => string;

/** The photo URL rewrite between two containers (URLs of other containers are kept). */
export function photoUrlRewrite(from: ContainerClient, to: ContainerClient): UrlRewrite {
  const prefix = `${from.url}/`;
  return (value) => (value.startsWith(prefix) ? `${to.url}/${value.slice(prefix.length)}` : value);
}

/** A stored row as the target stores it: its keys and properties, photo URLs rewritten. */
export function targetRow(row: StoredEntity, rewrite: UrlRewrite): TableEntity {
  const entity: TableEntity = { partitionKey: row.partitionKey, rowKey: row.rowKey };
  for (const [name, value] of Object.entries(row)) {
    if (SYSTEM_PROPERTIES.has(name) || name.startsWith('odata.')) continue;
    entity[name] = name === 'PhotoUrl' && typeof value === 'string' ? rewrite(value) : value;
  }
  return entity;
}

/** Groups actions by partition, in transactions within the budget. */
function transactions(actions: EntityGroupAction[]): EntityGroupAction[][] {
  const byPartition = new Map<string, EntityGroupAction[]>();
  for (const action of actions) {
    const list = byPartition.get(action[1].partitionKey) ?? [];
    list.push(action);
    byPartition.set(action[1].partitionKey, list);
  }
  const chunks: EntityGroupAction[][] = [];
  for (const list of byPartition.values()) {
    for (let i = 0; i < list.length; i += MAX_TRANSACTION_OPERATIONS) {
      chunks.push(list.slice(i, i + MAX_TRANSACTION_OPERATIONS));
    }
  }
  return chunks;
}

/**
 * Stores rows in the target as they are (insert or replace: copying again is harmless).
 *
 * @throws {DomainError} for storage faults.
 */
export async function upsertRows(target: TableClient, rows: readonly TableEntity[]): Promise<void> {
  if (rows.length === 0) return;
  await ensureTable(target);
  const actions = rows.map((row): EntityGroupAction => ['upsert', row, 'Replace']);
  await mapBounded(transactions(actions), 4, (chunk) =>
    whileBusy(() => withStorageErrors(() => submitEntityGroupTransaction(target, chunk))),
  );
}

/**
 * Deletes rows (what is gone already is fine), partition by partition; the fence epoch rows are
 * kept: they stay behind as the partition's tombstone (docs/accounts.md).
 *
 * @throws {DomainError} for storage faults.
 */
export async function deleteRows(
  client: TableClient,
  rows: readonly { partitionKey: string; rowKey: string }[],
): Promise<void> {
  const actions = rows
    .filter((row) => row.rowKey !== FENCE_EPOCH_ROW_KEY)
    .map((row): EntityGroupAction => [
      'delete',
      { partitionKey: row.partitionKey, rowKey: row.rowKey },
    ]);
  await mapBounded(transactions(actions), 4, async (chunk) => {
    if (await whileBusy(() => tookEffect(() => submitEntityGroupTransaction(client, chunk)))) {
      return;
    }
    // One of them was gone already: delete the others one by one.
    for (const action of chunk) {
      await whileBusy(() => tookEffect(() => submitEntityGroupTransaction(client, [action])));
    }
  });
}

/**
 * Keys the last sync reads at once: enough to overlap their round trips, few enough that an
 * account held to its target is not met by a wall of reads that mostly come back refused.
 */
const SYNC_READS_IN_FLIGHT = 16;

/**
 * Makes the target's rows of `rowKeys` in one partition what the source holds now: copied when
 * present, deleted when gone (the last sync of the keys a write touched while it was copied).
 *
 * @returns the rows copied (the caller copies the photos they name).
 * @throws {DomainError} for storage faults.
 */
export async function syncRows(
  source: TableClient,
  target: TableClient,
  partitionKey: string,
  rowKeys: readonly string[],
  rewrite: UrlRewrite,
): Promise<StoredEntity[]> {
  const keys = [...new Set(rowKeys)].filter((key) => !isFenceRowKey(key));
  // Each read waits out a busy account on its own: one refusal does not fail the others.
  const read = await mapBounded(keys, SYNC_READS_IN_FLIGHT, (rowKey) =>
    whileBusy(() => readEntity(source, partitionKey, rowKey)),
  );
  const present = read.filter((row): row is StoredEntity => row !== undefined);
  const presentKeys = new Set(present.map((row) => row.rowKey));
  await upsertRows(
    target,
    present.map((row) => targetRow(row, rewrite)),
  );
  await ensureTable(target);
  await deleteRows(
    target,
    keys.filter((key) => !presentKeys.has(key)).map((rowKey) => ({ partitionKey, rowKey })),
  );
  return present;
}
