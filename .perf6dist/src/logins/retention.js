"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isExpiredDay = isExpiredDay;
exports.dropExpiredLoginTables = dropExpiredLoginTables;
/**
 * The daily clean-up of the high-volume delete pattern: drop whole day tables once every attempt
 * in them is older than the retention, and create tomorrow's table ahead of its first write.
 */
const clock_1 = require("../time/clock");
const instants_1 = require("../time/instants");
const mapBounded_1 = require("./mapBounded");
/** Tables dropped at the same time. */
const DROP_CONCURRENCY = 8;
/**
 * True when every attempt a day table can hold is older than `retentionDays`: the day ended at
 * least `retentionDays` days before `now`. (An attempt at `now - retentionDays` is still kept.)
 */
function isExpiredDay(day, retentionDays, now) {
    return (0, instants_1.addUtcDays)((0, instants_1.startOfUtcDay)(day), retentionDays + 1).getTime() <= now.getTime();
}
/**
 * Drops every expired day table, one delete-table request each (never entity by entity), and
 * pre-creates tomorrow's table. Touches no table outside the exact `<prefix>YYYYMMDD` pattern.
 * Idempotent: a second run finds nothing to drop.
 *
 * @throws {DomainError} for storage faults that outlast the SDK's retries (tables dropped before
 *   the fault stay dropped; the next run continues).
 */
async function dropExpiredLoginTables(tables, retentionDays, clock = clock_1.systemClock) {
    const now = clock();
    const existing = await tables.list();
    const expired = existing.filter((table) => isExpiredDay(table.day, retentionDays, now));
    const outcomes = await (0, mapBounded_1.mapBounded)(expired, DROP_CONCURRENCY, (table) => tables.drop(table.name));
    const tomorrow = (0, instants_1.addUtcDays)((0, instants_1.startOfUtcDay)(now), 1);
    await tables.ensure(tomorrow);
    return {
        dropped: expired.filter((_, i) => outcomes[i] === 'dropped').map((t) => t.name),
        alreadyGone: expired.filter((_, i) => outcomes[i] === 'alreadyGone').map((t) => t.name),
        kept: existing
            .filter((table) => !isExpiredDay(table.day, retentionDays, now))
            .map((t) => t.name),
        preCreated: tables.nameOf(tomorrow),
    };
}
//# sourceMappingURL=retention.js.map