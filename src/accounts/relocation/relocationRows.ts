/**
 * What a relocation reads and writes, one bounded page at a time (docs/accounts.md
 * "Relocating a department"): the department's table partitions (departmentData.ts), the
 * per-employee partitions of its expenses, message statistics and access events (one PartitionKey
 * range per table), and its photo blobs. Rows are copied as they are, but for the fence rows,
 * which belong to the account, and the photo URLs, which name the account.
 */
import { odata, type TableClient, type TableEntity } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import {
  MAX_TRANSACTION_OPERATIONS,
  failedOperationIndex,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { SYSTEM_PROPERTIES, readEntity, type StoredEntity } from '../../storage/tables/entities';
import {
  isNotFound,
  isPreconditionFailed,
  toDomainError,
  tookEffect,
  withStorageErrors,
} from '../../storage/storageFaults';
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
import { advanceFenceEpoch, FENCE_ENTITY_TYPE, type FenceEpoch } from '../fenceEpoch';
import { fenceContended } from '../accountErrors';

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

/** Rounds one transaction of {@link deleteRowsWhileFenced} loses to other runs of its step. */
const MAX_FENCED_ROUNDS = 10;

/**
 * Deletes rows of one partition only while its fence stays at `fence` (brought there first, as
 * {@link advanceFenceEpoch} does): every transaction carries a rewrite of the fence epoch
 * conditional on its ETag, so once anything moves the partition on (another relocation fencing it
 * as its target, a switch opening it) nothing more is deleted, however long the caller was held
 * between its reads and its writes. A rewrite by another run of the same step (the same version)
 * is taken in stride; a row gone already is skipped. Arguments: the table client, the partition,
 * the row keys, the fence and the department (for errors), as {@link deleteFenced} takes them.
 *
 * @returns `'behind'` when the partition is past `fence.version` (what is left stays).
 * @throws {ThrottledError} `Relocating` when other runs kept winning.
 * @throws {DomainError} for storage faults.
 */
export async function deleteRowsWhileFenced(
  ...args: Parameters<typeof deleteFenced>
): Promise<'done' | 'behind'> {
  // Running it again is safe: the fence is where it was, and a row gone already is skipped.
  return whileBusy(() => deleteFenced(...args));
}

async function deleteFenced(
  client: TableClient,
  partitionKey: string,
  rowKeys: readonly string[],
  fence: FenceEpoch,
  department: string,
): Promise<'done' | 'behind'> {
  const keys = [...new Set(rowKeys)].filter((key) => key !== FENCE_EPOCH_ROW_KEY);
  const at = await advanceFenceEpoch(client, partitionKey, fence, department);
  if (at.outcome === 'behind') return 'behind';
  let etag = at.etag;
  const epoch = {
    partitionKey,
    rowKey: FENCE_EPOCH_ROW_KEY,
    EntityType: FENCE_ENTITY_TYPE,
    Version: fence.version,
    Open: fence.open,
  };
  /** One conditional transaction: applied, moved on, or a delete found its row gone. */
  const send = async (batch: readonly string[]): Promise<'done' | 'behind' | 'gone'> => {
    for (let round = 0; round < MAX_FENCED_ROUNDS; round++) {
      try {
        const response = await submitEntityGroupTransaction(client, [
          ['update', epoch, 'Replace', { etag }],
          ...batch.map((rowKey): EntityGroupAction => ['delete', { partitionKey, rowKey }]),
        ]);
        const next = response.subResponses[0]?.etag;
        if (next) etag = next;
        else {
          const now = await advanceFenceEpoch(client, partitionKey, fence, department);
          if (now.outcome === 'behind') return 'behind';
          etag = now.etag;
        }
        return 'done';
      } catch (error) {
        const index = failedOperationIndex(error);
        if (index !== undefined && index > 0 && isNotFound(error)) return 'gone';
        if (index !== 0 && !isPreconditionFailed(error)) throw toDomainError(error);
        // The epoch changed: moved on, or rewritten by another run of this step.
        const now = await advanceFenceEpoch(client, partitionKey, fence, department);
        if (now.outcome === 'behind') return 'behind';
        etag = now.etag;
      }
    }
    throw fenceContended(department, MAX_FENCED_ROUNDS);
  };
  // One operation of the budget is the epoch's: the rest are deletes.
  const size = MAX_TRANSACTION_OPERATIONS - 1;
  for (let i = 0; i < keys.length; i += size) {
    const batch = keys.slice(i, i + size);
    const outcome = await send(batch);
    if (outcome === 'behind') return 'behind';
    if (outcome === 'done') continue;
    // One of them was gone already: the others one by one.
    for (const rowKey of batch) {
      if ((await send([rowKey])) === 'behind') return 'behind';
    }
  }
  return 'done';
}

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
