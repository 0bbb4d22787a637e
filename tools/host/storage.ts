/**
 * Storage clients for the connections that bindings name, resolved as the Functions host does,
 * by the host itself: a binding's `connection` is the name of a setting (default
 * `AzureWebJobsStorage`) holding a connection string, or the prefix of identity settings
 * (`<name>__accountName`, `<name>__queueServiceUri`, ...). The host reads none of the app's other
 * settings, so a malformed one of those never breaks a trigger; only the storage retry budget is
 * taken from the settings the app's clients use too (storageRetry below).
 */
import { parseConnectionString } from './connectionString';
import {
  createHostStorage,
  identityCredential,
  type HostEndpoints,
  type HostRetry,
  type HostStorage,
} from './storageClients';

export type { HostStorage } from './storageClients';

/** The app setting that names the storage connection when a binding names none. */
export const DEFAULT_CONNECTION = 'AzureWebJobsStorage';

type Env = Record<string, string | undefined>;
type Service = 'table' | 'queue' | 'blob';

/** The named connection has no usable settings. */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** A setting's trimmed value; blank counts as absent. */
function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The retry budget of the host's clients: the `STORAGE_*` settings the app's clients read (tests
 * and fault runs shorten the delays for both alike), each at its default when absent or malformed.
 */
function storageRetry(env: Env): HostRetry {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = setting(env, name);
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    return value >= min && value <= max ? value : fallback;
  };
  return {
    maxRetries: int('STORAGE_MAX_RETRIES', 5, 0, 20),
    retryDelayMs: int('STORAGE_RETRY_DELAY_MS', 200, 1, 60_000),
    maxRetryDelayMs: int('STORAGE_MAX_RETRY_DELAY_MS', 8_000, 1, 600_000),
    tryTimeoutMs: int('STORAGE_TRY_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

/**
 * The endpoints of a connection string: explicit `<Service>Endpoint`s, else built from the
 * account name, protocol and suffix.
 *
 * @throws {ConnectionError} without AccountName and AccountKey.
 */
function fromConnectionString(name: string, connectionString: string): HostEndpoints {
  const parts = parseConnectionString(connectionString);
  const accountName = parts.get('accountname');
  const accountKey = parts.get('accountkey');
  if (!accountName || !accountKey) {
    throw new ConnectionError(
      `Storage connection '${name}': the connection string needs AccountName and AccountKey.`,
    );
  }
  const protocol = parts.get('defaultendpointsprotocol') ?? 'https';
  const suffix = parts.get('endpointsuffix') ?? 'core.windows.net';
  const endpoint = (service: Service): string =>
    parts.get(`${service}endpoint`)?.replace(/\/+$/, '') ??
    `${protocol}://${accountName}.${service}.${suffix}`;
  return {
    table: endpoint('table'),
    queue: endpoint('queue'),
    blob: endpoint('blob'),
    credential: { accountName, accountKey },
  };
}

/**
 * The endpoints of an identity-based connection: `<name>__<service>ServiceUri`, else the public
 * cloud's URI of `<name>__accountName` (as the Functions host builds it).
 *
 * @throws {ConnectionError} when a service has neither, or `__credential` is not managedidentity.
 */
function fromIdentitySettings(env: Env, name: string): HostEndpoints {
  const accountName = setting(env, `${name}__accountName`);
  const uri = (service: Service): string | undefined =>
    setting(env, `${name}__${service}ServiceUri`) ??
    (accountName ? `https://${accountName}.${service}.core.windows.net` : undefined);
  const [table, queue, blob] = [uri('table'), uri('queue'), uri('blob')];
  if (!table || !queue || !blob) {
    throw new ConnectionError(
      `Storage connection '${name}' is not configured: set ${name} to a connection string, or ${name}__accountName (or ${name}__queueServiceUri, __blobServiceUri and __tableServiceUri) for managed identity.`,
    );
  }
  const kind = setting(env, `${name}__credential`);
  if (kind !== undefined && kind.toLowerCase() !== 'managedidentity') {
    throw new ConnectionError(
      `Storage connection '${name}': ${name}__credential must be "managedidentity", got "${kind}".`,
    );
  }
  const credential = identityCredential(setting(env, `${name}__clientId`));
  return { table: table.replace(/\/+$/, ''), queue, blob, credential };
}

/** Resolves the storage clients of a binding's connection setting (one set per connection). */
export class ConnectionResolver {
  readonly #clients = new Map<string, HostStorage>();

  constructor(private readonly env: Env) {}

  /**
   * Clients for a named connection (created once per name).
   *
   * @throws {ConnectionError} when the connection's settings are missing or malformed.
   */
  clients(connectionName: string = DEFAULT_CONNECTION): HostStorage {
    const name = connectionName.trim() === '' ? DEFAULT_CONNECTION : connectionName;
    let clients = this.#clients.get(name);
    if (clients) return clients;
    const connectionString = setting(this.env, name);
    const endpoints =
      connectionString === undefined
        ? fromIdentitySettings(this.env, name)
        : fromConnectionString(name, connectionString);
    clients = createHostStorage(endpoints, storageRetry(this.env));
    this.#clients.set(name, clients);
    return clients;
  }
}
