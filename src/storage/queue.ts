/**
 * Queue messages as the Functions queue trigger expects them: JSON, base64-encoded
 * (`messageEncoding: base64` in host.json, the host's default).
 */
import type { QueueClient } from '@azure/storage-queue';
import { toDomainError } from './storageFaults';
import { queueMessageTooLarge } from './storageErrors';

/** Azure's limit on one queue message, after base64 encoding. */
export const MAX_QUEUE_MESSAGE_BYTES = 64 * 1024;

/** Base64 text of a JSON payload, as the Functions host encodes queue messages. */
export function encodeQueueMessage(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}

/**
 * Reverses {@link encodeQueueMessage}.
 *
 * @throws {SyntaxError} when the text is not base64 of JSON.
 */
export function decodeQueueMessage<T = unknown>(messageText: string): T {
  return JSON.parse(Buffer.from(messageText, 'base64').toString('utf8')) as T;
}

/**
 * Enqueues one JSON payload, base64-encoded.
 *
 * @returns the service's message id.
 * @throws {TooLargeError} when the encoded message is over 64 KiB.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function sendJsonMessage(
  queue: QueueClient,
  payload: unknown,
  options: { visibilityTimeoutSeconds?: number } = {},
): Promise<string> {
  const text = encodeQueueMessage(payload);
  if (Buffer.byteLength(text) > MAX_QUEUE_MESSAGE_BYTES) {
    throw queueMessageTooLarge(Buffer.byteLength(text), MAX_QUEUE_MESSAGE_BYTES);
  }
  try {
    const response = await queue.sendMessage(text, {
      visibilityTimeout: options.visibilityTimeoutSeconds,
    });
    return response.messageId;
  } catch (error) {
    throw toDomainError(error);
  }
}
