/**
 * The one place that creates storage clients: every client of an account gets the same retry
 * budget through its SDK's own policy (the Tables SDK's exponential `retryOptions`, Blob and
 * Queue `StorageRetryPolicyType.EXPONENTIAL`), each try bounded by a client-side deadline
 * (./tryTimeout.ts, why there), and `ServerBusy` answers counted (./throttleCounts.ts).
 */
import {
  AzureNamedKeyCredential,
  TableClient,
  TableServiceClient,
  type TableServiceClientOptions,
} from '@azure/data-tables';
import { DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import {
  BlobServiceClient,
  StorageRetryPolicyType,
  StorageSharedKeyCredential,
  type ContainerClient,
  type StoragePipelineOptions,
} from '@azure/storage-blob';
import {
  QueueServiceClient,
  StorageRetryPolicyType as QueueRetryPolicyType,
  StorageSharedKeyCredential as QueueSharedKeyCredential,
  type QueueClient,
  type StoragePipelineOptions as QueuePipelineOptions,
} from '@azure/storage-queue';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import type { Config, StorageConnection } from '../config';
import { missingEndpoint, missingSharedKey } from './storageErrors';
import {
  BlobServiceWithTryTimeout,
  QueueServiceWithTryTimeout,
  tryTimeoutPolicy,
} from './tryTimeout';
import { throttleCountingPolicy, type ThrottleSink } from './throttleCounts';

export { tryTimeoutPolicy } from './tryTimeout';

/** The account name and key parsed from a connection string, when it carries one. */
export interface SharedKey {
  accountName: string;
  accountKey: string;
}

/** Clients for one storage account, created with one retry configuration. */
export interface StorageClients {
  /** A client for one table (the table is not created). */
  table(tableName: string): TableClient;
  tableService(): TableServiceClient;
  /** A client for one queue (the queue is not created). */
  queue(queueName: string): QueueClient;
  queueService(): QueueServiceClient;
  /** A client for one blob container (the container is not created). */
  container(containerName: string): ContainerClient;
  blobService(): BlobServiceClient;
  /** The shared key of a connection-string account (Azurite or a key-based account), if any. */
  readonly sharedKey?: SharedKey;
  /** True when the endpoints are on this machine (Azurite), where plain HTTP is allowed. */
  readonly isLoopback: boolean;
}

const DEV_ACCOUNT = 'devstoreaccount1';
const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const DEV_CONNECTION_STRING =
  `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};` +
  `BlobEndpoint=http://127.0.0.1:10000/${DEV_ACCOUNT};` +
  `QueueEndpoint=http://127.0.0.1:10001/${DEV_ACCOUNT};` +
  `TableEndpoint=http://127.0.0.1:10002/${DEV_ACCOUNT};`;

/** Expands `UseDevelopmentStorage=true` to the emulator's full connection string. */
export function expandConnectionString(connectionString: string): string {
  return /^\s*UseDevelopmentStorage\s*=\s*true\s*;?\s*$/i.test(connectionString)
    ? DEV_CONNECTION_STRING
    : connectionString;
}

/** Parses `Key=Value;` pairs of a storage connection string (keys case-insensitive). */
export function parseConnectionString(connectionString: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const part of expandConnectionString(connectionString).split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    pairs.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return pairs;
}

/** The storage account's name: the connection string's, or the first label of the table host. */
function accountNameOf(connection: StorageConnection): string | undefined {
  if (connection.kind === 'connectionString') {
    return parseConnectionString(connection.connectionString).get('accountname');
  }
  try {
    return new URL(connection.tableServiceUri).hostname.split('.')[0];
  } catch {
    return undefined;
  }
}

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/**
 * Creates the clients of one storage account.
 *
 * @param connection - a connection string, or service URIs for managed identity.
 * @param retry - the retry budget shared by every client.
 * @param credential - overrides `DefaultAzureCredential` for identity-based connections (tests).
 * @param throttles - told of every try storage answers `ServerBusy` (storage/throttleCounts.ts).
 * @throws {Error} when a connection string names no table, queue or blob endpoint.
 */
export function createStorageClients(
  connection: StorageConnection,
  retry: Config['retry'],
  credential?: TokenCredential,
  throttles?: ThrottleSink,
): StorageClients {
  const account = accountNameOf(connection);
  const options = clientOptions(retry, (service) =>
    throttles && account ? [throttleCountingPolicy(service, account, throttles)] : [],
  );
  const connected =
    connection.kind === 'connectionString'
      ? connectWithKey(connection.connectionString, options)
      : connectWithIdentity(
          connection,
          options,
          credential ??
            new DefaultAzureCredential({ managedIdentityClientId: connection.clientId }),
        );
  return clientsOf(connected, options);
}

/** What each SDK's clients are created with: one retry budget, each try bounded, busy counted. */
interface ClientOptions {
  table: TableServiceClientOptions;
  blob: StoragePipelineOptions;
  queue: QueuePipelineOptions;
  tryTimeoutMs: number;
  /** The policies that count `ServerBusy` answers of a service (none without a sink). */
  counting: (service: 'table' | 'queue' | 'blob') => PipelinePolicy[];
}

/** The services of an account and how its tables are reached, as its connection gives them. */
interface Connected {
  sharedKey?: SharedKey;
  tableEndpoint: string;
  tableCredential: AzureNamedKeyCredential | TokenCredential;
  blobService: BlobServiceClient;
  queueService: QueueServiceClient;
}

/** The three SDKs' options for one retry budget. */
function clientOptions(retry: Config['retry'], counting: ClientOptions['counting']): ClientOptions {
  // Blob and Queue ship separate (identical) policy types; each client gets its own SDK's.
  const storageRetry = {
    maxTries: retry.maxRetries + 1,
    retryDelayInMs: retry.retryDelayMs,
    maxRetryDelayInMs: retry.maxRetryDelayMs,
    // Only the service-side `timeout` (whole seconds; 0 would be invalid). The client-side
    // deadline is tryTimeoutPolicy's.
    tryTimeoutInMs: Math.max(1_000, retry.tryTimeoutMs),
  };
  return {
    table: {
      retryOptions: {
        maxRetries: retry.maxRetries,
        retryDelayInMs: retry.retryDelayMs,
        maxRetryDelayInMs: retry.maxRetryDelayMs,
      },
      additionalPolicies: [
        { policy: tryTimeoutPolicy(retry.tryTimeoutMs), position: 'perRetry' },
        ...counting('table').map((policy) => ({ policy, position: 'perRetry' as const })),
      ],
    },
    blob: {
      retryOptions: { ...storageRetry, retryPolicyType: StorageRetryPolicyType.EXPONENTIAL },
    },
    queue: {
      retryOptions: { ...storageRetry, retryPolicyType: QueueRetryPolicyType.EXPONENTIAL },
    },
    tryTimeoutMs: retry.tryTimeoutMs,
    counting,
  };
}

/**
 * An account reached with the shared key of its connection string (Azurite, key-based accounts);
 * endpoints the string does not name are the account's default ones.
 *
 * @throws {Error} when the string carries no account name or key, or names no endpoint.
 */
function connectWithKey(connectionString: string, options: ClientOptions): Connected {
  const parts = parseConnectionString(connectionString);
  const accountName = parts.get('accountname');
  const accountKey = parts.get('accountkey');
  const protocol = parts.get('defaultendpointsprotocol') ?? 'https';
  const suffix = parts.get('endpointsuffix') ?? 'core.windows.net';
  const endpoint = (service: 'table' | 'queue' | 'blob'): string => {
    const explicit = parts.get(`${service}endpoint`);
    if (explicit) return explicit.replace(/\/+$/, '');
    if (!accountName) {
      throw missingEndpoint(service);
    }
    return `${protocol}://${accountName}.${service}.${suffix}`;
  };
  if (!accountName || !accountKey) {
    throw missingSharedKey();
  }
  return {
    sharedKey: { accountName, accountKey },
    tableEndpoint: endpoint('table'),
    tableCredential: new AzureNamedKeyCredential(accountName, accountKey),
    ...services(
      options,
      [endpoint('blob'), new StorageSharedKeyCredential(accountName, accountKey)],
      [endpoint('queue'), new QueueSharedKeyCredential(accountName, accountKey)],
    ),
  };
}

/** An account reached with a token credential (managed identity) at its service URIs. */
function connectWithIdentity(
  connection: Exclude<StorageConnection, { kind: 'connectionString' }>,
  options: ClientOptions,
  tokenCredential: TokenCredential,
): Connected {
  return {
    tableEndpoint: connection.tableServiceUri.replace(/\/+$/, ''),
    tableCredential: tokenCredential,
    ...services(
      options,
      [connection.blobServiceUri, tokenCredential],
      [connection.queueServiceUri, tokenCredential],
    ),
  };
}

/** The Blob and Queue service clients at their URLs, each try bounded. */
function services(
  options: ClientOptions,
  [blobUrl, blobCredential]: [string, StorageSharedKeyCredential | TokenCredential],
  [queueUrl, queueCredential]: [string, QueueSharedKeyCredential | TokenCredential],
): Pick<Connected, 'blobService' | 'queueService'> {
  const { tryTimeoutMs, counting } = options;
  return {
    blobService: new BlobServiceWithTryTimeout(
      blobUrl,
      blobCredential,
      options.blob,
      tryTimeoutMs,
      counting('blob'),
    ),
    queueService: new QueueServiceWithTryTimeout(
      queueUrl,
      queueCredential,
      options.queue,
      tryTimeoutMs,
      counting('queue'),
    ),
  };
}

/** The account's clients: table clients made once per table, the services as connected. */
function clientsOf(connected: Connected, options: ClientOptions): StorageClients {
  const { tableEndpoint, tableCredential, blobService, queueService } = connected;
  const isLoopback = isLoopbackUrl(tableEndpoint);
  const tableClientOptions = { ...options.table, allowInsecureConnection: isLoopback };
  const tables = new Map<string, TableClient>();
  let tableService: TableServiceClient | undefined;

  return {
    sharedKey: connected.sharedKey,
    isLoopback,
    table(tableName) {
      let client = tables.get(tableName);
      if (!client) {
        client =
          tableCredential instanceof AzureNamedKeyCredential
            ? new TableClient(tableEndpoint, tableName, tableCredential, tableClientOptions)
            : new TableClient(tableEndpoint, tableName, tableCredential, tableClientOptions);
        tables.set(tableName, client);
      }
      return client;
    },
    tableService() {
      tableService ??=
        tableCredential instanceof AzureNamedKeyCredential
          ? new TableServiceClient(tableEndpoint, tableCredential, tableClientOptions)
          : new TableServiceClient(tableEndpoint, tableCredential, tableClientOptions);
      return tableService;
    },
    queue: (queueName) => queueService.getQueueClient(queueName),
    queueService: () => queueService,
    container: (containerName) => blobService.getContainerClient(containerName),
    blobService: () => blobService,
  };
}
