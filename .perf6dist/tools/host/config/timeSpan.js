"use strict";
/**
 * .NET `TimeSpan` text as host.json writes durations: `[-][d.]hh:mm[:ss[.fffffff]]`.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseTimeSpan = parseTimeSpan;
exports.formatTimeSpan = formatTimeSpan;
/**
 * Parses a TimeSpan into milliseconds.
 *
 * @throws {Error} naming `what` when the text is not a TimeSpan.
 */
function parseTimeSpan(text, what) {
    const match = /^\s*(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?\s*$/.exec(text);
    if (!match) {
        throw new Error(`${what} must be a TimeSpan like "00:00:30" ([d.]hh:mm[:ss[.fff]]), got "${text}".`);
    }
    const [, minus, days, hours, minutes, seconds, fraction] = match;
    const h = Number(hours);
    const m = Number(minutes);
    const s = Number(seconds ?? 0);
    if (h > 23 || m > 59 || s > 59) {
        throw new Error(`${what} has an hour, minute or second out of range: "${text}".`);
    }
    const ms = ((Number(days ?? 0) * 24 + h) * 60 + m) * 60_000 +
        s * 1000 +
        Math.round(Number(`0.${fraction ?? '0'}`) * 1000);
    return minus ? -ms : ms;
}
/** Formats milliseconds as `hh:mm:ss` (with `.fff` when not whole seconds). */
function formatTimeSpan(ms) {
    const pad = (n, width = 2) => String(n).padStart(width, '0');
    const totalSeconds = Math.floor(ms / 1000);
    const millis = ms - totalSeconds * 1000;
    const base = `${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor((totalSeconds % 3600) / 60))}:${pad(totalSeconds % 60)}`;
    return millis > 0 ? `${base}.${pad(millis, 3)}` : base;
}
//# sourceMappingURL=timeSpan.js.map