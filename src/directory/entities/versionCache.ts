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

/** An entity's content and the ETag it had. */
export interface Versioned<T> {
  value: T;
  etag: string;
}

/** Least-recently-used map of {@link Versioned} values, by key. */
export class VersionCache<T> extends LruMap<string, Versioned<T>> {}
