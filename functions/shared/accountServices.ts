/**
 * The composition root's account part (docs/accounts.md): the accounts of `DATA_ACCOUNTS`, the
 * placement that decides which holds what, each account's fence, and the routed table clients
 * that the services of services.ts run on. With one account none of this is built: services.ts
 * uses the home account's clients directly, exactly as before.
 */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { AccountSet, HOME_ACCOUNT, type StorageAccount } from '../../src/accounts/accounts';
import { AccountFence } from '../../src/accounts/partitionFence';
import { Placement } from '../../src/accounts/placement';
import { PlacementStore } from '../../src/accounts/placementStore';
import { routedTable } from '../../src/accounts/routedTable';
import { PerAccount } from '../../src/accounts/routing';
import { spreadLastNameStore } from '../../src/accounts/spreadLastNames';
import type { Config } from '../../src/config';
import { type LastNameStore, lastNameStoreFor } from '../../src/indexing';
import type { StorageClients } from '../../src/storage/clients';
import { readEntity } from '../../src/storage/tables/entities';
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
} from '../../src/storage/keys/tables/employees';
import { logHourPrefix } from '../../src/storage/keys/blobs/logBlobs';

/** The account part of the composition root (built once, see {@link createAccountServices}). */
export interface AccountServices {
  accounts: AccountSet;
  placement: Placement;
  /** Each account's fence (its fenced table clients). */
  fences: PerAccount<AccountFence>;
  /**
   * The client of a table as the services use it: routed to the account holding each partition
   * for a table of department-keyed data, the home account's for any other.
   */
  table(tableName: string): TableClient;
  /** The org-wide last-name index over every account. */
  lastNames(): LastNameStore;
  /** The logs container an hour's blobs go to. */
  logHourContainer(source: string, hourStart: Date): ContainerClient;
  /** Every account's logs container, in the accounts' order (queries merge them). */
  logContainers(): ContainerClient[];
}

/**
 * Whether the configuration spreads data over more than the home account.
 *
 * @throws {SettingUnavailableError} while `DATA_ACCOUNTS` (or a setting it names) is unusable.
 */
export function spreadsData(config: Config): boolean {
  return config.accounts.data.length > 0;
}

/** Builds the account part from the configuration and the home account's clients. */
export function createAccountServices(
  config: Config,
  home: StorageClients,
  connect: (connection: Config['storage']) => StorageClients,
): AccountServices {
  const { weights } = config.accounts;
  const accounts = new AccountSet(
    { name: HOME_ACCOUNT, weight: weights[HOME_ACCOUNT] ?? 0, clients: home },
    config.accounts.data.map((data): StorageAccount => ({
      name: data.name,
      weight: weights[data.name] ?? 0,
      clients: connect(data.connection),
    })),
  );
  const homeEmployees = home.table(config.tables.employees);
  const placement = new Placement({
    accounts,
    store: new PlacementStore(home.table(config.tables.placements)),
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
        tables: config.tables,
        raw: (tableName) => account.clients.table(tableName),
      }),
  );
  const { tables } = config;
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
