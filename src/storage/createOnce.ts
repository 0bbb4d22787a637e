/**
 * Creates a storage resource (table, queue, container) on first use, once per process and
 * client: creating it on every request would cost a storage call each time. Concurrent first
 * calls share one creation; a failed creation is forgotten, so the next call tries again. The
 * SDK calls used treat "already exists" as success, so other instances creating the same
 * resource are fine.
 */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { toDomainError } from './storageFaults';

/**
 * `create`, run at most once per client at a time and never again once it succeeded.
 *
 * @returns a function that resolves when the client's resource exists; it throws
 *   {@link DomainError} (via toDomainError) when storage refuses or cannot be reached.
 */
export function oncePerClient<C extends object>(
  create: (client: C) => Promise<unknown>,
): (client: C) => Promise<void> {
  const created = new WeakMap<C, Promise<void>>();
  return (client) => {
    let pending = created.get(client);
    if (!pending) {
      // One frame: the SDK call, its failure mapped on the promise every caller shares.
      let attempt: Promise<void>;
      try {
        attempt = create(client).then(
          () => undefined,
          (error: unknown) => Promise.reject(toDomainError(error)),
        );
      } catch (error) {
        attempt = Promise.reject(toDomainError(error));
      }
      attempt.catch(() => {
        if (created.get(client) === attempt) created.delete(client);
      });
      created.set(client, attempt);
      pending = attempt;
    }
    return pending;
  };
}

/**
 * Ensures the table of `client` exists (idempotent; an existing table is fine).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export const ensureTable: (client: TableClient) => Promise<void> = oncePerClient((client) =>
  client.createTable(),
);

/**
 * Ensures the queue exists (idempotent).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export const ensureQueue: (queue: QueueClient) => Promise<void> = oncePerClient((queue) =>
  queue.createIfNotExists(),
);

/**
 * Ensures the blob container exists (idempotent).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export const ensureContainer: (container: ContainerClient) => Promise<void> = oncePerClient(
  (container) => container.createIfNotExists(),
);
