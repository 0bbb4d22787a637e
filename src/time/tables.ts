/**
 * Tables of the time-and-volume features that exist for the whole life of the app
 * (`EmployeeExpenses`, `MessageStats`, `AccessLog`): each is created at most once per process,
 * on first use, instead of paying a create-table round trip on every request.
 */
import type { TableClient } from '@azure/data-tables';
import { withStorageErrors } from '../storage/errors';

const created = new WeakMap<TableClient, Promise<void>>();

/**
 * Creates the client's table if needed, once per process and client. `createTable` already treats
 * 409 `TableAlreadyExists` as success, so concurrent first calls (or other instances) are safe. A
 * failed attempt is forgotten, so the next call tries again.
 *
 * @throws {DomainError} when storage refuses or keeps failing after the SDK's retries.
 */
export function ensureTableOnce(table: TableClient): Promise<void> {
  let pending = created.get(table);
  if (!pending) {
    pending = withStorageErrors(() => table.createTable()).catch((error: unknown) => {
      created.delete(table);
      throw error;
    });
    created.set(table, pending);
  }
  return pending;
}
