"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MS_PER_HOUR = exports.MS_PER_DAY = void 0;
exports.isStorableInstant = isStorableInstant;
exports.assertStorableInstant = assertStorableInstant;
exports.startOfUtcDay = startOfUtcDay;
exports.addUtcDays = addUtcDays;
exports.isLeapYear = isLeapYear;
exports.daysInYear = daysInYear;
exports.utcDayOfYear = utcDayOfYear;
exports.formatUtcDay = formatUtcDay;
exports.parseUtcDay = parseUtcDay;
/**
 * UTC calendar arithmetic shared by the time-and-volume features: day tables, hourly and daily
 * counters, retention windows. Every function works in UTC; local time zones never enter.
 */
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
/** Milliseconds in one UTC day (UTC has no daylight-saving shifts; leap seconds are not counted). */
exports.MS_PER_DAY = 86_400_000;
/** Milliseconds in one hour. */
exports.MS_PER_HOUR = 3_600_000;
/** True when `at` is a real instant that keys and `DateTime` properties can hold (1601–9999 UTC). */
function isStorableInstant(at) {
    const ms = at.getTime();
    return (!Number.isNaN(ms) && ms >= keys_1.MIN_STORABLE_DATE.getTime() && ms <= keys_1.MAX_STORABLE_DATE.getTime());
}
/**
 * Checks that an instant can be stored.
 *
 * @param field - where the value came from, named in the error (e.g. `body.at`).
 * @throws {ValidationError} (`InvalidTime`) for an invalid date or one outside 1601-01-01 – 9999-12-31 UTC.
 */
function assertStorableInstant(at, field) {
    if (!isStorableInstant(at)) {
        const shown = Number.isNaN(at.getTime()) ? 'an invalid date' : at.toISOString();
        throw new errors_1.ValidationError(`${field}: ${shown} cannot be stored; use an instant between 1601-01-01 and 9999-12-31 UTC.`, field, 'InvalidTime');
    }
}
/** Midnight UTC of the day `at` falls in. */
function startOfUtcDay(at) {
    return new Date(Math.floor(at.getTime() / exports.MS_PER_DAY) * exports.MS_PER_DAY);
}
/** `day` moved by `days` whole UTC days (negative goes back). */
function addUtcDays(day, days) {
    return new Date(day.getTime() + days * exports.MS_PER_DAY);
}
/** True for a Gregorian leap year. */
function isLeapYear(year) {
    return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
/** 365 or 366. */
function daysInYear(year) {
    return isLeapYear(year) ? 366 : 365;
}
/** Day of the UTC year `at` falls in: 1 for 1 January, 366 for 31 December of a leap year. */
function utcDayOfYear(at) {
    const yearStart = new Date(0);
    yearStart.setUTCFullYear(at.getUTCFullYear(), 0, 1);
    return Math.floor((startOfUtcDay(at).getTime() - yearStart.getTime()) / exports.MS_PER_DAY) + 1;
}
/** `YYYY-MM-DD` of the UTC day `at` falls in. */
function formatUtcDay(at) {
    return at.toISOString().slice(0, 10);
}
/**
 * Midnight UTC of a `YYYY-MM-DD` calendar date, or `undefined` when the text is not a real date
 * (e.g. `2026-02-30`) or lies outside the storable years 1601–9999.
 */
function parseUtcDay(text) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!match)
        return undefined;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    return real && isStorableInstant(date) ? date : undefined;
}
//# sourceMappingURL=instants.js.map