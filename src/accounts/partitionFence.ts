/**
 * The relocation fence (docs/accounts.md "The fence"; docs/glossary.md): with data spread over
 * several accounts, every write to a partition of a department's data carries, in its own entity
 * group transaction, a merge of the partition's open fence row for the placement version the
 * writer believes in (fenceEpoch.ts). While the placement is unchanged that costs one operation
 * in a request the write sends anyway; once a relocation has moved the partition on (copying,
 * frozen, moved), the write fails whole — nothing stored — and the writer reads the placement
 * again: it continues under the new version, or answers 503 `Relocating`. While a relocation
 * copies the department, the transaction also records the keys it touched (a change marker) for
 * the last sync.
 *
 * The writes reach it through one account's {@link FencedTable} (fencedTable.ts): single writes
 * to a department's partition become one-operation transactions (still one request), and
 * transactions get the fence operations appended (`FENCE_OPERATIONS` of the budget).
 */
import { randomUUID } from 'node:crypto';
import type { TableClient, TableTransactionResponse, TransactionAction } from '@azure/data-tables';
import {
  failedOperationIndex,
  withoutCallConditions,
} from '../storage/tables/entityGroupTransaction';
import { isNotFound } from '../storage/storageFaults';
import {
  fenceChangeRowKey,
  fenceOpenRowKey,
  partitionRegistryRowKey,
} from '../storage/keys/tables/placement';
import { LruMap } from '../storage/lruMap';
import { fenceContended, relocating } from './accountErrors';
import { RETRY, retryOptimistically } from '../storage/optimisticRetry';
import {
  departmentPartitionOf,
  type DepartmentPartition,
  type DepartmentTables,
} from './departmentData';
import { advanceFence, FENCE_ENTITY_TYPE } from './fenceEpoch';
import type { DepartmentPlacement, Placement } from './placement';
import { FencedTable, type TableFence } from './fencedTable';

/** Attempts of one write against a fence that keeps moving. */
const MAX_ATTEMPTS = 6;
/** Characters of one property of a change marker's key list (a property holds 64 KiB). */
const KEYS_PER_PROPERTY = 30_000;
const REGISTRY_ENTITY_TYPE = 'PartitionRegistration.v1';

/** What the fence of one account needs. */
export interface AccountFenceOptions {
  /** This account's name. */
  account: string;
  placement: Placement;
  tables: DepartmentTables;
  /** The unfenced client of one of this account's tables. */
  raw: (tableName: string) => TableClient;
}

/** The property list of a change marker: the touched RowKeys as JSON, in properties of ≤ 30 K. */
export function changeMarkerKeys(rowKeys: readonly string[]): Record<string, string> {
  const json = JSON.stringify([...new Set(rowKeys)]);
  const properties: Record<string, string> = {};
  for (let i = 0; i * KEYS_PER_PROPERTY < json.length; i++) {
    properties[`Keys${i}`] = json.slice(i * KEYS_PER_PROPERTY, (i + 1) * KEYS_PER_PROPERTY);
  }
  return properties;
}

/** Reverses {@link changeMarkerKeys}; unreadable markers give no keys. */
export function readChangeMarkerKeys(entity: Record<string, unknown>): string[] {
  let json = '';
  for (let i = 0; typeof entity[`Keys${i}`] === 'string'; i++) json += entity[`Keys${i}`] as string;
  try {
    const keys: unknown = JSON.parse(json);
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** The fence of one account: its fenced tables (fencedTable.ts) submit through it. */
export class AccountFence implements TableFence {
  private readonly fenced = new Map<string, FencedTable>();
  /** Per-employee partitions this process noted in the department's registry, per version. */
  private readonly noted = new LruMap<string, true>(20_000);

  constructor(private readonly options: AccountFenceOptions) {}

  /** The fenced table of one of this account's tables (one per table name). */
  table(tableName: string): FencedTable {
    let table = this.fenced.get(tableName);
    if (!table) {
      table = new FencedTable(this, this.options.raw(tableName));
      this.fenced.set(tableName, table);
    }
    return table;
  }

  covers(tableName: string, partitionKey: string): boolean {
    return this.partitionOf(tableName, partitionKey) !== undefined;
  }

  private partitionOf(tableName: string, partitionKey: string): DepartmentPartition | undefined {
    return departmentPartitionOf(this.options.tables, tableName, partitionKey);
  }

  /**
   * Submits a transaction with the fence operations of its partition's placement (see the file
   * comment), reading the placement again and bringing the partition's fence up to it when the
   * fence refused it.
   *
   * @throws {ThrottledError} `Relocating` when the department is frozen or moved on.
   * @throws the SDK's error when the transaction failed for its own operations.
   */
  async submit(
    target: TableClient,
    actions: TransactionAction[],
  ): Promise<TableTransactionResponse> {
    const partitionKey = actions[0]?.[1].partitionKey;
    const partition =
      partitionKey === undefined ? undefined : this.partitionOf(target.tableName, partitionKey);
    if (!partition || partitionKey === undefined) return target.submitTransaction(actions);
    return this.submitFenced(target, actions, partitionKey, partition);
  }

  /** {@link submit} in a department's partition: the fence's optimistic retry. */
  private async submitFenced(
    target: TableClient,
    actions: TransactionAction[],
    partitionKey: string,
    partition: DepartmentPartition,
  ): Promise<TableTransactionResponse> {
    let fresh = false;
    const retry = {
      maxAttempts: MAX_ATTEMPTS,
      giveUp: (n: number) => fenceContended(partition.department, n),
    };
    return retryOptimistically(retry, async () => {
      const placement = await withoutCallConditions(() => this.writable(partition, fresh));
      if (placement.phase === 'copying' && partition.registry) {
        await withoutCallConditions(() =>
          this.note(target.tableName, partitionKey, partition, placement),
        );
      }
      try {
        return await target.submitTransaction([
          ...actions,
          ...fenceActions(partitionKey, placement, actions),
        ]);
      } catch (error) {
        if (!(isNotFound(error) && failedOperationIndex(error) === actions.length)) throw error;
        // The fence refused: the partition moved on, or was never fenced at this version.
        this.options.placement.forget(partition.department);
        const current = await withoutCallConditions(() => this.writable(partition, true));
        const outcome = await withoutCallConditions(() =>
          this.bringUp(target.tableName, partitionKey, partition, current),
        );
        fresh = outcome === 'behind';
        return RETRY;
      }
    });
  }

  /**
   * The placement a write to `partition` goes by, when this account holds the department and may
   * write it.
   *
   * @throws {ThrottledError} `Relocating` when it is frozen or another account holds it.
   */
  private async writable(
    partition: DepartmentPartition,
    fresh: boolean,
  ): Promise<DepartmentPlacement> {
    const placement = await this.options.placement.ofDepartment(partition.department, {
      place: true,
      fresh,
    });
    if (placement.account !== this.options.account || placement.phase === 'frozen') {
      throw relocating(partition.department);
    }
    return placement;
  }

  /**
   * Opens a partition's fence at the placement's version (a partition written for the first time
   * in this account, or one a relocation has moved on to the version being copied). A
   * per-employee partition is registered in the department's partition first.
   */
  private async bringUp(
    tableName: string,
    partitionKey: string,
    partition: DepartmentPartition,
    placement: DepartmentPlacement,
  ): Promise<'done' | 'behind'> {
    if (partition.registry) await this.register(partition);
    return advanceFence(
      this.options.raw(tableName),
      partitionKey,
      { version: placement.version, open: true },
      partition.department,
    );
  }

  /**
   * Records, once per process and placement version, that this per-employee partition is written
   * while the department is copied: the registry write is itself fenced and marked, so the
   * relocation's last sync knows which per-employee partitions to look at.
   */
  private async note(
    tableName: string,
    partitionKey: string,
    partition: DepartmentPartition,
    placement: DepartmentPlacement,
  ): Promise<void> {
    const key = `${tableName}\n${partitionKey}\n${placement.version}`;
    if (this.noted.get(key)) return;
    await this.register(partition);
    this.noted.set(key, true);
  }

  /** Upserts the registry entry of a per-employee partition, through the fenced `Employees`. */
  private async register(partition: DepartmentPartition): Promise<void> {
    if (!partition.registry) return;
    await this.table(this.options.tables.employees).upsertEntity(
      {
        partitionKey: partition.department,
        rowKey: partitionRegistryRowKey(partition.registry.table, partition.registry.employeeId),
        EntityType: REGISTRY_ENTITY_TYPE,
      },
      'Replace',
    );
  }
}

/** The operations a write under `placement` carries: the open row's merge, and a change marker. */
function fenceActions(
  partitionKey: string,
  placement: DepartmentPlacement,
  actions: readonly TransactionAction[],
): TransactionAction[] {
  const fence: TransactionAction[] = [
    ['update', { partitionKey, rowKey: fenceOpenRowKey(placement.version) }, 'Merge'],
  ];
  if (placement.phase === 'copying') {
    fence.push([
      'create',
      {
        partitionKey,
        rowKey: fenceChangeRowKey(placement.version, randomUUID().replace(/-/g, '')),
        EntityType: FENCE_ENTITY_TYPE,
        ...changeMarkerKeys(actions.map((action) => action[1].rowKey)),
      },
    ]);
  }
  return fence;
}
