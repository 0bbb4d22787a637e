"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TtlCache = void 0;
/**
 * A process-local cache whose entries expire after a fixed time (client-side join cache): the
 * department list changes rarely and is read often, so a few seconds of staleness across
 * instances buys most reads for free. Writers in this process clear it at once.
 */
class TtlCache {
    ttlMs;
    now;
    maxEntries;
    entries = new Map();
    constructor(ttlMs, now = Date.now, maxEntries = 1_000) {
        this.ttlMs = ttlMs;
        this.now = now;
        this.maxEntries = maxEntries;
    }
    /** The cached value, if present and not expired. */
    get(key) {
        const entry = this.entries.get(key);
        if (!entry)
            return undefined;
        if (entry.expires <= this.now()) {
            this.entries.delete(key);
            return undefined;
        }
        return entry.value;
    }
    /** Caches a value (nothing is cached with a TTL of 0). */
    set(key, value) {
        if (this.ttlMs <= 0)
            return;
        if (this.entries.size >= this.maxEntries)
            this.entries.clear();
        this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    }
    /** Drops everything (after a change in this process). */
    clear() {
        this.entries.clear();
    }
}
exports.TtlCache = TtlCache;
//# sourceMappingURL=ttlCache.js.map