"use strict";
/**
 * A small in-process cache of the last known version (content + ETag) of the entities that many
 * writes share: department entities and last-name index entities.
 *
 * Every transaction that uses a cached version is conditional on its ETag, so a stale entry can
 * never corrupt anything: the transaction fails with 412 (or 404/409), the writer drops the entry,
 * reads the entity again and retries. In the common case of one writer per department it saves the
 * reads that would otherwise precede each create or delete.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.VersionCache = void 0;
/** Least-recently-used map of {@link Versioned} values. */
class VersionCache {
    maxEntries;
    entries = new Map();
    constructor(maxEntries = 10_000) {
        this.maxEntries = maxEntries;
    }
    get(key) {
        const entry = this.entries.get(key);
        if (entry) {
            this.entries.delete(key);
            this.entries.set(key, entry);
        }
        return entry;
    }
    set(key, entry) {
        this.entries.delete(key);
        this.entries.set(key, entry);
        while (this.entries.size > this.maxEntries) {
            const oldest = this.entries.keys().next().value;
            if (oldest === undefined)
                break;
            this.entries.delete(oldest);
        }
    }
    delete(key) {
        this.entries.delete(key);
    }
    clear() {
        this.entries.clear();
    }
}
exports.VersionCache = VersionCache;
//# sourceMappingURL=versionCache.js.map