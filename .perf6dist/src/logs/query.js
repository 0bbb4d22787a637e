"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_QUERY_WINDOW_MS = void 0;
exports.validateLogQuery = validateLogQuery;
exports.hourPrefixesOf = hourPrefixesOf;
exports.queryLogs = queryLogs;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const levels_1 = require("./levels");
const lineFormat_1 = require("./lineFormat");
const metadata_1 = require("./metadata");
const parallel_1 = require("./parallel");
/** Widest window one query may cover. */
exports.MAX_QUERY_WINDOW_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Blobs downloaded at once. */
const DOWNLOAD_CONCURRENCY = 4;
/**
 * Checks a query's window and source.
 *
 * @throws {ValidationError} for an invalid source, `to` before `from`, or a window over 24 hours.
 */
function validateLogQuery(query) {
    if (!(0, keys_1.isLogSource)(query.source)) {
        throw new errors_1.ValidationError('query.source: must be 1-63 lowercase letters, digits or "-", starting with a letter or digit.', 'query.source', 'InvalidSource');
    }
    if (query.to.getTime() < query.from.getTime()) {
        throw new errors_1.ValidationError('query.to: must not be before query.from.', 'query.to', 'InvalidTimeWindow');
    }
    if (query.to.getTime() - query.from.getTime() > exports.MAX_QUERY_WINDOW_MS) {
        throw new errors_1.ValidationError('query.to: the window from query.from to query.to may span at most 24 hours.', 'query.to', 'TimeWindowTooWide');
    }
}
/** The hour prefixes a window `[from, to)` touches, oldest first. */
function hourPrefixesOf(source, from, to) {
    const prefixes = [];
    for (let hour = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS; hour < to.getTime(); hour += HOUR_MS) {
        prefixes.push((0, keys_1.logHourPrefix)(source, new Date(hour)));
    }
    return prefixes;
}
/**
 * Returns the matching entries in time order (entries of equal time keep their stored order).
 *
 * @throws {ValidationError} for an invalid query (see {@link validateLogQuery}).
 * @throws {TooLargeError} when more than `maxQueryEntries` entries match.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
async function queryLogs(container, query, limits) {
    validateLogQuery(query);
    const from = query.from.getTime();
    const to = query.to.getTime();
    const wanted = query.levels && query.levels.length > 0 ? (0, levels_1.levelMask)(query.levels) : (0, levels_1.levelMask)(levels_1.LOG_LEVELS);
    const prefixes = hourPrefixesOf(query.source, query.from, query.to);
    const stats = { hourPrefixes: prefixes, blobsListed: 0, blobsRead: 0 };
    const listed = await (0, parallel_1.mapLimited)(prefixes, DOWNLOAD_CONCURRENCY, (prefix) => listHour(container, prefix));
    const blobNames = [];
    for (const outcome of listed) {
        if (outcome.status === 'rejected')
            throw outcome.reason;
        for (const blob of outcome.value) {
            stats.blobsListed++;
            const meta = (0, metadata_1.parseLogBlobMetadata)(blob.metadata);
            if (meta) {
                // Metadata times are truncated to the second: the blob holds entries in [start, end + 1 s).
                if (meta.startTime.getTime() >= to || meta.endTime.getTime() + 1000 <= from)
                    continue;
                if ((meta.levelMask & wanted) === 0)
                    continue;
            }
            blobNames.push(blob.name);
        }
    }
    let matched = 0;
    const read = await (0, parallel_1.mapLimited)(blobNames, DOWNLOAD_CONCURRENCY, async (name) => {
        stats.blobsRead++;
        const entries = [];
        await forEachLine(container, name, (line) => {
            const header = (0, lineFormat_1.readLineHeader)(line);
            if (header.atMs < from || header.atMs >= to || ((0, levels_1.levelBit)(header.level) & wanted) === 0)
                return;
            if (++matched > limits.maxQueryEntries) {
                throw new errors_1.TooLargeError(`More than ${limits.maxQueryEntries} entries match; narrow the time window or the levels.`, 'TooManyLogEntries');
            }
            entries.push((0, lineFormat_1.decodeLogLine)(line, header).entry);
        });
        return entries;
    });
    const items = [];
    for (const outcome of read) {
        if (outcome.status === 'rejected')
            throw outcome.reason;
        items.push(...outcome.value);
    }
    // Blobs were read in name order (hour, then NNNNNN) and lines in stored order; sort is stable.
    items.sort((a, b) => a.at.getTime() - b.at.getTime());
    return { items, stats };
}
async function listHour(container, prefix) {
    return (0, errors_2.withStorageErrors)(async () => {
        const blobs = [];
        try {
            for await (const item of container.listBlobsFlat({ prefix, includeMetadata: true })) {
                if ((0, keys_1.parseLogBlobName)(item.name))
                    blobs.push({ name: item.name, metadata: item.metadata });
            }
        }
        catch (error) {
            // No container yet: nothing was ever logged.
            if (!(0, errors_2.isNotFound)(error))
                throw error;
        }
        return blobs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    });
}
/** Streams a blob and calls `onLine` for each line (UTF-8, split on the byte 0x0A). */
async function forEachLine(container, blobName, onLine) {
    await (0, errors_2.withStorageErrors)(async () => {
        let response;
        try {
            response = await container
                .getBlobClient(blobName)
                .download(0, undefined, { maxRetryRequests: 5 });
        }
        catch (error) {
            // Deleted since it was listed (retention): nothing left to read.
            if ((0, errors_2.isNotFound)(error))
                return;
            throw error;
        }
        const body = response.readableStreamBody;
        if (!body)
            return;
        let carry = Buffer.alloc(0);
        for await (const chunk of body) {
            const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
            let start = 0;
            for (let end = bytes.indexOf(0x0a, start); end >= 0; end = bytes.indexOf(0x0a, start)) {
                if (end > start)
                    onLine(bytes.toString('utf8', start, end));
                start = end + 1;
            }
            carry = bytes.subarray(start);
        }
        if (carry.length > 0)
            onLine(carry.toString('utf8'));
    });
}
//# sourceMappingURL=query.js.map