/**
 * A map that keeps only its most recently used entries: the in-process caches of versions (ETags
 * and what they stood for) that writers and drainers use instead of reading again. A cached version
 * only ever serves as the condition of a write, so a stale one costs a failed write and a read,
 * never a wrong result; the bound keeps a long-lived process's memory flat.
 */
import { notPositiveInteger } from './storageErrors';

export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  /**
   * @param maxEntries - entries kept; the least recently used go first.
   * @param onEvict - told of each entry dropped for room (not of `delete` or `clear`).
   */
  constructor(
    private readonly maxEntries = 10_000,
    private readonly onEvict?: (key: K) => void,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw notPositiveInteger('maxEntries', maxEntries);
    }
  }

  /** The entry under `key`, now the most recently used; `undefined` when there is none. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * Stores `value` as the most recently used entry, dropping the least recently used past the
   * bound.
   */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
      this.onEvict?.(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
