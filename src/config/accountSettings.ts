/**
 * The storage accounts the app spreads data over (docs/accounts.md), read from the settings the
 * Functions host itself uses for connections (pure: the environment is src/config/index.ts's
 * business):
 *
 * - `AzureWebJobsStorage` is the home account (the host's queues and triggers, the Durable task
 *   hub, the placement table);
 * - `DATA_ACCOUNTS` names further connections, comma-separated (`DATA1,DATA2`); each is resolved as
 *   the host resolves a connection: a connection string in `DATA1`, or identity-based
 *   `DATA1__accountName` / `DATA1__tableServiceUri` / `__blobServiceUri` / `__queueServiceUri`
 *   (+ `DATA1__credential`, `DATA1__clientId`);
 * - `ACCOUNT_WEIGHTS` (`home=0,DATA1=2,DATA2=1`) weighs the accounts in placement.
 * Glossary: "home account" (docs/glossary.md).
 */
import { dataConnectionMissing, malformedSetting, storageConnectionMissing } from './settingErrors';
import { readInt, readOptional, type Env, type StorageConnection } from './readSetting';
import type { Field } from './unreadableSettings';

/** The name the home account (`AzureWebJobsStorage`) goes by. */
export const HOME_ACCOUNT = 'home';

/** One further account of `DATA_ACCOUNTS`. */
export interface DataAccountSetting {
  /** The connection name (`DATA1`), which is also the account's name in the API. */
  name: string;
  connection: StorageConnection;
  /**
   * Account key that signs table SAS for an identity-based connection (`<NAME>__accountKey`, in
   * Azure a Key Vault reference), as `STORAGE_ACCOUNT_KEY` does for the home account. Read on its
   * own: while it is unusable (an unresolved reference), reading it throws and only this account's
   * key-signed SAS are off.
   */
  accountKey?: string;
}

/** The accounts and how placement weighs them. */
export interface AccountSettings {
  /** The accounts of `DATA_ACCOUNTS`, in its order; empty when unset. */
  data: readonly DataAccountSetting[];
  /** Placement weight of every account by name (`home` included); 0 takes no new keys. */
  weights: Readonly<Record<string, number>>;
  /** How long a process trusts a department's placement it read (stable or being copied). */
  placementCacheMs: number;
  /** Rows one relocation activity copies (or deletes) at most. */
  relocationChunkRows: number;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/** The public cloud's storage DNS suffix: the default of `STORAGE_ENDPOINT_SUFFIX`. */
export const PUBLIC_CLOUD_STORAGE_SUFFIX = 'core.windows.net';

/**
 * `STORAGE_ENDPOINT_SUFFIX`: the DNS suffix of the service URIs built from `<name>__accountName`
 * (`core.usgovcloudapi.net`, `core.chinacloudapi.cn`...; infra sets the cloud's own,
 * `environment().suffixes.storage`), the public cloud's when unset.
 *
 * @throws {ConfigError} when it is not a DNS suffix (e.g. has a scheme, a dot first or a path).
 */
function readStorageEndpointSuffix(env: Env): string {
  const suffix = readOptional(env, 'STORAGE_ENDPOINT_SUFFIX') ?? PUBLIC_CLOUD_STORAGE_SUFFIX;
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i.test(suffix)) {
    throw malformedSetting(
      'STORAGE_ENDPOINT_SUFFIX',
      'a DNS suffix (labels of letters, digits and hyphens, joined by dots)',
      `"${suffix}"`,
    );
  }
  return suffix;
}

/**
 * Resolves a connection as the Functions host does: a connection string in `name`, else the
 * identity-based `name__accountName` or `name__<service>ServiceUri` settings (URIs built from the
 * account name end in `STORAGE_ENDPOINT_SUFFIX`, where the host would assume the public cloud).
 *
 * @param needsQueue - false for data accounts, whose queues the app never uses (their URI is then
 *   derived from the account name or the table URI when not given).
 * @throws {ConfigError} when neither form is complete, `__credential` is not `managedidentity`, or
 *   `STORAGE_ENDPOINT_SUFFIX` is malformed while a URI is built from `__accountName`.
 */
export function readConnection(env: Env, name: string, needsQueue = true): StorageConnection {
  const connectionString = readOptional(env, name);
  if (connectionString !== undefined) return { kind: 'connectionString', connectionString };

  const accountName = readOptional(env, `${name}__accountName`);
  const uri = (service: 'table' | 'queue' | 'blob'): string | undefined =>
    readOptional(env, `${name}__${service}ServiceUri`) ??
    (accountName
      ? `https://${accountName}.${service}.${readStorageEndpointSuffix(env)}`
      : undefined);
  const tableServiceUri = uri('table');
  const blobServiceUri = uri('blob');
  const queueServiceUri =
    uri('queue') ?? (needsQueue ? undefined : tableServiceUri?.replace('.table.', '.queue.'));
  if (!tableServiceUri || !queueServiceUri || !blobServiceUri) {
    if (name === 'AzureWebJobsStorage') throw storageConnectionMissing();
    throw dataConnectionMissing(name);
  }
  const credential = readOptional(env, `${name}__credential`);
  if (credential !== undefined && credential.toLowerCase() !== 'managedidentity') {
    throw malformedSetting(`${name}__credential`, '"managedidentity"', `"${credential}"`);
  }
  return {
    kind: 'identity',
    accountName,
    tableServiceUri,
    queueServiceUri,
    blobServiceUri,
    clientId: readOptional(env, `${name}__clientId`),
  };
}

/**
 * The names in `DATA_ACCOUNTS`, checked: letters, digits and `_`, starting with a letter, none
 * twice, none `home` nor `AzureWebJobsStorage`.
 *
 * @throws {ConfigError} for a malformed list.
 */
function readDataAccountNames(env: Env): string[] {
  const raw = readOptional(env, 'DATA_ACCOUNTS');
  if (raw === undefined) return [];
  const names = raw.split(',').map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (
      !NAME.test(name) ||
      key === HOME_ACCOUNT ||
      key === 'azurewebjobsstorage' ||
      seen.has(key)
    ) {
      throw malformedSetting(
        'DATA_ACCOUNTS',
        'a comma-separated list of distinct connection names (letters, digits, _; not "home")',
        `"${raw}"`,
      );
    }
    seen.add(key);
  }
  return names;
}

/**
 * `ACCOUNT_WEIGHTS` over the configured accounts: `name=weight` pairs (whole numbers 0–1000); an
 * account not named keeps its default — 1 for every data account, and for `home` 1 when it is the
 * only account, else 0 (new departments go to the data accounts; `home` keeps the ones it holds).
 *
 * @throws {ConfigError} for a malformed list, an unknown name, or weights that are all 0.
 */
function readAccountWeights(env: Env, dataNames: readonly string[]): Record<string, number> {
  const weights: Record<string, number> = { [HOME_ACCOUNT]: dataNames.length === 0 ? 1 : 0 };
  for (const name of dataNames) weights[name] = 1;
  const raw = readOptional(env, 'ACCOUNT_WEIGHTS');
  if (raw !== undefined) {
    for (const pair of raw.split(',')) {
      const match = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*=\s*(\d{1,4})\s*$/.exec(pair);
      const name = match ? Object.keys(weights).find((n) => n === match[1]) : undefined;
      if (!match || name === undefined || Number(match[2]) > 1000) {
        throw malformedSetting(
          'ACCOUNT_WEIGHTS',
          `name=weight pairs (0–1000) over the accounts ${Object.keys(weights).join(', ')}`,
          `"${raw}"`,
        );
      }
      weights[name] = Number(match[2]);
    }
  }
  if (Object.values(weights).every((weight) => weight === 0)) {
    throw malformedSetting('ACCOUNT_WEIGHTS', 'weights with at least one above 0', `"${raw}"`);
  }
  return weights;
}

/**
 * The accounts beyond home and their weights.
 *
 * @param field - how each account key is read: a key serves only its account's key-signed SAS, so
 *   src/config/index.ts reads it as a field of its own, and an unresolved one leaves the routing
 *   of every account (and that account's identity access) usable. By default it is read at once.
 * @throws {ConfigError} for the first malformed or missing setting (an account key's only through
 *   the default `field`).
 */
export function readAccountSettings(env: Env, field: Field = (read) => read()): AccountSettings {
  const names = readDataAccountNames(env);
  return {
    data: names.map((connection) => ({
      name: connection,
      connection: readConnection(env, connection, false),
      accountKey: field(() => readOptional(env, `${connection}__accountKey`)),
    })),
    weights: readAccountWeights(env, names),
    placementCacheMs: readInt(env, 'PLACEMENT_CACHE_SECONDS', 5, 1, 300) * 1000,
    relocationChunkRows: readInt(env, 'RELOCATION_CHUNK_ROWS', 1000, 10, 1000),
  };
}
