/**
 * Data spread over three emulated accounts (docs/accounts.md): the home Azurite and the two data
 * Azurites the global setup starts (`data1account`, `data2account`, each its own process and
 * ports). A test gets its own table, queue and container names, the same in every account, and
 * removes them from all three afterwards.
 */
import { createServices, type Services } from '../../functions/shared/services';
import { loadConfig, type Config } from '../../src/config';
import type { StorageClients } from '../../src/storage/clients';
import { azuriteConnectionString, testClients, uniqueName, uniqueTableName } from './storage';

/** The connection strings of the two data accounts (from the global setup). */
export function dataConnectionStrings(): [string, string] {
  const data1 = process.env.TEST_DATA1;
  const data2 = process.env.TEST_DATA2;
  if (!data1 || !data2) {
    throw new Error('TEST_DATA1/TEST_DATA2 are not set: run tests through jest (global setup).');
  }
  return [data1, data2];
}

/** Unique names of everything a test writes, as settings. */
export function uniqueStorageSettings(): Record<string, string> {
  return {
    EMPLOYEES_TABLE: uniqueTableName('Emp'),
    ARCHIVE_TABLE: uniqueTableName('Arc'),
    EMPLOYEE_INDEX_TABLE: uniqueTableName('Idx'),
    EXPENSES_TABLE: uniqueTableName('Exp'),
    MESSAGE_STATS_TABLE: uniqueTableName('Sta'),
    ACCESS_LOG_TABLE: uniqueTableName('Acc'),
    OPERATIONS_TABLE: uniqueTableName('Ops'),
    PLACEMENTS_TABLE: uniqueTableName('Pla'),
    LOGIN_TABLE_PREFIX: uniqueTableName('Lg'),
    ARCHIVE_QUEUE: uniqueName('arc'),
    INDEX_QUEUE: uniqueName('idx'),
    LOG_QUEUE: uniqueName('log'),
    LASTNAME_INDEX_CONTAINER: uniqueName('ln'),
    PHOTOS_CONTAINER: uniqueName('ph'),
    LOGS_CONTAINER: uniqueName('lg'),
  };
}

/** The settings of a spread deployment: home plus `DATA1`, `DATA2` on the data emulators. */
export function spreadSettings(extra: Record<string, string> = {}): Record<string, string> {
  const [data1, data2] = dataConnectionStrings();
  return {
    AzureWebJobsStorage: azuriteConnectionString(),
    DATA_ACCOUNTS: 'DATA1,DATA2',
    DATA1: data1,
    DATA2: data2,
    ...uniqueStorageSettings(),
    ...extra,
  };
}

/** A configuration over `settings` (the process's other settings, e.g. fast retries, kept). */
export function spreadConfig(settings: Record<string, string>): Config {
  return loadConfig({ ...process.env, ...settings });
}

/** Clients of the three accounts: home, DATA1, DATA2. */
export function accountClients(): {
  home: StorageClients;
  data1: StorageClients;
  data2: StorageClients;
} {
  const [data1, data2] = dataConnectionStrings();
  return { home: testClients(), data1: testClients(data1), data2: testClients(data2) };
}

/** Removes what a test created under `settings`' names from every account. */
export async function removeEverywhere(settings: Record<string, string>): Promise<void> {
  const config = spreadConfig(settings);
  const all = Object.values(accountClients());
  const tables = Object.values(config.tables).filter(
    (name) => name !== config.tables.loginAttemptsPrefix,
  );
  await Promise.allSettled(
    all.flatMap((clients) => [
      ...tables.map((name) => clients.table(name).deleteTable()),
      ...Object.values(config.queues).flatMap((name) => [
        clients.queue(name).deleteIfExists(),
        clients.queue(`${name}-poison`).deleteIfExists(),
      ]),
      ...Object.values(config.containers).map((name) => clients.container(name).deleteIfExists()),
    ]),
  );
  // Login day tables: every table of the unique prefix.
  await Promise.allSettled(
    all.map(async (clients) => {
      for await (const table of clients.tableService().listTables()) {
        if (table.name?.startsWith(config.tables.loginAttemptsPrefix)) {
          await clients.tableService().deleteTable(table.name);
        }
      }
    }),
  );
}

/** The other one of the two data accounts the tests spread over. */
export function otherDataAccount(account: string): string {
  return account === 'DATA1' ? 'DATA2' : 'DATA1';
}

/** Employee number `n` of the accounts tests (`Last<n>` unless another last name is given). */
export function spreadPerson(
  n: number,
  lastName = `Last${n}`,
): { employeeId: string; firstName: string; lastName: string; email: string } {
  return {
    employeeId: String(n).padStart(6, '0'),
    firstName: `First${n}`,
    lastName,
    email: `u${n}@contoso.com`,
  };
}

/**
 * The set-up most accounts tests share: a spread deployment over `extra` settings, its services
 * built once for the test file, and what it made under its names removed after the file's tests.
 */
export function spreadDeployment(extra: Record<string, string> = {}): {
  settings: Record<string, string>;
  config: Config;
  services: Services;
} {
  const settings = spreadSettings(extra);
  const config = spreadConfig(settings);
  const services = createServices(() => config);
  afterAll(() => removeEverywhere(settings));
  return { settings, config, services };
}
