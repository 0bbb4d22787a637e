/**
 * Where the account key that signs table SAS comes from, and how this process signs: the
 * {@link SasSigning} the composition root builds once and hands to both SAS issuance and the photo
 * feature.
 *
 * Table user delegation SAS is only a REST-only public preview without stored access policies
 * (docs/deploy.md "The storage key"), so a table SAS is signed with an account key: the one in
 * the storage connection string, or `STORAGE_ACCOUNT_KEY` (in Azure a Key Vault reference) beside
 * a managed-identity connection. Blob SAS follow Microsoft's advice: user delegation whenever the
 * app reaches storage with its identity, even with a key configured; a service SAS signed with the
 * key only where the app itself connects with one (a connection string, Azurite). The key is held
 * in memory only; it is never logged nor returned.
 */
import type { Config, StorageConnection } from '../config';
import { sasAccountNameUnknown, sasKeyNotConfigured } from './sasErrors';
import { accountKeySigner, userDelegationSigner, type BlobSasSigner } from '../storage/blobSas';
import type { SharedKey, StorageClients } from '../storage/clients';

/** An account key and clients authorised with it (stored access policies need Shared Key). */
export interface KeyedStorage {
  key: SharedKey;
  clients: StorageClients;
}

/**
 * Builds the clients of a connection: the composition root's client factory, so this module
 * never builds a client set of its own.
 */
export type ConnectStorage = (connection: StorageConnection) => StorageClients;

/**
 * The settings signing reads, each when it is first needed: a data account's key is read only by
 * its key-signed SAS, so an unusable key (an unresolved Key Vault reference) fails those alone.
 */
export interface SigningConfig {
  sas: Pick<Config['sas'], 'accountKey' | 'accountName' | 'maxMinutes'>;
}

/**
 * The account key for signing, with clients that use it; `undefined` when none is configured.
 *
 * @param clients - the app's clients; reused when they already carry a key.
 * @param config - `sas.accountKey`/`sas.accountName`.
 * @param connect - builds the keyed clients when the app's own clients use an identity.
 * @throws {NotConfiguredError} when a key is configured but no account name can be found.
 */
function resolveKeyedStorage(
  clients: StorageClients,
  config: SigningConfig,
  connect: ConnectStorage,
): KeyedStorage | undefined {
  if (clients.sharedKey) return { key: clients.sharedKey, clients };
  const accountKey = config.sas.accountKey;
  if (!accountKey) return undefined;

  const blobService = clients.blobService();
  const accountName = config.sas.accountName ?? blobService.accountName;
  if (!accountName) {
    throw sasAccountNameUnknown();
  }
  // Same endpoints as the app's own clients, authorised with the key instead of the identity.
  const connectionString =
    `AccountName=${accountName};AccountKey=${accountKey};` +
    `TableEndpoint=${clients.tableService().url};` +
    `BlobEndpoint=${blobService.url};` +
    `QueueEndpoint=${clients.queueService().url};`;
  return {
    key: { accountName, accountKey },
    clients: connect({ kind: 'connectionString', connectionString }),
  };
}

/**
 * `keyed` itself, for features that cannot work without a key.
 *
 * @throws {NotConfiguredError} `SasKeyNotConfigured` when no account key is configured.
 */
export function requireKeyedStorage(
  keyed: KeyedStorage | undefined,
  feature: string,
): KeyedStorage {
  if (!keyed) {
    throw sasKeyNotConfigured(feature);
  }
  return keyed;
}

/** How this process signs SAS; each part is resolved on first use and then kept. */
export interface SasSigning {
  /**
   * The account key and the clients that use it; `undefined` when none is configured.
   *
   * @throws {NotConfiguredError} when a key is configured but no account name can be found.
   */
  keyed(): KeyedStorage | undefined;
  /**
   * The one blob signer: user delegation when the app's clients use an identity, a service SAS
   * signed with the key when they carry one.
   *
   * @throws {NotConfiguredError} as {@link SasSigning.keyed}.
   */
  blobSigner(): BlobSasSigner;
}

/**
 * The signing of one process (built once, by the composition root).
 *
 * @param options.clients - the app's clients.
 * @param options.config - `sas.*` (key, account name, token lifetime cap).
 * @param options.connect - builds keyed clients (see {@link ConnectStorage}).
 * @param options.now - clock of the user delegation key cache (tests).
 */
export function createSasSigning(options: {
  clients: StorageClients;
  config: SigningConfig;
  connect: ConnectStorage;
  now?: () => Date;
}): SasSigning {
  const { clients, config, connect } = options;
  // A resolution that throws is not kept: the error answers every call (501), as the setting does.
  let keyed: { value: KeyedStorage | undefined } | undefined;
  let signer: BlobSasSigner | undefined;
  const resolveKeyed = (): KeyedStorage | undefined =>
    (keyed ??= { value: resolveKeyedStorage(clients, config, connect) }).value;
  return {
    keyed: resolveKeyed,
    blobSigner() {
      if (!signer) {
        const blobService = clients.blobService();
        signer = clients.sharedKey
          ? accountKeySigner(clients.sharedKey)
          : userDelegationSigner(
              blobService,
              config.sas.accountName ?? blobService.accountName,
              // The longest token SAS issuance signs, plus a minute of slack.
              config.sas.maxMinutes * 60_000 + 60_000,
              options.now,
            );
      }
      return signer;
    },
  };
}
