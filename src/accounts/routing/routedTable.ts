/**
 * A table that exists in every account (`Employees`, `EmployeeIndex`, ...) as one `TableAccess`:
 * each call goes to the account that holds the partition it names — a department's partitions
 * where its placement says, the department listing and anything else to home — through that
 * account's fenced table (../fencedTable.ts). So the directory, the index drains, the archive
 * worker and the orchestrations, typed by `TableAccess`, work unchanged over several accounts.
 *
 * A query names its partition first (`PartitionKey eq '…' and …`, as every query of the app's
 * does); a query across partitions (the outbox sweep's discovery) reads every account in turn.
 * Creating the table (`ensureTable`) creates it in home at once and in each other account on the
 * first call routed there: an account that cannot be reached fails only the calls that go to it,
 * not every caller's creation of the table. A table pinned to accounts (`pinnedTo`) serves a
 * request whose other storage (a photo container) was chosen in one account: only from there.
 */
import type {
  GetTableEntityOptions,
  ListTableEntitiesOptions,
  TableEntity,
  TableEntityResult,
  TableEntityResultPage,
  TableTransactionResponse,
  TransactionAction,
  UpdateMode,
} from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { equipConditions } from '../../storage/tables/entityGroupTransaction';
import type {
  EntityPages,
  PagePosition,
  TableAccess,
  WriteAnswer,
  WriteCondition,
} from '../../storage/tables/tableAccess';
import { parseDrainLeasePartitionKey } from '../../storage/keys/tables/employeeIndex';
import type { StorageAccount } from '../accounts';
import { departmentPartitionOf, type DepartmentTables } from '../departmentData';
import type { FencedTable } from '../fencedTable';
import type { Placement } from '../placement';
import { relocating } from '../accountErrors';

/** What a routed table needs. */
export interface RoutedTableOptions {
  tableName: string;
  tables: DepartmentTables;
  placement: Placement;
  /** The fenced table of `tableName` in one account. */
  clientOf: (account: StorageAccount) => FencedTable;
  /**
   * The account a department's calls must go to (one request's account handle: its photo
   * container is there), or `undefined` to follow the placement. A call for a department its
   * placement names elsewhere is refused with `Relocating`, never served by the other account.
   */
  pinnedTo?: (department: string) => string | undefined;
}

/** The partition a query filter pins (`PartitionKey eq '…'` at its start), if any. */
export function pinnedPartition(filter: string | undefined): string | undefined {
  const match = filter === undefined ? null : /^\s*PartitionKey eq '((?:[^']|'')*)'/.exec(filter);
  return match ? match[1]!.replace(/''/g, "'") : undefined;
}

/** Paged entities whose sources (one per account read) are found on first use. */
function lazyPaged<T extends object>(source: () => Promise<EntityPages<T>[]>): EntityPages<T> {
  let entities: AsyncIterator<TableEntityResult<T>> | undefined;
  async function* all(): AsyncGenerator<TableEntityResult<T>> {
    for (const paged of await source()) yield* paged;
  }
  return {
    next: () => (entities ??= all()).next(),
    [Symbol.asyncIterator]() {
      return this;
    },
    byPage(settings?: PagePosition) {
      async function* pages(): AsyncGenerator<TableEntityResultPage<T>> {
        for (const paged of await source()) yield* paged.byPage(settings);
      }
      return pages();
    },
  };
}

/** See the file comment. */
export class RoutedTable implements TableAccess {
  readonly tableName: string;
  private readonly home: FencedTable;
  /** Set once a caller created the table: from then on each account's is created on first use. */
  private wanted = false;

  constructor(private readonly options: RoutedTableOptions) {
    this.tableName = options.tableName;
    this.home = options.clientOf(options.placement.accounts.home);
  }

  async getEntity<T extends object = Record<string, unknown>>(
    partitionKey: string,
    rowKey: string,
    options?: GetTableEntityOptions,
  ) {
    return (await this.route(partitionKey, false)).getEntity<T>(partitionKey, rowKey, options);
  }

  /** A query naming its partition first reads its account; any other reads every account. */
  listEntities<T extends object = Record<string, unknown>>(
    list: ListTableEntitiesOptions = {},
  ): EntityPages<T> {
    const partitionKey = pinnedPartition(list.queryOptions?.filter);
    return lazyPaged<T>(async () =>
      partitionKey === undefined
        ? (await Promise.all(this.everywhere().map((client) => this.ready(client)))).map((client) =>
            client.listEntities<T>(list),
          )
        : [(await this.route(partitionKey, false)).listEntities<T>(list)],
    );
  }

  async createEntity<T extends object>(entity: TableEntity<T>): Promise<WriteAnswer> {
    return (await this.route(entity.partitionKey, true)).createEntity(entity);
  }

  async upsertEntity<T extends object>(
    entity: TableEntity<T>,
    mode?: UpdateMode,
  ): Promise<WriteAnswer> {
    return (await this.route(entity.partitionKey, true)).upsertEntity(entity, mode);
  }

  async updateEntity<T extends object>(
    entity: TableEntity<T>,
    mode?: UpdateMode,
    condition?: WriteCondition,
  ): Promise<WriteAnswer> {
    return (await this.route(entity.partitionKey, true)).updateEntity(entity, mode, condition);
  }

  async deleteEntity(
    partitionKey: string,
    rowKey: string,
    condition?: WriteCondition,
  ): Promise<WriteAnswer> {
    return (await this.route(partitionKey, true)).deleteEntity(partitionKey, rowKey, condition);
  }

  async submitTransaction(actions: TransactionAction[]): Promise<TableTransactionResponse> {
    const partitionKey = actions[0]?.[1].partitionKey ?? '';
    return (await this.route(partitionKey, true)).submitTransaction(actions);
  }

  /** Creates it in home; every other account's on the first call routed there. */
  async createTable(): Promise<void> {
    // Shared with the routed calls' own creation in home (one request per process).
    await ensureTable(this.home);
    this.wanted = true;
  }

  async deleteTable(): Promise<void> {
    await Promise.all(this.everywhere().map((client) => client.deleteTable()));
  }

  /**
   * The table of the account holding `partitionKey` (placing its department on a write), its
   * pipeline equipped for the conditions of a transaction sent through it
   * (entityGroupTransaction.ts).
   *
   * @throws {ThrottledError} `Relocating` when a pinned department is held elsewhere.
   * @throws {DomainError} for storage faults of the placement table or the table's creation.
   */
  private async route(partitionKey: string, write: boolean): Promise<FencedTable> {
    const department = this.departmentOf(partitionKey);
    const client = department === undefined ? this.home : await this.holderOf(department, write);
    equipConditions(client.pipeline);
    return this.ready(client);
  }

  /** The table of the account `department`'s placement names (see {@link route}). */
  private async holderOf(department: string, write: boolean): Promise<FencedTable> {
    const { placement } = this.options;
    const placed = await placement.ofDepartment(department, { place: write });
    const pinned = this.options.pinnedTo?.(department);
    // A write still carries the fence of its account: a switch after this check refuses it there.
    if (pinned !== undefined && pinned !== placed.account) throw relocating(department);
    return this.options.clientOf(placement.accountOf(placed));
  }

  private departmentOf(partitionKey: string): string | undefined {
    const { tables, tableName } = this.options;
    return (
      departmentPartitionOf(tables, tableName, partitionKey)?.department ??
      parseDrainLeasePartitionKey(partitionKey)
    );
  }

  private async ready(client: FencedTable): Promise<FencedTable> {
    if (this.wanted) await ensureTable(client);
    return client;
  }

  private everywhere(): FencedTable[] {
    return this.options.placement.accounts.all.map((account) => this.options.clientOf(account));
  }
}
