/**
 * The local durable runtime's own view of storage, independent of the app's code: the clients it
 * needs for a task hub, its queue messages (base64 of JSON, docs/durable.md "Storage layout"),
 * and how it reads the service's error answers (by HTTP status and error code, as
 * DurableTask.AzureStorage reads `RequestFailedException`).
 */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';

/** The clients of the storage account that holds a task hub (the host's, or a test's). */
export interface TaskHubStorage {
  table(tableName: string): TableClient;
  queue(queueName: string): QueueClient;
  container(containerName: string): ContainerClient;
}

/** Azure Queue storage's limit on one message, as sent (after base64). */
export const MAX_QUEUE_MESSAGE_BYTES = 64 * 1024;

/** A message's text on the queue: base64 of its JSON. */
export function encodeMessage(message: unknown): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64');
}

/**
 * The JSON a queue message carries.
 *
 * @throws {SyntaxError} when the text is not base64 of JSON.
 */
export function decodeMessage(text: string): unknown {
  return JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as unknown;
}

/** The error codes with which the services say a thing is not there. */
const NOT_FOUND_CODES = new Set([
  'ResourceNotFound',
  'EntityNotFound',
  'TableNotFound',
  'QueueNotFound',
  'ContainerNotFound',
  'BlobNotFound',
  'MessageNotFound',
]);

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

function codeOf(error: unknown): string | undefined {
  const e = error as {
    code?: unknown;
    details?: { errorCode?: unknown; odataError?: { code?: unknown } };
  } | null;
  const code = e?.details?.errorCode ?? e?.details?.odataError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when storage answered that the table, entity, queue, container or blob is not there. */
export function isNotFound(error: unknown): boolean {
  const code = codeOf(error);
  return statusOf(error) === 404 || (code !== undefined && NOT_FOUND_CODES.has(code));
}

/** True when storage answered 409: the entity (or table, queue, container) exists already. */
export function isConflict(error: unknown): boolean {
  return statusOf(error) === 409;
}
