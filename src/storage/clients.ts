/**
 * The one place that creates storage clients.
 *
 * Every client gets the same retry budget through its SDK's own policy: the Tables SDK uses the
 * core pipeline's exponential retry (`retryOptions`), Blob and Queue use
 * `StorageRetryPolicyType.EXPONENTIAL`. None of the three gives a try a client-side deadline that
 * is then retried: the core HTTP client's `request.timeout` aborts with an `AbortError`, which both
 * retry policies rethrow at once, and the Blob/Queue `tryTimeoutInMs` only sets the service-side
 * `timeout` parameter (a connection that never answers would hang). So one small policy runs inside
 * the retry loop of every client, abandons a try after `tryTimeoutMs` and reports it as a
 * retriable `ETIMEDOUT`; a timed-out try is then retried like any other transient fault.
 */
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from '@azure/data-tables';
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
import type { Pipeline, PipelinePolicy } from '@azure/core-rest-pipeline';
import type { Config, StorageConnection } from '../config';
import { missingEndpoint, missingSharedKey, tryTimedOut } from './storageErrors';
import { throttleCountingPolicy, type ThrottleSink } from './throttleCounts';

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
 * Gives each try its own deadline. Runs inside the SDK's retry loop (once per try): it swaps the
 * request's abort signal for one that fires after `timeoutMs` (or when the caller aborts), and
 * turns its own expiry into a `RestError` with code `ETIMEDOUT`, which every retry policy retries.
 * The caller's abort still ends the whole operation. A streamed response (blob download) is bounded
 * until its headers arrive; the caller's signal keeps covering the stream afterwards.
 */
export function tryTimeoutPolicy(timeoutMs: number): PipelinePolicy {
  return {
    name: 'tryTimeoutPolicy',
    async sendRequest(request, next) {
      const callerSignal = request.abortSignal;
      if (callerSignal?.aborted) return next(request);
      const tryAbort = new AbortController();
      const forwardCallerAbort = (): void => tryAbort.abort();
      callerSignal?.addEventListener('abort', forwardCallerAbort);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        tryAbort.abort();
      }, timeoutMs);
      request.abortSignal = tryAbort.signal;
      let streaming = false;
      try {
        const response = await next(request);
        const stream = response.readableStreamBody;
        if (stream && callerSignal) {
          streaming = true;
          stream.once('close', () => callerSignal.removeEventListener('abort', forwardCallerAbort));
        }
        return response;
      } catch (error) {
        if (timedOut && !callerSignal?.aborted) {
          throw tryTimedOut(timeoutMs, request);
        }
        throw error;
      } finally {
        clearTimeout(timer);
        if (!streaming) callerSignal?.removeEventListener('abort', forwardCallerAbort);
        request.abortSignal = callerSignal;
      }
    },
  };
}

type BlobCredential = StorageSharedKeyCredential | TokenCredential;
type BlobOptions = StoragePipelineOptions;
type QueueCredential = QueueSharedKeyCredential | TokenCredential;
type QueueOptions = QueuePipelineOptions;

/**
 * Gives every try of a storage client's pipeline a client-side deadline (after signing), and the
 * other per-try policies (throttle counting).
 */
function addTryTimeout(pipeline: Pipeline, tryTimeoutMs: number, more: PipelinePolicy[]): void {
  pipeline.addPolicy(tryTimeoutPolicy(tryTimeoutMs), { afterPhase: 'Sign' });
  for (const policy of more) pipeline.addPolicy(policy, { afterPhase: 'Sign' });
}

// The two subclasses below differ only in their base: the pipeline is protected, so only a
// subclass of each client reaches it (jscpd would count their shared lines as a copy).
// jscpd:ignore-start
/**
 * Blob service client whose every try has a client-side deadline. Containers and blobs obtained
 * from it share its pipeline, so the policy is added once, here.
 */
class BlobServiceWithTryTimeout extends BlobServiceClient {
  constructor(
    url: string,
    credential: BlobCredential,
    options: BlobOptions,
    timeoutMs: number,
    more: PipelinePolicy[] = [],
  ) {
    super(url, credential, options);
    addTryTimeout(this.storageClientContext.pipeline, timeoutMs, more);
  }
}

/** Queue service client whose every try has a client-side deadline (see above). */
class QueueServiceWithTryTimeout extends QueueServiceClient {
  constructor(
    url: string,
    credential: QueueCredential,
    options: QueueOptions,
    timeoutMs: number,
    more: PipelinePolicy[] = [],
  ) {
    super(url, credential, options);
    // storage-queue 12.32's generated layer keeps the pipeline on its `queuesClient`.
    addTryTimeout(this.storageClientContext.queuesClient.pipeline, timeoutMs, more);
  }
}
// jscpd:ignore-end

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
  const counting = (service: 'table' | 'queue' | 'blob'): PipelinePolicy[] =>
    throttles && account ? [throttleCountingPolicy(service, account, throttles)] : [];
  const tableOptions = {
    retryOptions: {
      maxRetries: retry.maxRetries,
      retryDelayInMs: retry.retryDelayMs,
      maxRetryDelayInMs: retry.maxRetryDelayMs,
    },
    additionalPolicies: [
      { policy: tryTimeoutPolicy(retry.tryTimeoutMs), position: 'perRetry' as const },
      ...counting('table').map((policy) => ({ policy, position: 'perRetry' as const })),
    ],
  };
  // Blob and Queue ship separate (identical) policy types; each client gets its own SDK's.
  const storageRetry = {
    maxTries: retry.maxRetries + 1,
    retryDelayInMs: retry.retryDelayMs,
    maxRetryDelayInMs: retry.maxRetryDelayMs,
    // Only the service-side `timeout` (whole seconds; 0 would be invalid). The client-side
    // deadline is tryTimeoutPolicy's.
    tryTimeoutInMs: Math.max(1_000, retry.tryTimeoutMs),
  };
  const blobOptions: StoragePipelineOptions = {
    retryOptions: { ...storageRetry, retryPolicyType: StorageRetryPolicyType.EXPONENTIAL },
  };
  const queueOptions: QueuePipelineOptions = {
    retryOptions: { ...storageRetry, retryPolicyType: QueueRetryPolicyType.EXPONENTIAL },
  };

  let sharedKey: SharedKey | undefined;
  let tableEndpoint: string;
  let tableCredential: AzureNamedKeyCredential | TokenCredential;
  let blobService: BlobServiceClient;
  let queueService: QueueServiceClient;

  if (connection.kind === 'connectionString') {
    const parts = parseConnectionString(connection.connectionString);
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
    sharedKey = { accountName, accountKey };
    tableEndpoint = endpoint('table');
    tableCredential = new AzureNamedKeyCredential(accountName, accountKey);
    blobService = new BlobServiceWithTryTimeout(
      endpoint('blob'),
      new StorageSharedKeyCredential(accountName, accountKey),
      blobOptions,
      retry.tryTimeoutMs,
      counting('blob'),
    );
    queueService = new QueueServiceWithTryTimeout(
      endpoint('queue'),
      new QueueSharedKeyCredential(accountName, accountKey),
      queueOptions,
      retry.tryTimeoutMs,
      counting('queue'),
    );
  } else {
    const tokenCredential =
      credential ?? new DefaultAzureCredential({ managedIdentityClientId: connection.clientId });
    tableEndpoint = connection.tableServiceUri.replace(/\/+$/, '');
    tableCredential = tokenCredential;
    blobService = new BlobServiceWithTryTimeout(
      connection.blobServiceUri,
      tokenCredential,
      blobOptions,
      retry.tryTimeoutMs,
      counting('blob'),
    );
    queueService = new QueueServiceWithTryTimeout(
      connection.queueServiceUri,
      tokenCredential,
      queueOptions,
      retry.tryTimeoutMs,
      counting('queue'),
    );
  }

  const isLoopback = isLoopbackUrl(tableEndpoint);
  const tableClientOptions = { ...tableOptions, allowInsecureConnection: isLoopback };
  const tables = new Map<string, TableClient>();
  let tableService: TableServiceClient | undefined;

  return {
    sharedKey,
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
