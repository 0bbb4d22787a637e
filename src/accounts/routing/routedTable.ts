/**
 * One `TableClient` for a table that exists in every account (`Employees`, `EmployeeIndex`, ...):
 * each call goes to the account that holds the partition it names — a department's partitions
 * where its placement says, the department listing and anything else to home — through that
 * account's fenced client (partitionFence.ts). So the directory, the index drains, the archive
 * worker and the orchestrations work unchanged over several accounts.
 *
 * A query names its partition first (`PartitionKey eq '…' and …`, as every query of the app's
 * does); a query across partitions (the outbox sweep's discovery) reads every account in turn.
 * Creating the table (`ensureTable`) creates it in home at once and in each other account on the
 * first call routed there: an account that cannot be reached fails only the calls that go to it,
 * not every caller's creation of the table. A table pinned to accounts (`pinnedTo`) serves a
 * request whose other storage (a photo container) was chosen in one account: only from there.
 */
import { withOverrides } from '../overrides';
import type {
  ListTableEntitiesOptions,
  TableClient,
  TableEntity,
  TableEntityResult,
  TableEntityResultPage,
  TransactionAction,
} from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import { equipConditions } from '../../storage/tables/entityGroupTransaction';
import { parseDrainLeasePartitionKey } from '../../storage/keys/tables/employeeIndex';
import type { StorageAccount } from '../accounts';
import { departmentPartitionOf, type DepartmentTables } from '../departmentData';
import type { Placement } from '../placement';
import { relocating } from '../accountErrors';

/** What a routed table needs. */
export interface RoutedTableOptions {
  tableName: string;
  tables: DepartmentTables;
  placement: Placement;
  /** The client of `tableName` in one account (fenced when data is spread). */
  clientOf: (account: StorageAccount) => TableClient;
  /**
   * The account a department's calls must go to (one request's account handle: its photo
   * container is there), or `undefined` to follow the placement. A call for a department its
   * placement names elsewhere is refused with `Relocating`, never served by the other account.
   */
  pinnedTo?: (department: string) => string | undefined;
}

/** What `TableClient.listEntities<T>` returns. */
interface Paged<T extends object> extends AsyncIterableIterator<TableEntityResult<T>> {
  byPage(settings?: PageSettings): AsyncIterableIterator<TableEntityResultPage<T>>;
}
type PageSettings = Parameters<ReturnType<TableClient['listEntities']>['byPage']>[0];

/** The partition a query filter pins (`PartitionKey eq '…'` at its start), if any. */
export function pinnedPartition(filter: string | undefined): string | undefined {
  const match = filter === undefined ? null : /^\s*PartitionKey eq '((?:[^']|'')*)'/.exec(filter);
  return match ? match[1]!.replace(/''/g, "'") : undefined;
}

/** A paged iterator whose source is found on first use. */
function lazyPaged<T extends object>(source: () => Promise<Paged<T>[]>): Paged<T> {
  let entities: AsyncIterator<TableEntityResult<T>> | undefined;
  async function* all(): AsyncGenerator<TableEntityResult<T>> {
    for (const paged of await source()) yield* paged;
  }
  return {
    next: () => (entities ??= all()).next(),
    [Symbol.asyncIterator]() {
      return this;
    },
    byPage(settings?: PageSettings) {
      async function* pages(): AsyncGenerator<TableEntityResultPage<T>> {
        for (const paged of await source()) {
          yield* paged.byPage(settings) as AsyncIterableIterator<TableEntityResultPage<T>>;
        }
      }
      return pages();
    },
  };
}

/** See the file comment. */
export function routedTable(options: RoutedTableOptions): TableClient {
  const { placement, tableName } = options;
  const home = options.clientOf(placement.accounts.home);

  // Set once a caller created the table: from then on each account's is created on first use.
  let wanted = false;
  const ready = async (client: TableClient): Promise<TableClient> => {
    if (wanted) await ensureTable(client);
    return client;
  };

  const departmentOf = (partitionKey: string): string | undefined =>
    departmentPartitionOf(options.tables, tableName, partitionKey)?.department ??
    parseDrainLeasePartitionKey(partitionKey);

  /** The client of the account holding `partitionKey` (placing its department on a write). */
  const route = async (partitionKey: string, write: boolean): Promise<TableClient> => {
    const department = departmentOf(partitionKey);
    if (department === undefined) return ready(home);
    const placed = await placement.ofDepartment(department, { place: write });
    const pinned = options.pinnedTo?.(department);
    // A write still carries the fence of its account: a switch after this check refuses it there.
    if (pinned !== undefined && pinned !== placed.account) throw relocating(department);
    const client = options.clientOf(placement.accountOf(placed));
    equipConditions(client.pipeline);
    return ready(client);
  };
  const everywhere = (): TableClient[] =>
    placement.accounts.all.map((account) => options.clientOf(account));

  const overrides = {
    getEntity: async (partitionKey: string, rowKey: string, ...rest: unknown[]) => {
      const client = await route(partitionKey, false);
      return (client.getEntity as (...args: unknown[]) => Promise<unknown>)(
        partitionKey,
        rowKey,
        ...rest,
      );
    },
    listEntities: <T extends object>(list: ListTableEntitiesOptions = {}): Paged<T> => {
      const partitionKey = pinnedPartition(list.queryOptions?.filter);
      return lazyPaged<T>(async () =>
        partitionKey === undefined
          ? (await Promise.all(everywhere().map(ready))).map(
              (client) => client.listEntities<T>(list) as Paged<T>,
            )
          : [(await route(partitionKey, false)).listEntities<T>(list) as Paged<T>],
      );
    },
    createEntity: async (entity: TableEntity, ...rest: unknown[]) =>
      (
        (await route(entity.partitionKey, true)).createEntity as (
          ...args: unknown[]
        ) => Promise<unknown>
      )(entity, ...rest),
    upsertEntity: async (entity: TableEntity, ...rest: unknown[]) =>
      (
        (await route(entity.partitionKey, true)).upsertEntity as (
          ...args: unknown[]
        ) => Promise<unknown>
      )(entity, ...rest),
    updateEntity: async (entity: TableEntity, ...rest: unknown[]) =>
      (
        (await route(entity.partitionKey, true)).updateEntity as (
          ...args: unknown[]
        ) => Promise<unknown>
      )(entity, ...rest),
    deleteEntity: async (partitionKey: string, rowKey: string, ...rest: unknown[]) =>
      ((await route(partitionKey, true)).deleteEntity as (...args: unknown[]) => Promise<unknown>)(
        partitionKey,
        rowKey,
        ...rest,
      ),
    submitTransaction: async (actions: TransactionAction[], ...rest: unknown[]) => {
      const partitionKey = actions[0]?.[1].partitionKey ?? '';
      const client = await route(partitionKey, true);
      return (client.submitTransaction as (...args: unknown[]) => Promise<unknown>)(
        actions,
        ...rest,
      );
    },
    createTable: async () => {
      // Shared with the routed calls' own creation in home (one request per process).
      await ensureTable(home);
      wanted = true;
    },
    deleteTable: async (...args: unknown[]) => {
      await Promise.all(
        everywhere().map((client) =>
          (client.deleteTable as (...a: unknown[]) => Promise<unknown>)(...args),
        ),
      );
    },
  };
  return withOverrides(home, overrides);
}
