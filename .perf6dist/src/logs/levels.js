"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LOG_LEVELS = void 0;
exports.isLogLevel = isLogLevel;
exports.levelBit = levelBit;
exports.levelMask = levelMask;
exports.levelsOfMask = levelsOfMask;
exports.formatLogType = formatLogType;
exports.parseLogType = parseLogType;
exports.parseLevelFilter = parseLevelFilter;
/**
 * Log levels, their order, and the compact mask that block ids and the `LogType` metadata carry.
 */
const errors_1 = require("../errors");
/** Accepted levels, in the fixed order `LogType` lists them. */
exports.LOG_LEVELS = ['Verbose', 'Information', 'Warning', 'Error', 'Critical'];
const LEVEL_BITS = new Map(exports.LOG_LEVELS.map((level, index) => [level, 1 << index]));
/** True for one of {@link LOG_LEVELS} (exact spelling). */
function isLogLevel(value) {
    return LEVEL_BITS.has(value);
}
/** The bit of one level in a level mask. */
function levelBit(level) {
    return LEVEL_BITS.get(level);
}
/** The mask of a set of levels. */
function levelMask(levels) {
    let mask = 0;
    for (const level of levels)
        mask |= levelBit(level);
    return mask;
}
/** The levels of a mask, in {@link LOG_LEVELS} order. */
function levelsOfMask(mask) {
    return exports.LOG_LEVELS.filter((level) => (mask & levelBit(level)) !== 0);
}
/** `LogType` metadata value: the levels present, comma-separated, e.g. `Information,Error`. */
function formatLogType(mask) {
    return levelsOfMask(mask).join(',');
}
/** Reverses {@link formatLogType}; unknown names are ignored (older or foreign writers). */
function parseLogType(logType) {
    let mask = 0;
    for (const name of logType.split(',')) {
        const trimmed = name.trim();
        if (isLogLevel(trimmed))
            mask |= levelBit(trimmed);
    }
    return mask;
}
/**
 * Parses a comma-separated level filter such as `Error,Critical`.
 *
 * @throws {ValidationError} for an empty list or a name that is not a level.
 */
function parseLevelFilter(value, target = 'query.level') {
    const names = value.split(',').map((name) => name.trim());
    const levels = [];
    for (const name of names) {
        if (!isLogLevel(name)) {
            throw new errors_1.ValidationError(`${target}: "${name}" is not a log level; use a comma-separated list of ${exports.LOG_LEVELS.join(', ')}.`, target, 'InvalidLevel');
        }
        if (!levels.includes(name))
            levels.push(name);
    }
    return levels;
}
//# sourceMappingURL=levels.js.map