/**
 * What a `log-batches` delivery carries: the message parts to flush (a pointer's staged batch read
 * into its parts), each with how long no other delivery of its message can have started.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { decodeLogQueuePayload, type DecodedLogBatchMessage } from '../ingest/batchMessage';
import { readStagedBatch } from '../ingest/stagedBatch';

/** Queue visibility of drained messages: long enough for a flush, short enough to retry soon. */
export const DRAIN_VISIBILITY_SECONDS = 60;
/** Covers clock skew and request latency when reasoning about visibility deadlines. */
export const EXCLUSIVITY_MARGIN_MS = 15_000;

/** One message part to flush. */
export interface PendingLogMessage {
  decoded: DecodedLogBatchMessage;
  /** How many times the queue has handed the message out (1 = first delivery). */
  dequeueCount: number;
  /**
   * Epoch ms (this machine's clock) before which no other delivery of the message can have
   * started: the end of its queue invisibility, less a safety margin.
   */
  exclusiveUntil: number;
}

/**
 * One delivered queue message and the parts it carries: one for an inline message, one per batch
 * for a bundle, every part of the batch for a pointer to a staged batch, none when that staged
 * batch is already stored.
 */
export interface DeliveredLogMessage {
  parts: PendingLogMessage[];
  /** The staging blob to delete once the message is acknowledged. */
  stagingBlob?: string;
}

/**
 * Turns a `log-batches` payload into the parts to flush, reading a pointer's staging blob.
 *
 * @param timing - the delivery's dequeue count and exclusivity deadline, shared by every part.
 * @throws {ValidationError} when the payload (or the staged batch) is not a log-batches message.
 * @throws {DomainError} when the staging blob cannot be read after the SDK's retries.
 */
export async function resolveDelivery(
  container: ContainerClient,
  payload: unknown,
  timing: Pick<PendingLogMessage, 'dequeueCount' | 'exclusiveUntil'>,
): Promise<DeliveredLogMessage> {
  const decoded = decodeLogQueuePayload(payload);
  if (decoded.kind === 'inline') return { parts: [{ decoded: decoded.decoded, ...timing }] };
  if (decoded.kind === 'bundle') {
    return { parts: decoded.parts.map((part) => ({ decoded: part, ...timing })) };
  }
  const parts = await readStagedBatch(container, decoded.pointer);
  // No blob: a flush stored every line and cleaned up; this is a redelivery or a duplicate send.
  return {
    parts: (parts ?? []).map((part) => ({ decoded: part, ...timing })),
    stagingBlob: parts ? decoded.pointer.stagingBlob : undefined,
  };
}

/** How the queue delivered a message: what the trigger metadata or a receive call reports. */
export interface QueueDelivery {
  dequeueCount: number;
  /** When the message becomes visible again unless deleted (service clock), if known. */
  nextVisibleTime?: Date;
}

/**
 * Turns a payload the trigger delivered into the parts to flush. Without `nextVisibleTime` the
 * message is assumed to stay invisible for {@link DRAIN_VISIBILITY_SECONDS} from now (the Functions
 * host keeps extending it while the invocation runs).
 *
 * @throws {ValidationError} when the payload is not a log-batches message.
 * @throws {DomainError} when a pointer's staging blob cannot be read after the SDK's retries.
 */
export function deliveredFromTrigger(
  container: ContainerClient,
  payload: unknown,
  delivery: QueueDelivery,
  clock: () => number = Date.now,
): Promise<DeliveredLogMessage> {
  const visibleAt = delivery.nextVisibleTime?.getTime();
  return resolveDelivery(container, payload, {
    dequeueCount: delivery.dequeueCount,
    exclusiveUntil:
      (visibleAt !== undefined && !Number.isNaN(visibleAt)
        ? visibleAt
        : clock() + DRAIN_VISIBILITY_SECONDS * 1000) - EXCLUSIVITY_MARGIN_MS,
  });
}
