/**
 * Inserting an entity whose RowKey is a time plus a random suffix (log tail, access log, login
 * attempts), safely under retries; and reading such an entity's keys back.
 *
 * Inserts never overwrite. A 409 means either the suffix collided with another writer's entity in
 * the same tick (draw a new suffix), or the SDK retried our own insert after its response was lost
 * (the stored entity is ours: return it instead of writing a duplicate). A connection lost while
 * the answer was on its way (the SDK does not retry that) leaves the outcome unknown: a point read
 * tells whether the entity is there. Both cases are told apart by comparing stored properties.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import { NotFoundError, UnavailableError } from '../../domainErrors';
import { isAlreadyExists, toDomainError, withStorageErrors } from '../storageFaults';
import { noFreeRowKeySuffix } from '../storageErrors';
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

/** How many suffixes to try before giving up (a second collision in one tick is ~2⁻⁶⁴). */
const MAX_SUFFIXES = 3;
/** How many times an insert whose outcome a lost connection hid is checked and re-sent. */
const MAX_UNKNOWN_OUTCOMES = 3;

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

async function readStored(
  table: TableClient,
  entity: Entity,
): Promise<(Record<string, unknown> & { etag: string }) | undefined> {
  try {
    return await withStorageErrors(() =>
      table.getEntity<Record<string, unknown>>(entity.partitionKey, entity.rowKey),
    );
  } catch (error) {
    if (error instanceof NotFoundError && error.code !== 'TableNotFound') return undefined;
    throw error;
  }
}

/** Inserts one entity; `'taken'` when its key holds another writer's entity. */
async function insertOnce(table: TableClient, entity: Entity): Promise<{ etag: string } | 'taken'> {
  for (let unknown = 0; ; unknown++) {
    try {
      const response = await table.createEntity(entity);
      return { etag: response.etag ?? '' };
    } catch (error) {
      const failure = isAlreadyExists(error) ? undefined : toDomainError(error);
      if (
        failure !== undefined &&
        (!(failure instanceof UnavailableError) || unknown >= MAX_UNKNOWN_OUTCOMES)
      ) {
        throw failure;
      }
      const stored = await readStored(table, entity);
      if (stored) return isSameEntity(entity, stored) ? { etag: stored.etag } : 'taken';
      // Not there after a lost connection: the insert never happened; send it again.
    }
  }
}

/**
 * Inserts `makeEntity(suffix)` with a fresh random suffix, retrying on suffix collisions.
 *
 * @returns the stored entity and its ETag.
 * @throws {DomainError} for storage faults that outlast the SDK's retries (a missing table surfaces
 *   as `NotFoundError` with code `TableNotFound`, which callers that create tables lazily handle).
 * @throws {Error} when every suffix collided (should never happen; a bug if it does).
 */
export async function insertTimeKeyed<E extends Entity>(
  table: TableClient,
  makeEntity: (uniqueSuffix: string) => E,
): Promise<{ entity: E; etag: string }> {
  for (let attempt = 1; attempt <= MAX_SUFFIXES; attempt++) {
    const entity = makeEntity(newUniqueSuffix());
    const outcome = await insertOnce(table, entity);
    if (outcome !== 'taken') return { entity, etag: outcome.etag };
  }
  throw noFreeRowKeySuffix(MAX_SUFFIXES);
}
