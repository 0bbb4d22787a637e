/**
 * Staged log batches: a batch too large for one queue message is written whole to one blob,
 * `_pipeline/staging/<batchId>.json` in the logs container, and a single small pointer message goes
 * on the queue. One Put Blob and one Put Message keep the batch all-or-nothing: until the pointer
 * is sent nothing can flush it, and once it is sent every line is readable. The flusher deletes the
 * blob only after every line is committed, so a missing staging blob means "already stored".
 */
import type { ContainerClient } from '@azure/storage-blob';
import { unlessNotFound } from '../../storage/storageFaults';
import { creatingOnMissing, isContainerMissing } from '../../storage/createOnce';
import { logStagingBlobName } from '../../storage/keys/blobs/logBlobs';
import {
  decodeStagedBatch,
  LOG_MESSAGE_VERSION,
  type DecodedLogBatchMessage,
  type LogBatchMessage,
  type LogBatchPointer,
} from './batchMessage';

/**
 * Writes the parts of one batch to its staging blob in one request (Put Blob is atomic: the blob
 * holds all of it or does not exist), creating the container if a fresh deployment lacks it.
 *
 * @returns the pointer message to enqueue.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function stageBatch(
  container: ContainerClient,
  batchId: string,
  parts: readonly LogBatchMessage[],
): Promise<LogBatchPointer> {
  const stagingBlob = logStagingBlobName(batchId);
  const body = Buffer.from(JSON.stringify(parts), 'utf8');
  const blob = container.getBlockBlobClient(stagingBlob);
  const upload = (): Promise<unknown> =>
    blob.upload(body, body.length, {
      blobHTTPHeaders: { blobContentType: 'application/json; charset=utf-8' },
    });
  await creatingOnMissing(upload, () => container.createIfNotExists(), isContainerMissing);
  return { v: LOG_MESSAGE_VERSION, batchId, stagingBlob };
}

/**
 * Reads a staged batch back.
 *
 * @returns its parts, or `undefined` when the blob is gone: the batch was flushed and cleaned up.
 * @throws {ValidationError} when the blob does not hold that batch's parts.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function readStagedBatch(
  container: ContainerClient,
  pointer: LogBatchPointer,
): Promise<DecodedLogBatchMessage[] | undefined> {
  const content = await unlessNotFound(() =>
    container.getBlockBlobClient(pointer.stagingBlob).downloadToBuffer(),
  );
  return content && decodeStagedBatch(content.toString('utf8'), pointer.batchId);
}

/**
 * Deletes a staging blob once its batch needs it no more. Best effort: an orphan is harmless (the
 * logs container's lifecycle rule removes it with the old hours).
 *
 * @returns true when the blob is gone (deleted now or before).
 */
export async function deleteStagedBatch(
  container: ContainerClient,
  stagingBlob: string,
): Promise<boolean> {
  try {
    await container.getBlockBlobClient(stagingBlob).deleteIfExists();
    return true;
  } catch {
    return false;
  }
}
