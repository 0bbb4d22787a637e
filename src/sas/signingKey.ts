/**
 * Where the account key that signs table SAS (and service blob SAS) comes from.
 *
 * Table storage has no user delegation SAS, so a table SAS can only be signed with an account
 * key: the one in the storage connection string, or `STORAGE_ACCOUNT_KEY` (in Azure a Key Vault
 * reference) beside a managed-identity connection that the app itself uses for data access. The
 * key is held in memory only; it is never logged nor returned.
 */
import type { Config } from '../config';
import { NotConfiguredError } from '../errors';
import { createStorageClients, type SharedKey, type StorageClients } from '../storage/clients';

/** An account key and clients authorised with it (stored access policies need Shared Key). */
export interface KeyedStorage {
  key: SharedKey;
  clients: StorageClients;
}

/**
 * The account key for signing, with clients that use it; `undefined` when none is configured.
 *
 * @param clients - the app's clients; reused when they already carry a key.
 * @param config - `sas.accountKey`/`sas.accountName` (and the retry budget for new clients).
 * @throws {NotConfiguredError} when a key is configured but no account name can be found.
 */
export function resolveKeyedStorage(
  clients: StorageClients,
  config: Pick<Config, 'sas' | 'retry'>,
): KeyedStorage | undefined {
  if (clients.sharedKey) return { key: clients.sharedKey, clients };
  const accountKey = config.sas.accountKey;
  if (!accountKey) return undefined;

  const blobService = clients.blobService();
  const accountName = config.sas.accountName ?? blobService.accountName;
  if (!accountName) {
    throw new NotConfiguredError(
      'STORAGE_ACCOUNT_KEY is set but the account name is unknown: set STORAGE_ACCOUNT_NAME.',
    );
  }
  // Same endpoints as the app's own clients, authorised with the key instead of the identity.
  const connectionString =
    `AccountName=${accountName};AccountKey=${accountKey};` +
    `TableEndpoint=${clients.tableService().url};` +
    `BlobEndpoint=${blobService.url};` +
    `QueueEndpoint=${clients.queueService().url};`;
  return {
    key: { accountName, accountKey },
    clients: createStorageClients({ kind: 'connectionString', connectionString }, config.retry),
  };
}

/**
 * Like {@link resolveKeyedStorage}, for features that cannot work without a key.
 *
 * @throws {NotConfiguredError} when no account key is configured.
 */
export function requireKeyedStorage(
  clients: StorageClients,
  config: Pick<Config, 'sas' | 'retry'>,
  feature: string,
): KeyedStorage {
  const keyed = resolveKeyedStorage(clients, config);
  if (!keyed) {
    throw new NotConfiguredError(
      `${feature} needs the storage account key (Table storage has no user delegation SAS): ` +
        'set STORAGE_ACCOUNT_KEY (a Key Vault reference in Azure) and STORAGE_ACCOUNT_NAME.',
      'SasKeyNotConfigured',
    );
  }
  return keyed;
}
