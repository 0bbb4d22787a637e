/**
 * The SDK clients the local host builds for one storage connection, itself (as the Functions host
 * builds its own from the connection's settings; the app's clients are the app's business). Each
 * client retries with its SDK's exponential policy, and every try has a client-side deadline: a
 * try that hangs is abandoned as a retriable `ETIMEDOUT`, as Azure.Core's per-try network timeout
 * does in the real host (the JS SDKs have none that is then retried).
 */
import { RestError, type PipelinePolicy } from '@azure/core-rest-pipeline';
import { AzureNamedKeyCredential, TableClient } from '@azure/data-tables';
import { DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import {
  BlobServiceClient,
  StorageRetryPolicyType,
  StorageSharedKeyCredential,
  type ContainerClient,
} from '@azure/storage-blob';
import {
  QueueServiceClient,
  StorageRetryPolicyType as QueueRetryPolicyType,
  StorageSharedKeyCredential as QueueSharedKeyCredential,
  type QueueClient,
} from '@azure/storage-queue';

/** The storage of one connection: what triggers, bindings and the durable runtime use. */
export interface HostStorage {
  /** A client for one table (the table is not created). */
  table(tableName: string): TableClient;
  /** A client for one queue (the queue is not created). */
  queue(queueName: string): QueueClient;
  /** A client for one blob container (the container is not created). */
  container(containerName: string): ContainerClient;
}

/** Where a connection's services are and how the host signs in to them. */
export interface HostEndpoints {
  table: string;
  queue: string;
  blob: string;
  /** A shared key, or a token credential (managed identity). */
  credential: { accountName: string; accountKey: string } | TokenCredential;
}

/** The retry budget of every client of a connection. */
export interface HostRetry {
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  tryTimeoutMs: number;
}

/** A token credential for identity-based connections (`<name>__clientId`: user-assigned). */
export function identityCredential(clientId: string | undefined): TokenCredential {
  return new DefaultAzureCredential({ managedIdentityClientId: clientId });
}

/**
 * Abandons a try after `timeoutMs` with a retriable `ETIMEDOUT` (runs once per try, inside the
 * SDK's retry loop). The caller's own abort still ends the operation; a streamed body stays
 * bound to the caller's signal once its headers have arrived.
 */
function tryDeadline(timeoutMs: number): PipelinePolicy {
  return {
    name: 'hostTryDeadline',
    async sendRequest(request, next) {
      const caller = request.abortSignal;
      if (caller?.aborted) return next(request);
      const attempt = new AbortController();
      const onCallerAbort = (): void => attempt.abort();
      caller?.addEventListener('abort', onCallerAbort);
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        attempt.abort();
      }, timeoutMs);
      request.abortSignal = attempt.signal;
      let streamed = false;
      try {
        const response = await next(request);
        if (response.readableStreamBody && caller) {
          streamed = true;
          response.readableStreamBody.once('close', () =>
            caller.removeEventListener('abort', onCallerAbort),
          );
        }
        return response;
      } catch (error) {
        if (!expired || caller?.aborted) throw error;
        throw new RestError(`Storage did not answer within ${timeoutMs} ms; try abandoned.`, {
          code: 'ETIMEDOUT',
          request,
        });
      } finally {
        clearTimeout(timer);
        if (!streamed) caller?.removeEventListener('abort', onCallerAbort);
        request.abortSignal = caller;
      }
    },
  };
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

type BlobCredential = StorageSharedKeyCredential | TokenCredential;
type QueueCredential = QueueSharedKeyCredential | TokenCredential;

/** Blob service whose every try has the deadline (its containers share its pipeline). */
class HostBlobService extends BlobServiceClient {
  constructor(url: string, credential: BlobCredential, options: object, deadline: PipelinePolicy) {
    super(url, credential, options);
    this.storageClientContext.pipeline.addPolicy(deadline, { afterPhase: 'Sign' });
  }
}

/** Queue service whose every try has the deadline (storage-queue keeps it on `queuesClient`). */
class HostQueueService extends QueueServiceClient {
  constructor(url: string, credential: QueueCredential, options: object, deadline: PipelinePolicy) {
    super(url, credential, options);
    this.storageClientContext.queuesClient.pipeline.addPolicy(deadline, { afterPhase: 'Sign' });
  }
}

/** The clients of one connection (tables cached by name, as the SDK's are not shared). */
export function createHostStorage(endpoints: HostEndpoints, retry: HostRetry): HostStorage {
  const deadline = tryDeadline(retry.tryTimeoutMs);
  const storageRetry = {
    maxTries: retry.maxRetries + 1,
    retryDelayInMs: retry.retryDelayMs,
    maxRetryDelayInMs: retry.maxRetryDelayMs,
    // The service-side `timeout` only (whole seconds); the client-side one is the deadline's.
    tryTimeoutInMs: Math.max(1_000, retry.tryTimeoutMs),
  };
  const { credential } = endpoints;
  const key = 'accountKey' in credential ? credential : undefined;
  const token = key ? undefined : (credential as TokenCredential);
  const blobs = new HostBlobService(
    endpoints.blob,
    key ? new StorageSharedKeyCredential(key.accountName, key.accountKey) : token!,
    { retryOptions: { ...storageRetry, retryPolicyType: StorageRetryPolicyType.EXPONENTIAL } },
    deadline,
  );
  const queues = new HostQueueService(
    endpoints.queue,
    key ? new QueueSharedKeyCredential(key.accountName, key.accountKey) : token!,
    { retryOptions: { ...storageRetry, retryPolicyType: QueueRetryPolicyType.EXPONENTIAL } },
    deadline,
  );
  const tableCredential = key
    ? new AzureNamedKeyCredential(key.accountName, key.accountKey)
    : token!;
  const tableOptions = {
    retryOptions: {
      maxRetries: retry.maxRetries,
      retryDelayInMs: retry.retryDelayMs,
      maxRetryDelayInMs: retry.maxRetryDelayMs,
    },
    additionalPolicies: [{ policy: deadline, position: 'perRetry' as const }],
    allowInsecureConnection: isLoopback(endpoints.table),
  };
  const tables = new Map<string, TableClient>();
  return {
    table(tableName) {
      let client = tables.get(tableName);
      if (!client) {
        client =
          tableCredential instanceof AzureNamedKeyCredential
            ? new TableClient(endpoints.table, tableName, tableCredential, tableOptions)
            : new TableClient(endpoints.table, tableName, tableCredential, tableOptions);
        tables.set(tableName, client);
      }
      return client;
    },
    queue: (queueName) => queues.getQueueClient(queueName),
    container: (containerName) => blobs.getContainerClient(containerName),
  };
}
