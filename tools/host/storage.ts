/**
 * Storage clients for the connections that bindings name. A binding's `connection` is the name
 * of a setting (default `AzureWebJobsStorage`) holding a connection string, or the prefix of
 * identity settings (`<name>__accountName`, `<name>__queueServiceUri`, ...). Clients come from
 * the project's factory, so the host retries exactly as the app does.
 */
import { readConfig, settingOrDefault } from '../../src/config';
import { SettingUnavailableError } from '../../src/domainErrors';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';

/** The app setting that names the storage connection when a binding names none. */
export const DEFAULT_CONNECTION = 'AzureWebJobsStorage';

const IDENTITY_SUFFIXES = [
  'accountName',
  'tableServiceUri',
  'queueServiceUri',
  'blobServiceUri',
  'clientId',
];

/** The named connection has no usable settings. */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** Resolves the storage clients of a binding's connection setting (one set per connection). */
export class ConnectionResolver {
  readonly #clients = new Map<string, StorageClients>();

  constructor(private readonly env: Record<string, string | undefined>) {}

  /**
   * Clients for a named connection (created once per name).
   *
   * @throws {ConnectionError} when the connection's settings are missing or malformed.
   */
  clients(connectionName: string = DEFAULT_CONNECTION): StorageClients {
    const name = connectionName.trim() === '' ? DEFAULT_CONNECTION : connectionName;
    let clients = this.#clients.get(name);
    if (clients) return clients;

    // Present the named connection to the app's config reader as if it were AzureWebJobsStorage.
    const mapped: Record<string, string | undefined> = {
      ...this.env,
      [DEFAULT_CONNECTION]: this.env[name] ?? '',
    };
    for (const suffix of IDENTITY_SUFFIXES) {
      mapped[`${DEFAULT_CONNECTION}__${suffix}`] = this.env[`${name}__${suffix}`] ?? '';
    }
    try {
      // Only the connection (and the retry budget) matter here: in Azure the host reads none of
      // the app's other settings, so a malformed one of those must not break the triggers.
      const { config } = readConfig(mapped);
      clients = createStorageClients(
        config.storage,
        settingOrDefault((c) => ({ ...c.retry }), config),
      );
    } catch (error) {
      if (error instanceof SettingUnavailableError && error.setting === DEFAULT_CONNECTION) {
        throw new ConnectionError(
          `Storage connection '${name}' is not configured: set ${name} to a connection string, or ${name}__accountName (or ${name}__queueServiceUri, __blobServiceUri and __tableServiceUri) for managed identity.`,
        );
      }
      throw new ConnectionError(`Storage connection '${name}': ${(error as Error).message}`);
    }
    this.#clients.set(name, clients);
    return clients;
  }
}
