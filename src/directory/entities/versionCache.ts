/**
 * A small in-process cache of the last known version (content + ETag) of the entities that many
 * writes share: department entities and last-name index entities.
 *
 * Every transaction that uses a cached version is conditional on its ETag, so a stale entry can
 * never corrupt anything: the transaction fails with 412 (or 404/409), the writer drops the entry,
 * reads the entity again and retries. In the common case of one writer per department it saves the
 * reads that would otherwise precede each create or delete.
 */
import { LruMap } from '../../storage/lruMap';
import { normalizeLastName } from '../../storage/keys/text';

/** An entity's content and the ETag it had. */
export interface Versioned<T> {
  value: T;
  etag: string;
}

/** Least-recently-used map of {@link Versioned} values, by key. */
export class VersionCache<T> extends LruMap<string, Versioned<T>> {}

/** Cache key of a last-name index entity. */
export function lastNameKey(department: string, lastName: string): string {
  return `${department}\u0001${normalizeLastName(lastName)}`;
}

/** The department of a {@link lastNameKey}. */
export function departmentOfLastNameKey(key: string): string {
  return key.slice(0, key.indexOf('\u0001'));
}
