/**
 * Inserting an entity whose RowKey is a time plus a random suffix (log tail, access log, login
 * attempts), safely under retries.
 *
 * Inserts never overwrite: a 409 means either the suffix collided with another writer's entity in
 * the same tick (draw a new suffix), or the SDK retried our own insert after its response was lost
 * (the stored entity is ours: return it instead of writing a duplicate). The two are told apart by
 * comparing the stored properties with ours.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import { isAlreadyExists, toDomainError, withStorageErrors } from '../storage/errors';
import { newUniqueSuffix } from './uniqueSuffix';

type Entity = TableEntity<Record<string, unknown>>;

/** How many suffixes to try before giving up (a second collision in one tick is ~2⁻⁶⁴). */
const MAX_ATTEMPTS = 3;

/** True when a value we wrote (plain, `Date`, or an explicitly typed `{value, type}`) was stored as is. */
function sameValue(ours: unknown, stored: unknown): boolean {
  if (ours instanceof Date) return stored instanceof Date && ours.getTime() === stored.getTime();
  if (typeof ours === 'object' && ours !== null && 'value' in ours && 'type' in ours) {
    return String((ours as { value: unknown }).value) === String(stored);
  }
  return ours === stored;
}

function isSameEntity(ours: Entity, stored: Record<string, unknown>): boolean {
  return Object.entries(ours).every(([name, value]) => sameValue(value, stored[name]));
}

/**
 * Inserts `makeEntity(suffix)` with a fresh random suffix, retrying on suffix collisions.
 *
 * @returns the stored entity and its ETag.
 * @throws {DomainError} for storage faults that outlast the SDK's retries (a missing table surfaces
 *   as `NotFoundError`, which callers that create tables lazily handle).
 * @throws {Error} when every suffix collided (should never happen; a bug if it does).
 */
export async function insertTimeKeyed<E extends Entity>(
  table: TableClient,
  makeEntity: (uniqueSuffix: string) => E,
): Promise<{ entity: E; etag: string }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const entity = makeEntity(newUniqueSuffix());
    try {
      const response = await table.createEntity(entity);
      return { entity, etag: response.etag ?? '' };
    } catch (error) {
      if (!isAlreadyExists(error)) throw toDomainError(error);
      const stored = await withStorageErrors(() =>
        table.getEntity<Record<string, unknown>>(entity.partitionKey, entity.rowKey),
      );
      if (isSameEntity(entity, stored)) return { entity, etag: stored.etag };
    }
  }
  throw new Error(`Could not find a free RowKey suffix after ${MAX_ATTEMPTS} attempts.`);
}
