/**
 * The account layer the composition root opens once per process (docs/accounts.md): the account
 * set, the placement, each account's fence, and the tables and containers the capabilities use
 * on top of them (tables routed by department, the last-name index and the log containers over
 * every account). With one account (no `DATA_ACCOUNTS`) there is no layer: {@link openAccountLayer}
 * answers `undefined`, the capabilities use the home account's clients, and
 * {@link homePlacement} answers home for every key without a storage read.
 */
import type { ContainerClient } from '@azure/storage-blob';
import type { Config } from '../config';
import { lastNameStoreFor, type LastNameStore } from '../indexing';
import type { StorageClients } from '../storage/clients';
import { logHourPrefix } from '../storage/keys/blobs/logBlobs';
import { DEPARTMENT_ROW_KEY, departmentPartitionKey } from '../storage/keys/tables/employees';
import { readEntity } from '../storage/tables/entities';
import type { TableAccess } from '../storage/tables/tableAccess';
import { AccountSet, HOME_ACCOUNT, type StorageAccount } from './accounts';
import { AccountFence } from './partitionFence';
import { Placement } from './placement';
import { PlacementStore } from './placementStore';
import { PerAccount } from './routing/perAccount';
import { RoutedTable } from './routing/routedTable';
import { spreadLastNameStore } from './routing/spreadLastNames';

/** Builds the clients of a data account's connection. */
export type Connect = (connection: Config['storage']) => StorageClients;

/** The accounts, their placement and fences, and the tables and containers routed over them. */
export class AccountLayer {
  readonly accounts: AccountSet;
  readonly placement: Placement;
  /** Each account's fence (its fenced tables). */
  private readonly fences: PerAccount<AccountFence>;
  /** The tables of department-keyed data: routed; any other is the home account's. */
  private readonly routed: ReadonlySet<string>;
  private readonly routedTables = new Map<string, RoutedTable>();
  private lastNameStore: LastNameStore | undefined;

  /** @throws {SettingUnavailableError} while a setting `DATA_ACCOUNTS` names is unusable. */
  constructor(
    private readonly config: Config,
    private readonly home: StorageClients,
    connect: Connect,
  ) {
    this.accounts = connectAccounts(config, home, connect);
    this.placement = openPlacement(config, this.accounts, home);
    const { placement } = this;
    this.fences = new PerAccount(
      this.accounts,
      (account) =>
        new AccountFence({
          account: account.name,
          placement,
          tables: config.tables,
          raw: (tableName) => account.clients.table(tableName),
        }),
    );
    const { tables } = config;
    this.routed = new Set([
      tables.employees,
      tables.archive,
      tables.employeeIndex,
      tables.expenses,
      tables.messageStats,
      tables.accessLog,
    ]);
  }

  /**
   * A table as the services use it: routed to the account holding each partition for a table of
   * department-keyed data (one per table name), the home account's for any other.
   */
  table(tableName: string): TableAccess {
    if (!this.routed.has(tableName)) return this.home.table(tableName);
    let table = this.routedTables.get(tableName);
    if (!table) {
      table = this.routedTable(tableName);
      this.routedTables.set(tableName, table);
    }
    return table;
  }

  /**
   * {@link table}, but a department's partitions only in the account `pinnedTo` names for it (one
   * request's account handle): a department held elsewhere answers 503 `Relocating`.
   */
  pinnedTable(
    tableName: string,
    pinnedTo: (department: string) => string | undefined,
  ): TableAccess {
    if (!this.routed.has(tableName)) return this.home.table(tableName);
    return this.routedTable(tableName, pinnedTo);
  }

  /** The org-wide last-name index over every account (built on first use). */
  lastNames(): LastNameStore {
    this.lastNameStore ??= spreadLastNameStore(
      this.accounts.all.map((account) => ({
        account: account.name,
        store: this.lastNameStoreOf(account),
      })),
      (name) => this.placement.forKey('lastName', name).name,
    );
    return this.lastNameStore;
  }

  /**
   * The logs container an hour's blobs go to. A function-valued field: the logs builder passes it
   * on as it is.
   */
  readonly logHourContainer = (source: string, hourStart: Date): ContainerClient =>
    this.placement
      .forKey('logHour', logHourPrefix(source, hourStart))
      .clients.container(this.config.containers.logs);

  /** Every account's logs container, in the accounts' order (queries merge them). */
  logContainers(): ContainerClient[] {
    return this.accounts.all.map((account) =>
      account.clients.container(this.config.containers.logs),
    );
  }

  private routedTable(
    tableName: string,
    pinnedTo?: (department: string) => string | undefined,
  ): RoutedTable {
    return new RoutedTable({
      tableName,
      tables: this.config.tables,
      placement: this.placement,
      clientOf: (account) => this.fences.of(account).table(tableName),
      pinnedTo,
    });
  }

  /** One account's last-name store (the configured index mode, over its own storage). */
  private lastNameStoreOf(account: StorageAccount): LastNameStore {
    const { config } = this;
    return lastNameStoreFor(
      config.directory.lastNameIndexMode,
      account.clients.table(config.tables.employeeIndex),
      account.clients.container(config.containers.lastNameIndex),
      { maxShardChars: config.directory.lastNameShardChars },
    );
  }
}

/**
 * The account layer of a configuration that spreads data over more than the home account;
 * `undefined` with one account.
 *
 * @throws {SettingUnavailableError} while `DATA_ACCOUNTS` (or a setting it names) is unusable.
 */
export function openAccountLayer(
  config: Config,
  home: StorageClients,
  connect: Connect,
): AccountLayer | undefined {
  if (config.accounts.data.length === 0) return undefined;
  return new AccountLayer(config, home, connect);
}

/** The placement of one account: home for every key, without a storage read. */
export function homePlacement(home: StorageClients): Placement {
  return new Placement({
    accounts: new AccountSet({ name: HOME_ACCOUNT, weight: 1, clients: home }),
    livesInHome: async () => true,
    cacheMs: 0,
  });
}

/**
 * The home account and every data account, with their weights.
 *
 * @throws {SettingUnavailableError} while a setting `DATA_ACCOUNTS` names is unusable.
 */
function connectAccounts(config: Config, home: StorageClients, connect: Connect): AccountSet {
  const { weights } = config.accounts;
  return new AccountSet(
    { name: HOME_ACCOUNT, weight: weights[HOME_ACCOUNT] ?? 0, clients: home },
    config.accounts.data.map((data): StorageAccount => ({
      name: data.name,
      weight: weights[data.name] ?? 0,
      clients: connect(data.connection),
    })),
  );
}

/** The placement over `accounts`, kept in the home account's placement table. */
function openPlacement(config: Config, accounts: AccountSet, home: StorageClients): Placement {
  const homeEmployees = home.table(config.tables.employees);
  return new Placement({
    accounts,
    store: new PlacementStore(home.table(config.tables.placements)),
    // A department written before data accounts were configured lives in home: record it there.
    livesInHome: async (department) =>
      (await readEntity(homeEmployees, departmentPartitionKey(department), DEPARTMENT_ROW_KEY, [
        'RowKey',
      ])) !== undefined,
    cacheMs: config.accounts.placementCacheMs,
  });
}
