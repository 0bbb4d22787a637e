/**
 * Shared setup of the log pipeline tests: a unique container and queue per test, helpers to
 * ingest batches, receive messages the way the flusher does, and read back every stored line.
 */
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { loadConfig } from '../../../src/config';
import { parseLogBatch } from '../../../src/logs/entry';
import { decodeLogQueuePayload } from '../../../src/logs/ingest/batchMessage';
import { EXCLUSIVITY_MARGIN_MS, type PendingLogMessage } from '../../../src/logs/flush/delivery';
import type { LogBlobLimits } from '../../../src/logs/flush/hourWriter';
import { LogIngest, type AcceptedLogBatch } from '../../../src/logs/ingest/ingest';
import { TagLedgers } from '../../../src/logs/flush/tagLedger';
import { decodeLogLine } from '../../../src/logs/format/lineFormat';
import { parseLogBlobName } from '../../../src/storage/keys/blobs/logBlobs';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { testClients, uniqueName } from '../../support/storage';

export interface LogRig {
  container: ContainerClient;
  queue: QueueClient;
  /** The ingest of this test's process: batches accepted at once share messages. */
  ingest: LogIngest;
  /** What this test's flusher process knows of the tag ledgers (another process: a new one). */
  ledgers: TagLedgers;
}

export async function logRig(connectionString?: string): Promise<LogRig> {
  const clients = testClients(connectionString);
  const container = clients.container(uniqueName('logs'));
  const queue = clients.queue(uniqueName('logq'));
  await container.create();
  await queue.create();
  return {
    container,
    queue,
    ingest: new LogIngest({ queue, container }),
    ledgers: new TagLedgers(),
  };
}

/** Blob limits as the app reads them, from settings (e.g. `LOG_BLOB_MAX_BLOCKS`). */
export function blobLimits(env: Record<string, string> = {}): LogBlobLimits {
  const config = loadConfig({ AzureWebJobsStorage: 'UseDevelopmentStorage=true', ...env });
  return config.logs;
}

export interface RawEntry {
  at: string;
  level: string;
  message: string;
  [extra: string]: unknown;
}

/** Accepts one batch through the service, as `POST /logs` does. */
export async function ingest(
  rig: LogRig,
  source: string,
  entries: RawEntry[],
): Promise<AcceptedLogBatch> {
  return rig.ingest.accept(parseLogBatch({ source, entries }, { maxBatchEntries: 100_000 }));
}

export interface ReceivedLogMessage {
  /** Every batch part the message carries (several for a bundle of batches ingested together). */
  parts: PendingLogMessage[];
  /** The one part of a message that carries a single batch part (throws for a bundle). */
  pending: PendingLogMessage;
  messageId: string;
  popReceipt: string;
}

/**
 * Receives up to 32 messages with a visibility timeout, as a flusher would, without deleting them
 * (inline parts and bundles; not pointers, whose staging blob the flusher reads).
 */
export async function receive(
  queue: QueueClient,
  visibilitySeconds: number,
): Promise<ReceivedLogMessage[]> {
  const startedAt = Date.now();
  const response = await queue.receiveMessages({
    numberOfMessages: 32,
    visibilityTimeout: visibilitySeconds,
  });
  return response.receivedMessageItems.map((item) => {
    const payload = decodeLogQueuePayload(decodeQueueMessage(item.messageText));
    if (payload.kind === 'staged') throw new Error('receive() does not read staged batches.');
    const timing = {
      dequeueCount: item.dequeueCount,
      exclusiveUntil: startedAt + visibilitySeconds * 1000 - EXCLUSIVITY_MARGIN_MS,
    };
    const parts = (payload.kind === 'inline' ? [payload.decoded] : payload.parts).map(
      (decoded) => ({ decoded, ...timing }),
    );
    return {
      parts,
      get pending(): PendingLogMessage {
        if (parts.length !== 1) throw new Error(`Message carries ${parts.length} parts.`);
        return parts[0]!;
      },
      messageId: item.messageId,
      popReceipt: item.popReceipt,
    };
  });
}

export interface StoredBlob {
  name: string;
  metadata: Record<string, string>;
  contentType?: string;
  blocks: number;
  messages: string[];
  entries: ReturnType<typeof decodeLogLine>['entry'][];
}

/** Every log blob of the container with its decoded lines. */
export async function readAll(container: ContainerClient): Promise<StoredBlob[]> {
  const blobs: StoredBlob[] = [];
  for await (const item of container.listBlobsFlat({ includeMetadata: true })) {
    // Tag ledgers and staged batches live under `_pipeline/`.
    if (!parseLogBlobName(item.name)) continue;
    const client = container.getBlockBlobClient(item.name);
    const text = (await client.downloadToBuffer()).toString('utf8');
    const blockList = await client.getBlockList('committed');
    const entries = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => decodeLogLine(line).entry);
    blobs.push({
      name: item.name,
      metadata: item.metadata ?? {},
      contentType: item.properties.contentType,
      blocks: blockList.committedBlocks?.length ?? 0,
      messages: entries.map((e) => e.message),
      entries,
    });
  }
  return blobs;
}

/** How often each message text is stored, over all blobs. */
export function messageCounts(blobs: StoredBlob[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const blob of blobs) for (const m of blob.messages) counts.set(m, (counts.get(m) ?? 0) + 1);
  return counts;
}

/** Entries `first..first+count-1`, one per second from `start`, messages `<label>-<n>`. */
export function entriesFrom(
  label: string,
  start: string,
  count: number,
  level = 'Information',
  stepMs = 1000,
): RawEntry[] {
  const t0 = Date.parse(start);
  return Array.from({ length: count }, (_, i) => ({
    at: new Date(t0 + i * stepMs).toISOString(),
    level,
    message: `${label}-${i}`,
  }));
}

export async function queueLength(queue: QueueClient): Promise<number> {
  return (await queue.getProperties()).approximateMessagesCount ?? 0;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A view of `container` whose first Put Block List waits for `competitor` to finish first: a
 * deterministic lost race between two real flushers (no storage call is faked).
 */
export function raceBeforeFirstCommit(
  container: ContainerClient,
  competitor: () => Promise<void>,
): ContainerClient {
  let raced = false;
  return new Proxy(container, {
    get(target, property, receiver) {
      if (property !== 'getBlockBlobClient')
        return Reflect.get(target, property, receiver) as unknown;
      return (name: string): BlockBlobClient => {
        const client = target.getBlockBlobClient(name);
        return new Proxy(client, {
          get(blob, key, blobReceiver) {
            if (key !== 'commitBlockList' || raced)
              return Reflect.get(blob, key, blobReceiver) as unknown;
            return async (...args: Parameters<BlockBlobClient['commitBlockList']>) => {
              raced = true;
              await competitor();
              return blob.commitBlockList(...args);
            };
          },
        });
      };
    },
  });
}
