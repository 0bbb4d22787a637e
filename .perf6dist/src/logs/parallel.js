"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mapLimited = mapLimited;
/** Runs `task` over `items` with at most `limit` in flight; results keep the input order. */
async function mapLimited(items, limit, task) {
    const results = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const index = next++;
            try {
                results[index] = { status: 'fulfilled', value: await task(items[index], index) };
            }
            catch (reason) {
                results[index] = { status: 'rejected', reason };
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
}
//# sourceMappingURL=parallel.js.map