/**
 * Creates a table on first use, once per process and table client (creating a table on every
 * request would cost a storage call each time). A failed creation is forgotten so the next call
 * tries again.
 */
import type { TableClient } from '@azure/data-tables';
import { withStorageErrors } from '../storage/errors';

const created = new WeakMap<TableClient, Promise<void>>();

/**
 * Ensures the table of `client` exists (idempotent; an existing table is fine).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
export function ensureTable(client: TableClient): Promise<void> {
  let pending = created.get(client);
  if (!pending) {
    pending = withStorageErrors(() => client.createTable());
    created.set(client, pending);
    pending.catch(() => created.delete(client));
  }
  return pending;
}
