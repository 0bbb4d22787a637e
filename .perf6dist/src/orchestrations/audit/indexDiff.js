"use strict";
/**
 * Comparing what an index should hold with what it holds (pure): entries are matched by key,
 * and an entry that exists on both sides is stale when its content differs.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.diffIndex = diffIndex;
exports.dataFingerprint = dataFingerprint;
exports.byKey = byKey;
/**
 * Compares two keyed collections.
 *
 * @param same - true when a stored entry holds what the expected one says.
 */
function diffIndex(expected, stored, same) {
    const diff = { checked: 0, missing: [], differing: [], orphaned: [] };
    for (const [key, entry] of expected) {
        diff.checked++;
        const found = stored.get(key);
        if (found === undefined)
            diff.missing.push(entry);
        else if (!same(entry, found))
            diff.differing.push({ expected: entry, stored: found });
    }
    for (const [key, entry] of stored) {
        if (!expected.has(key)) {
            diff.checked++;
            diff.orphaned.push(entry);
        }
    }
    return diff;
}
/** Properties a read adds that are not data (keys, ETag, timestamp, OData annotations). */
const NOT_DATA = new Set(['partitionKey', 'rowKey', 'etag', 'timestamp']);
/**
 * The data properties of an entity as canonical JSON (sorted names, keys and bookkeeping left
 * out), so two entities compare equal exactly when they hold the same data.
 */
function dataFingerprint(entity, ignore = []) {
    const names = Object.keys(entity)
        .filter((name) => !NOT_DATA.has(name) && !name.startsWith('odata.') && !ignore.includes(name))
        .sort();
    return JSON.stringify(names.map((name) => [name, entity[name]]));
}
/** Map of items by a key. */
function byKey(items, key) {
    const map = new Map();
    for (const item of items)
        map.set(key(item), item);
    return map;
}
//# sourceMappingURL=indexDiff.js.map