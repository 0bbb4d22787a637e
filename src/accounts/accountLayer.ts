/**
 * The account layer the composition root opens once per process (docs/accounts.md): the account
 * set, the placement, each account's fence, and the clients the capabilities use on top of them
 * (tables routed by department, the last-name index and the log containers over every account).
 * With one account (no `DATA_ACCOUNTS`) there is no layer: {@link openAccountLayer} answers
 * `undefined`, the capabilities use the home account's clients, and {@link homePlacement} answers
 * home for every key without a storage read.
 */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import type { Config } from '../config';
import { lastNameStoreFor, type LastNameStore } from '../indexing';
import type { StorageClients } from '../storage/clients';
import { logHourPrefix } from '../storage/keys/blobs/logBlobs';
import { DEPARTMENT_ROW_KEY, departmentPartitionKey } from '../storage/keys/tables/employees';
import { readEntity } from '../storage/tables/entities';
import { AccountSet, HOME_ACCOUNT, type StorageAccount } from './accounts';
import { AccountFence } from './partitionFence';
import { Placement } from './placement';
import { PlacementStore } from './placementStore';
import { PerAccount } from './routing/perAccount';
import { routedTable } from './routing/routedTable';
import { spreadLastNameStore } from './routing/spreadLastNames';

/** The accounts, their placement and fences, and the clients routed over them. */
export interface AccountLayer {
  accounts: AccountSet;
  placement: Placement;
  /** Each account's fence (its fenced table clients). */
  fences: PerAccount<AccountFence>;
  /**
   * The client of a table as the services use it: routed to the account holding each partition
   * for a table of department-keyed data, the home account's for any other.
   */
  table(tableName: string): TableClient;
  /**
   * {@link table}, but a department's partitions only in the account `pinnedTo` names for it (one
   * request's account handle): a department held elsewhere answers 503 `Relocating`.
   */
  pinnedTable(tableName: string, pinnedTo: (department: string) => string | undefined): TableClient;
  /** The org-wide last-name index over every account. */
  lastNames(): LastNameStore;
  /** The logs container an hour's blobs go to. */
  logHourContainer(source: string, hourStart: Date): ContainerClient;
  /** Every account's logs container, in the accounts' order (queries merge them). */
  logContainers(): ContainerClient[];
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
  connect: (connection: Config['storage']) => StorageClients,
): AccountLayer | undefined {
  if (config.accounts.data.length === 0) return undefined;
  const { weights } = config.accounts;
  const accounts = new AccountSet(
    { name: HOME_ACCOUNT, weight: weights[HOME_ACCOUNT] ?? 0, clients: home },
    config.accounts.data.map((data): StorageAccount => ({
      name: data.name,
      weight: weights[data.name] ?? 0,
      clients: connect(data.connection),
    })),
  );
  const { tables } = config;
  const homeEmployees = home.table(tables.employees);
  const placement = new Placement({
    accounts,
    store: new PlacementStore(home.table(tables.placements)),
    // A department written before data accounts were configured lives in home: record it there.
    livesInHome: async (department) =>
      (await readEntity(homeEmployees, departmentPartitionKey(department), DEPARTMENT_ROW_KEY, [
        'RowKey',
      ])) !== undefined,
    cacheMs: config.accounts.placementCacheMs,
  });
  const fences = new PerAccount(
    accounts,
    (account) =>
      new AccountFence({
        account: account.name,
        placement,
        tables,
        raw: (tableName) => account.clients.table(tableName),
      }),
  );
  const routed = new Set([
    tables.employees,
    tables.archive,
    tables.employeeIndex,
    tables.expenses,
    tables.messageStats,
    tables.accessLog,
  ]);
  const tableClients = new Map<string, TableClient>();
  let lastNames: LastNameStore | undefined;
  return {
    accounts,
    placement,
    fences,
    table(tableName) {
      if (!routed.has(tableName)) return home.table(tableName);
      let client = tableClients.get(tableName);
      if (!client) {
        client = routedTable({
          tableName,
          tables,
          placement,
          clientOf: (account) => fences.of(account).table(tableName),
        });
        tableClients.set(tableName, client);
      }
      return client;
    },
    pinnedTable(tableName, pinnedTo) {
      if (!routed.has(tableName)) return home.table(tableName);
      const clientOf = (account: StorageAccount) => fences.of(account).table(tableName);
      return routedTable({ tableName, tables, placement, clientOf, pinnedTo });
    },
    lastNames() {
      lastNames ??= spreadLastNameStore(
        accounts.all.map((account) => ({
          account: account.name,
          store: lastNameStoreFor(
            config.directory.lastNameIndexMode,
            account.clients.table(tables.employeeIndex),
            account.clients.container(config.containers.lastNameIndex),
            { maxShardChars: config.directory.lastNameShardChars },
          ),
        })),
        (name) => placement.forKey('lastName', name).name,
      );
      return lastNames;
    },
    logHourContainer: (source, hourStart) =>
      placement
        .forKey('logHour', logHourPrefix(source, hourStart))
        .clients.container(config.containers.logs),
    logContainers: () =>
      accounts.all.map((account) => account.clients.container(config.containers.logs)),
  };
}

/** The placement of one account: home for every key, without a storage read. */
export function homePlacement(home: StorageClients): Placement {
  return new Placement({
    accounts: new AccountSet({ name: HOME_ACCOUNT, weight: 1, clients: home }),
    livesInHome: async () => true,
    cacheMs: 0,
  });
}
