"use strict";
/**
 * Parallel work with a ceiling on how many calls are in flight, so a request that touches many
 * tables does not open dozens of sockets at once.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.mapBounded = mapBounded;
/**
 * Maps `items` through `fn` with at most `limit` calls running at a time; results keep the items'
 * order. The first failure rejects the whole map (calls already started still finish).
 *
 * @throws whatever `fn` throws first.
 */
async function mapBounded(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
        while (!failed && next < items.length) {
            const index = next++;
            try {
                results[index] = await fn(items[index], index);
            }
            catch (error) {
                failed = true;
                throw error;
            }
        }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    return results;
}
//# sourceMappingURL=mapBounded.js.map