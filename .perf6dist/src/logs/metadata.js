"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.formatMetadataTime = formatMetadataTime;
exports.metadataOfBlocks = metadataOfBlocks;
exports.parseLogBlobMetadata = parseLogBlobMetadata;
/**
 * Log blob metadata, as Storage Analytics writes it: `StartTime` and `EndTime` (first and last
 * entry, to the second), `LogVersion`, and `LogType` (the levels present). Queries skip a blob
 * whose time range or levels cannot match without downloading it.
 */
const levels_1 = require("./levels");
const lineFormat_1 = require("./lineFormat");
/** `YYYY-MM-DDThh:mm:ssZ`. */
function formatMetadataTime(at) {
    return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
/** The metadata of a blob made of these blocks, all in the hour starting at `hourStart`. */
function metadataOfBlocks(hourStart, blocks) {
    if (blocks.length === 0)
        throw new Error('A log blob needs at least one block.');
    let start = Infinity;
    let end = -Infinity;
    let mask = 0;
    for (const block of blocks) {
        start = Math.min(start, block.startSecond);
        end = Math.max(end, block.endSecond);
        mask |= block.levelMask;
    }
    return {
        StartTime: formatMetadataTime(new Date(hourStart.getTime() + start * 1000)),
        EndTime: formatMetadataTime(new Date(hourStart.getTime() + end * 1000)),
        LogVersion: lineFormat_1.LOG_FORMAT_VERSION,
        LogType: (0, levels_1.formatLogType)(mask),
    };
}
/**
 * Reads the metadata of a listed blob (names matched case-insensitively: the service may return
 * them in another case than written).
 *
 * @returns `undefined` when `StartTime` or `EndTime` is missing or malformed.
 */
function parseLogBlobMetadata(metadata) {
    if (!metadata)
        return undefined;
    const byName = new Map(Object.entries(metadata).map(([k, v]) => [k.toLowerCase(), v]));
    const time = (name) => {
        const value = byName.get(name);
        if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value))
            return undefined;
        const at = new Date(value);
        return Number.isNaN(at.getTime()) ? undefined : at;
    };
    const startTime = time('starttime');
    const endTime = time('endtime');
    if (!startTime || !endTime)
        return undefined;
    const logType = byName.get('logtype');
    return {
        startTime,
        endTime,
        // Without LogType nothing may be ruled out: assume every level.
        levelMask: logType === undefined ? 0xff : (0, levels_1.parseLogType)(logType),
        version: byName.get('logversion') ?? '',
    };
}
//# sourceMappingURL=metadata.js.map