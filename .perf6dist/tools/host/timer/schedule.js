"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScheduleError = void 0;
exports.parseSchedule = parseSchedule;
exports.isMonitorable = isMonitorable;
/**
 * Timer trigger schedules: six-field NCRONTAB expressions (`{second} {minute} {hour} {day}
 * {month} {day-of-week}`, evaluated in UTC) parsed by `cron-parser`, or a TimeSpan interval
 * (`hh:mm:ss`) as the Functions host also accepts. Cron extensions NCRONTAB lacks (`L`, `W`,
 * `#`, `?`, `@daily`, five-field forms) are refused, as Azure refuses them.
 */
const cron_parser_1 = require("cron-parser");
const timeSpan_1 = require("../config/timeSpan");
/** The schedule is neither NCRONTAB nor a TimeSpan. */
class ScheduleError extends Error {
    constructor(expression, reason) {
        super(`The schedule expression '${expression}' was not recognized as a valid cron expression or timespan string: ${reason}`);
        this.name = 'ScheduleError';
    }
}
exports.ScheduleError = ScheduleError;
const NON_NCRONTAB = /[?#]|(^|[\d,/-])[LWH](?=$|[\d,/-])|\d[LW]/i;
function parseCron(text, fields) {
    for (const field of fields) {
        if (!/^[\dA-Za-z*,/-]+$/.test(field) || NON_NCRONTAB.test(field)) {
            throw new ScheduleError(text, `field '${field}' uses syntax NCRONTAB does not support.`);
        }
    }
    const expression = fields.join(' ');
    try {
        cron_parser_1.CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    }
    catch (error) {
        throw new ScheduleError(text, error.message);
    }
    return {
        text,
        next: (after) => cron_parser_1.CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: after }).next().toDate(),
    };
}
/**
 * Parses a timer schedule.
 *
 * @throws {ScheduleError} naming the expression and the reason.
 */
function parseSchedule(text) {
    const trimmed = text.trim();
    if (trimmed === '')
        throw new ScheduleError(text, 'it is empty.');
    const fields = trimmed.split(/\s+/);
    if (fields.length === 6)
        return parseCron(text, fields);
    if (fields.length === 1 && /^[\d.:]+$/.test(trimmed)) {
        let intervalMs;
        try {
            intervalMs = (0, timeSpan_1.parseTimeSpan)(trimmed, 'schedule');
        }
        catch (error) {
            throw new ScheduleError(text, error.message);
        }
        if (intervalMs <= 0)
            throw new ScheduleError(text, 'the interval must be positive.');
        return { text, next: (after) => new Date(after.getTime() + intervalMs) };
    }
    throw new ScheduleError(text, `NCRONTAB needs six fields ({second} {minute} {hour} {day} {month} {day-of-week}), got ${fields.length}.`);
}
/**
 * The host monitors a schedule (persists its status, detects missed runs) only when its
 * occurrences are at least a minute apart.
 */
function isMonitorable(schedule, now) {
    const first = schedule.next(now);
    const second = schedule.next(first);
    return second.getTime() - first.getTime() >= 60_000;
}
//# sourceMappingURL=schedule.js.map