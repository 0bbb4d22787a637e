/**
 * A small in-process cache of the last known version (content + ETag) of the entities that many
 * writes share: department entities and last-name index entities.
 *
 * Every transaction that uses a cached version is conditional on its ETag, so a stale entry can
 * never corrupt anything: the transaction fails with 412 (or 404/409), the writer drops the entry,
 * reads the entity again and retries. In the common case of one writer per department it saves the
 * reads that would otherwise precede each create or delete.
 */

/** An entity's content and the ETag it had. */
export interface Versioned<T> {
  value: T;
  etag: string;
}

/** Least-recently-used map of {@link Versioned} values. */
export class VersionCache<T> {
  private readonly entries = new Map<string, Versioned<T>>();

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string): Versioned<T> | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: Versioned<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
