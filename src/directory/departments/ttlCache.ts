/**
 * A process-local cache whose entries expire after a fixed time (client-side join cache): the
 * department list changes rarely and is read often, so a few seconds of staleness across
 * instances buys most reads for free. Writers in this process clear it at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 1_000,
  ) {}

  /** The cached value, if present and not expired. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Caches a value (nothing is cached with a TTL of 0). */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  /** Drops everything (after a change in this process). */
  clear(): void {
    this.entries.clear();
  }
}
