/**
 * Storage created on first use (docs/architecture.md "Storage created on first use"). The way:
 * {@link creatingOnMissing} — make the call, and only when storage answers that the queue or
 * container is not there create it and make the call once more. Chosen for cost: no request while
 * the resource exists (always, but on a fresh account), where creating before the first use costs
 * one per process and client. `ensureX` (a creation before the first use, shared by concurrent
 * callers, forgotten when it failed) only where the 404 cannot say it: a table (a missing table
 * and a missing entity both answer 404), or a resource someone else uses first (the container or
 * table a SAS names). The SDK calls used treat "already exists" as success.
 */
import type { TableAccess } from './tables/tableAccess';
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { isNotFound, storageCode, toDomainError } from './storageFaults';

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
export const ensureTable: (client: TableAccess) => Promise<void> = oncePerClient((client) =>
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

/**
 * Runs `use` against a queue, container or blob; only when it fails because the resource is not
 * there (`missing`, default: a 404) creates it with `create` and runs `use` once more. No request
 * while the resource exists; the first use of a missing one costs the creation and the retry.
 *
 * @throws {DomainError} for storage faults (via toDomainError), the creation's included.
 */
export async function creatingOnMissing(
  use: () => Promise<unknown>,
  create: () => Promise<unknown>,
  missing: (error: unknown) => boolean = isNotFound,
): Promise<void> {
  try {
    await use();
    return;
  } catch (error) {
    if (!missing(error)) throw toDomainError(error);
  }
  try {
    await create();
    await use();
  } catch (error) {
    throw toDomainError(error);
  }
}

/** For {@link creatingOnMissing}: the blob's container is not there (a missing blob is not). */
export function isContainerMissing(error: unknown): boolean {
  return storageCode(error) === 'ContainerNotFound';
}
