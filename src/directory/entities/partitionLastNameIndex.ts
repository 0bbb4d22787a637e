/**
 * Same-partition last-name index entities (index entities, option 2): one entity per
 * (department, normalised last name) under `lastname_<name>`, listing the ids of the employees
 * with that last name. It changes in the same entity group transaction as the employees, with
 * ETag-based optimistic concurrency.
 *
 * Size: a string property holds at most 64 KiB (32,768 UTF-16 characters) and an entity at most
 * 1 MiB and 252 properties. Ids are fixed-width (6 digits), so they are stored concatenated,
 * sorted, without separators: {@link IDS_PER_PROPERTY} per property (60,000 bytes) over at most
 * {@link MAX_ID_PROPERTIES} properties (`Ids00`…), about 720 KB in all. That caps one last name in
 * one department at {@link MAX_IDS_PER_LAST_NAME} employees; past it the write is refused with
 * `LastNameIndexFull` instead of failing in storage.
 */
import type { TableEntity } from '@azure/data-tables';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';
import { lastNameIndexFull } from '../directoryErrors';
import { lastNameRowKey } from '../../storage/keys/tables/employees';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
import type { StoredProperties } from '../../storage/tables/entities';
import type { Versioned } from './versionCache';

/** Ids per `IdsNN` property: 5,000 × 6 characters × 2 bytes = 60,000 bytes (< 64 KiB). */
export const IDS_PER_PROPERTY = 5_000;
/** Id properties per entity. */
export const MAX_ID_PROPERTIES = 12;
/** Most employees one last name can have in one department. */
export const MAX_IDS_PER_LAST_NAME = IDS_PER_PROPERTY * MAX_ID_PROPERTIES;

const ID_WIDTH = 6;
const ID_PROPERTY = /^Ids(\d{2})$/;

/** The content of one index entity. */
export interface LastNameIndex {
  /** Normalised last name (as in the key). */
  lastName: string;
  /** Sorted, distinct employee ids. */
  ids: string[];
}

function idProperty(n: number): string {
  return `Ids${String(n).padStart(2, '0')}`;
}

/**
 * Throws when an id list no longer fits one index entity.
 *
 * @throws {ConflictError} `LastNameIndexFull` past {@link MAX_IDS_PER_LAST_NAME} ids.
 */
export function assertIndexCapacity(lastName: string, count: number): void {
  if (count > MAX_IDS_PER_LAST_NAME) {
    throw lastNameIndexFull(lastName, MAX_IDS_PER_LAST_NAME);
  }
}

/**
 * The stored entity of an index (all `IdsNN` properties present, so a Replace shrinks it).
 *
 * @throws {ConflictError} `LastNameIndexFull` when the ids do not fit.
 */
export function lastNameIndexEntity(
  partitionKey: string,
  index: LastNameIndex,
): TableEntity<StoredProperties> {
  assertIndexCapacity(index.lastName, index.ids.length);
  const entity: TableEntity<StoredProperties> = {
    partitionKey,
    rowKey: lastNameRowKey(index.lastName),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.lastNameIndex,
    LastName: index.lastName,
    Count: index.ids.length,
  };
  const properties = Math.max(1, Math.ceil(index.ids.length / IDS_PER_PROPERTY));
  for (let n = 0; n < properties; n++) {
    entity[idProperty(n)] = index.ids
      .slice(n * IDS_PER_PROPERTY, (n + 1) * IDS_PER_PROPERTY)
      .join('');
  }
  return entity;
}

/** A stored index entity's content; `undefined` for another entity type or a malformed one. */
export function readLastNameIndex(entity: StoredProperties): LastNameIndex | undefined {
  if (!isEntityOfType(entity, EntityTypes.lastNameIndex) || typeof entity.LastName !== 'string') {
    return undefined;
  }
  const parts = Object.keys(entity)
    .map((name) => ({ name, match: ID_PROPERTY.exec(name) }))
    .filter((p) => p.match !== null)
    .sort((a, b) => Number(a.match![1]) - Number(b.match![1]));
  const ids: string[] = [];
  for (const { name } of parts) {
    const value = entity[name];
    if (typeof value !== 'string' || value.length % ID_WIDTH !== 0 || !/^\d*$/.test(value))
      return undefined;
    for (let i = 0; i < value.length; i += ID_WIDTH) ids.push(value.slice(i, i + ID_WIDTH));
  }
  return { lastName: entity.LastName, ids: normaliseIds(ids) };
}

/** Sorted, distinct ids. */
export function normaliseIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort();
}

/** `ids` plus `added` (sorted, distinct). */
export function withIds(ids: readonly string[], added: Iterable<string>): string[] {
  return normaliseIds([...ids, ...added]);
}

/** `ids` without `removed`. */
export function withoutIds(ids: readonly string[], removed: Iterable<string>): string[] {
  const drop = new Set(removed);
  return ids.filter((id) => !drop.has(id));
}

/**
 * The transaction operation that leaves an index entity (read under `etag`) holding `ids`: its
 * delete when none are left, otherwise its replacement, conditional on `etag` either way.
 */
export function lastNameIndexWrite(
  partitionKey: string,
  lastName: string,
  ids: string[],
  etag: string,
): EntityGroupAction {
  return ids.length === 0
    ? ['delete', { partitionKey, rowKey: lastNameRowKey(lastName) }, { etag }]
    : ['update', lastNameIndexEntity(partitionKey, { lastName, ids }), 'Replace', { etag }];
}

/**
 * The transaction operation that takes ids out of an index entity read as `index` (possibly from
 * a process's version cache): its rewrite (or delete) without them, conditional on the ETag read
 * — and, when it lists none of them, a Merge of its keys alone under that ETag, which changes
 * nothing but still fails the transaction if the entity changed since. So "nothing to remove" is
 * decided from the very version the transaction is conditional on: a stale cached version (another
 * process added one of the ids since) costs a 412 and a retry on fresh reads, never an id left
 * behind.
 *
 * @returns the operation and the ids the entity holds after it.
 */
export function lastNameIndexRemoval(
  partitionKey: string,
  index: Versioned<LastNameIndex>,
  removed: Iterable<string>,
): { action: EntityGroupAction; ids: string[] } {
  const ids = withoutIds(index.value.ids, removed);
  if (ids.length < index.value.ids.length) {
    return { action: lastNameIndexWrite(partitionKey, index.value.lastName, ids, index.etag), ids };
  }
  const keys = { partitionKey, rowKey: lastNameRowKey(index.value.lastName) };
  return {
    action: [
      'update',
      { ...keys, [ENTITY_TYPE_PROPERTY]: EntityTypes.lastNameIndex },
      'Merge',
      { etag: index.etag },
    ],
    ids,
  };
}
