"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.appendToHour = appendToHour;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const blockId_1 = require("./blockId");
const levels_1 = require("./levels");
const metadata_1 = require("./metadata");
/** Planning again after a lost race has a bound; past it the flush fails and is retried later. */
const MAX_COMMIT_ATTEMPTS = 40;
const CONTENT_TYPE = 'text/plain; charset=utf-8';
const HOUR_MS = 3_600_000;
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
/** True for the errors a lost race produces: ETag mismatch, blob created meanwhile, staged block discarded. */
function isLostRace(error) {
    const status = (0, errors_2.storageStatus)(error);
    return ((0, errors_2.isPreconditionFailed)(error) ||
        status === 409 ||
        (status === 400 && (0, errors_2.storageCode)(error) === 'InvalidBlockList'));
}
/**
 * Writes the parts' lines for the hour starting at `hourStart` into that hour's current blob,
 * skipping parts an earlier delivery already stored.
 *
 * @param clock - current epoch ms (tests move it to simulate slow flushers).
 * @throws {ConflictError} when the blob kept changing under this flusher for
 * {@link MAX_COMMIT_ATTEMPTS} attempts (the messages stay queued and are retried).
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
async function appendToHour(container, source, hourStart, parts, limits, clock = Date.now) {
    if (hourStart.getTime() % HOUR_MS !== 0)
        throw new Error(`${hourStart.toISOString()} is not the start of an hour.`);
    const requests = { list: 0, blockList: 0, download: 0, stage: 0, commit: 0 };
    const pending = new Map(parts.map((part) => [part.tag, part]));
    const alreadyStored = [];
    /** `<sequence>/<block id>` of every block proven not to hold a pending part. */
    const verified = new Set();
    const blobClient = (sequence) => container.getBlockBlobClient((0, keys_1.logBlobName)(source, hourStart, sequence));
    const read = async (sequence) => {
        const name = (0, keys_1.logBlobName)(source, hourStart, sequence);
        requests.blockList++;
        const response = await (0, errors_2.withStorageErrors)(async () => {
            try {
                return await blobClient(sequence).getBlockList('committed');
            }
            catch (error) {
                if ((0, errors_2.isNotFound)(error))
                    return undefined;
                throw error;
            }
        });
        let offset = 0;
        const blocks = (response?.committedBlocks ?? []).map((block) => {
            const committed = {
                name: block.name,
                size: block.size,
                offset,
                summary: (0, blockId_1.parseLogBlockId)(block.name),
            };
            offset += block.size;
            return committed;
        });
        const contentLength = response?.blobContentLength ?? 0;
        // A blob this code did not write (foreign block ids, or no block list) is never appended to.
        const foreign = blocks.some((b) => !b.summary) || (blocks.length === 0 && contentLength > 0);
        const exists = blocks.length > 0 || contentLength > 0;
        return {
            sequence,
            name,
            exists,
            etag: exists ? response?.etag : undefined,
            blocks,
            bytes: offset,
            full: foreign || blocks.length >= limits.maxBlobBlocks || offset >= limits.maxBlobBytes,
        };
    };
    /** Downloads the blocks of `view` not yet verified and drops the pending parts found in them. */
    const search = async (view) => {
        const unverified = view.blocks.filter((b) => !verified.has(`${view.sequence}/${b.name}`));
        if (unverified.length === 0)
            return;
        const first = unverified[0];
        const last = unverified[unverified.length - 1];
        requests.download++;
        const bytes = await (0, errors_2.withStorageErrors)(() => blobClient(view.sequence).downloadToBuffer(first.offset, last.offset + last.size - first.offset));
        for (const tag of tagsIn(bytes)) {
            if (pending.delete(tag))
                alreadyStored.push(tag);
        }
        for (const block of unverified)
            verified.add(`${view.sequence}/${block.name}`);
    };
    const trust = (view) => {
        for (const block of view.blocks)
            verified.add(`${view.sequence}/${block.name}`);
    };
    // First view: the newest blob that is not full.
    requests.list++;
    let view = await read(await newestSequence(container, (0, keys_1.logHourPrefix)(source, hourStart)));
    while (view.full)
        view = await read(view.sequence + 1);
    const firstViewAt = clock();
    const mayBeStoredElsewhere = parts.some((p) => p.dequeueCount > 1 || firstViewAt >= p.exclusiveUntil);
    if (mayBeStoredElsewhere) {
        for (let sequence = 0; sequence < view.sequence; sequence++)
            await search(await read(sequence));
        await search(view);
    }
    else {
        trust(view);
    }
    const attemptedIds = new Set();
    let commitAttempts = 0;
    let linesWritten = 0;
    let writtenParts = [];
    for (;;) {
        if (pending.size === 0)
            break;
        if (commitAttempts >= MAX_COMMIT_ATTEMPTS) {
            throw new errors_1.ConflictError('LogBlobContention', `Log blob ${view.name} kept changing; gave up after ${commitAttempts} attempts.`);
        }
        const block = buildBlock(hourStart, [...pending.values()]);
        attemptedIds.add(block.id);
        const client = blobClient(view.sequence);
        requests.stage++;
        await stageCreatingContainer(container, client, block.id, block.content);
        const summaries = [...view.blocks.map((b) => b.summary), block.summary];
        commitAttempts++;
        requests.commit++;
        try {
            await client.commitBlockList([...view.blocks.map((b) => b.name), block.id], {
                metadata: (0, metadata_1.metadataOfBlocks)(hourStart, summaries),
                blobHTTPHeaders: { blobContentType: CONTENT_TYPE },
                conditions: view.exists ? { ifMatch: view.etag } : { ifNoneMatch: '*' },
            });
            linesWritten = block.lines;
            writtenParts = [...pending.keys()];
            break;
        }
        catch (error) {
            if (!isLostRace(error))
                throw (0, errors_2.toDomainError)(error);
        }
        // Lost a race (or our own commit landed but its response was lost): look again.
        const again = await read(view.sequence);
        const landed = again.blocks.find((b) => attemptedIds.has(b.name));
        if (landed) {
            // Pending parts only shrink between attempts, so the landed block holds every one of them.
            linesWritten = landed.summary.lines;
            writtenParts = [...pending.keys()];
            view = again;
            break;
        }
        view = again;
        await search(view);
        while (view.full) {
            view = await read(view.sequence + 1);
            await search(view);
        }
        await sleep(Math.random() * 20 * Math.min(commitAttempts, 5));
    }
    return {
        blobName: view.name,
        linesWritten,
        writtenParts,
        alreadyStoredParts: alreadyStored,
        commitAttempts,
        requests,
    };
}
/** Highest `NNNNNN` among the hour's blobs, 0 when there are none. */
async function newestSequence(container, prefix) {
    let newest = 0;
    await (0, errors_2.withStorageErrors)(async () => {
        try {
            for await (const item of container.listBlobsFlat({ prefix })) {
                const parsed = (0, keys_1.parseLogBlobName)(item.name);
                if (parsed && parsed.sequence > newest)
                    newest = parsed.sequence;
            }
        }
        catch (error) {
            if (!(0, errors_2.isNotFound)(error))
                throw error;
        }
    });
    return newest;
}
async function stageCreatingContainer(container, client, blockId, content) {
    await (0, errors_2.withStorageErrors)(async () => {
        try {
            await client.stageBlock(blockId, content, content.length);
        }
        catch (error) {
            if ((0, errors_2.storageCode)(error) !== 'ContainerNotFound')
                throw error;
            await container.createIfNotExists();
            await client.stageBlock(blockId, content, content.length);
        }
    });
}
function buildBlock(hourStart, parts) {
    let first = Infinity;
    let last = -Infinity;
    let levelMask = 0;
    let lines = 0;
    const texts = [];
    for (const part of parts) {
        for (const header of part.headers) {
            first = Math.min(first, header.atMs);
            last = Math.max(last, header.atMs);
            levelMask |= (0, levels_1.levelBit)(header.level);
        }
        lines += part.lines.length;
        texts.push(part.lines.join('\n'));
    }
    const content = Buffer.from(texts.join('\n') + '\n', 'utf8');
    const hour = hourStart.getTime();
    const summary = {
        startSecond: Math.floor((first - hour) / 1000),
        endSecond: Math.floor((last - hour) / 1000),
        levelMask,
        lines,
    };
    return { id: (0, blockId_1.logBlockId)(summary, content), content, summary, lines };
}
/** Tags of the lines in a stretch of log blob bytes (field 4 of each line). */
function tagsIn(bytes) {
    const tags = new Set();
    for (const line of bytes.toString('utf8').split('\n')) {
        if (line === '')
            continue;
        let at = -1;
        for (let i = 0; i < 3; i++)
            at = line.indexOf(';', at + 1);
        const end = line.indexOf(';', at + 1);
        if (at >= 0 && end > at)
            tags.add(line.slice(at + 1, end));
    }
    return tags;
}
//# sourceMappingURL=hourWriter.js.map