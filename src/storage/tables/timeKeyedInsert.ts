/**
 * Inserting an entity whose RowKey is a time plus a random suffix (log tail, access log, login
 * attempts), safely under retries; and reading such an entity's keys back.
 *
 * Inserts never overwrite, and one attempt budget of the one retry routine covers both unknowns.
 * A 409 means the suffix collided with another writer's entity in the same tick (draw a new
 * suffix), or the SDK retried our own insert after its answer was lost (the stored entity is ours:
 * return it instead of a duplicate). A lost connection that outlasted the SDK's retries leaves the
 * outcome unknown: a point read tells ours (return it) from absent (send it again). Ours and
 * another writer's are told apart by comparing stored properties.
 */
import type { TableEntity } from '@azure/data-tables';
import type { TableAccess } from './tableAccess';
import { NotFoundError, UnavailableError } from '../../domainErrors';
import { RETRY, retryOptimistically } from '../optimisticRetry';
import { isAlreadyExists, toDomainError } from '../storageFaults';
import { timeKeyedInsertGaveUp } from '../storageErrors';
import { newUniqueSuffix } from './uniqueSuffix';

type Entity = TableEntity<Record<string, unknown>>;

/**
 * The keys of a stored entity whose `EntityType` is `entityType`; `undefined` for an entity of
 * another type or without string keys (heterogeneous tables: readers skip what they don't know).
 */
export function keysOfType(
  entity: Record<string, unknown>,
  entityType: string,
): { partitionKey: string; rowKey: string } | undefined {
  const { partitionKey, rowKey, EntityType } = entity;
  return EntityType === entityType && typeof partitionKey === 'string' && typeof rowKey === 'string'
    ? { partitionKey, rowKey }
    : undefined;
}

/**
 * Inserts sent before giving up: a second suffix collision in one tick is ~2⁻³², so the budget is
 * mostly for connections lost before storage saw the insert.
 */
const MAX_ATTEMPTS = 4;

/**
 * True when a value we wrote (plain, `Date`, or an explicitly typed `{value, type}`) was stored as
 * is.
 */
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
 * The entity stored under `entity`'s keys, or `undefined` when there is none. A missing table is
 * not "none": it stays a `NotFoundError` (`TableNotFound`) for callers that create tables lazily.
 */
async function readStored(
  table: TableAccess,
  entity: Entity,
): Promise<(Record<string, unknown> & { etag: string }) | undefined> {
  try {
    return await table.getEntity<Record<string, unknown>>(entity.partitionKey, entity.rowKey);
  } catch (error) {
    const failure = toDomainError(error);
    if (failure instanceof NotFoundError && failure.code !== 'TableNotFound') return undefined;
    throw failure;
  }
}

/**
 * Inserts `makeEntity(suffix)` with a fresh random suffix, drawing a new one when another writer's
 * entity holds the key, and re-sending when a lost connection hid whether the insert was stored.
 *
 * @returns the stored entity and its ETag (of our own earlier try, when a lost answer hid it).
 * @throws {ContentionError} (503, `Retry-After: 1`) when {@link MAX_ATTEMPTS} inserts all found
 *   their key taken or lost their connection before storage saw them.
 * @throws {DomainError} for storage faults that outlast the SDK's retries (a missing table surfaces
 *   as `NotFoundError` with code `TableNotFound`, which callers that create tables lazily handle;
 *   a connection lost while reading back what the insert did as `UnavailableError`).
 */
export async function insertTimeKeyed<E extends Entity>(
  table: TableAccess,
  makeEntity: (uniqueSuffix: string) => E,
): Promise<{ entity: E; etag: string }> {
  // The entity the next attempt sends again; none when it must draw a new suffix.
  let pending: E | undefined;
  return retryOptimistically(
    { maxAttempts: MAX_ATTEMPTS, giveUp: timeKeyedInsertGaveUp },
    async () => {
      const entity = (pending ??= makeEntity(newUniqueSuffix()));
      try {
        const response = await table.createEntity(entity);
        return { entity, etag: response.etag ?? '' };
      } catch (error) {
        const failure = isAlreadyExists(error) ? undefined : toDomainError(error);
        if (failure !== undefined && !(failure instanceof UnavailableError)) throw failure;
        const stored = await readStored(table, entity);
        // Absent: storage never saw the insert (or the key's holder is gone); send it again.
        if (stored === undefined) return RETRY;
        if (isSameEntity(entity, stored)) return { entity, etag: stored.etag };
        pending = undefined;
        return RETRY;
      }
    },
  );
}
