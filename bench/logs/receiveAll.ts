/**
 * The logs case's queue receive taken apart from the flush (bench/cases/logs.ts): every message
 * received and kept invisible for the run, its batches resolved as the trigger resolves them, so
 * the blob write and the delete can then be measured each on its own.
 */
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import {
  EXCLUSIVITY_MARGIN_MS,
  resolveDelivery,
  type PendingLogMessage,
} from '../../src/logs/flush/delivery';
import { decodeQueueMessage } from '../../src/storage/queue';

/** One received message, held invisible, with the batches it carries. */
export interface HeldMessage {
  /** The batches the message carries (several when ingestion packed them together). */
  parts: PendingLogMessage[];
  messageId: string;
  popReceipt: string;
}

/** Receives every message of the queue, 32 per request, keeping them invisible for the run. */
export async function receiveAll(
  queue: QueueClient,
  container: ContainerClient,
): Promise<HeldMessage[]> {
  const held: HeldMessage[] = [];
  for (;;) {
    const startedAt = Date.now();
    const { receivedMessageItems } = await queue.receiveMessages({
      numberOfMessages: 32,
      visibilityTimeout: 600,
    });
    for (const item of receivedMessageItems) {
      const delivered = await resolveDelivery(container, decodeQueueMessage(item.messageText), {
        dequeueCount: item.dequeueCount,
        exclusiveUntil: startedAt + 600_000 - EXCLUSIVITY_MARGIN_MS,
      });
      held.push({
        parts: delivered.parts,
        messageId: item.messageId,
        popReceipt: item.popReceipt,
      });
    }
    if (receivedMessageItems.length < 32) return held;
  }
}
