/**
 * A client-side deadline for every try of a storage client. None of the three SDKs gives a try
 * one that is then retried: the core HTTP client's `request.timeout` aborts with an `AbortError`,
 * which both retry policies rethrow at once, and the Blob/Queue `tryTimeoutInMs` only sets the
 * service-side `timeout` parameter (a connection that never answers would hang). So one small
 * policy runs inside the retry loop of every client, abandons a try after `tryTimeoutMs` and
 * reports it as a retriable `ETIMEDOUT`; a timed-out try is then retried like any other transient
 * fault. The clients are created in ./clients.ts.
 */
import type { TokenCredential } from '@azure/identity';
import {
  BlobServiceClient,
  StorageSharedKeyCredential,
  type StoragePipelineOptions,
} from '@azure/storage-blob';
import {
  QueueServiceClient,
  StorageSharedKeyCredential as QueueSharedKeyCredential,
  type StoragePipelineOptions as QueuePipelineOptions,
} from '@azure/storage-queue';
import type { Pipeline, PipelinePolicy } from '@azure/core-rest-pipeline';
import { tryTimedOut } from './storageErrors';

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
export class BlobServiceWithTryTimeout extends BlobServiceClient {
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
export class QueueServiceWithTryTimeout extends QueueServiceClient {
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
