"use strict";
/**
 * The audit's report: how many index entries were checked, how many the primary entities imply
 * but storage lacks (`missing`), how many storage holds that are wrong or orphaned (`stale`), and
 * how many of those were fixed (`repaired`).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.noCounts = noCounts;
exports.addCounts = addCounts;
exports.mergeByIndex = mergeByIndex;
exports.totalOf = totalOf;
/** All zero. */
function noCounts() {
    return { checked: 0, missing: 0, stale: 0, repaired: 0 };
}
/** The sum of some counts (pure). */
function addCounts(...all) {
    const sum = noCounts();
    for (const c of all) {
        sum.checked += c.checked;
        sum.missing += c.missing;
        sum.stale += c.stale;
        sum.repaired += c.repaired;
    }
    return sum;
}
/** Per-index sums of several per-index reports (pure). */
function mergeByIndex(...reports) {
    const merged = {};
    for (const report of reports) {
        for (const [kind, counts] of Object.entries(report)) {
            merged[kind] = addCounts(merged[kind] ?? noCounts(), counts);
        }
    }
    return merged;
}
/** The total over every index of a per-index report (pure). */
function totalOf(report) {
    return addCounts(...Object.values(report));
}
//# sourceMappingURL=auditCounts.js.map