"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NEVER = void 0;
exports.checkPastDue = checkPastDue;
exports.statusAfterRun = statusAfterRun;
/** .NET's `default(DateTime)`, which the host records as `Last` before the first run. */
exports.NEVER = '0001-01-01T00:00:00';
/** Decides whether a timer missed an occurrence while the host was down. */
function checkPastDue(stored, schedule, now) {
    const fresh = () => ({
        Last: exports.NEVER,
        Next: schedule.next(now).toISOString(),
        LastUpdated: now.toISOString(),
    });
    if (!stored)
        return { status: fresh(), changed: true, pastDue: false };
    const recordedNext = Date.parse(stored.Next);
    const from = stored.Last === exports.NEVER ? Date.parse(stored.LastUpdated) : Date.parse(stored.Last);
    if (Number.isNaN(recordedNext) || Number.isNaN(from))
        return { status: fresh(), changed: true, pastDue: false };
    const expectedNext = schedule.next(new Date(from)).getTime();
    if (expectedNext !== recordedNext)
        return { status: fresh(), changed: true, pastDue: false };
    return { status: stored, changed: false, pastDue: now.getTime() > recordedNext };
}
/** The status after a run at `occurrence`, finishing at `now`. */
function statusAfterRun(schedule, occurrence, now) {
    const next = schedule.next(occurrence.getTime() > now.getTime() ? occurrence : now);
    return {
        Last: occurrence.toISOString(),
        Next: next.toISOString(),
        LastUpdated: now.toISOString(),
    };
}
//# sourceMappingURL=scheduleStatus.js.map