"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EXCLUSIVITY_MARGIN_MS = exports.DRAIN_VISIBILITY_SECONDS = void 0;
exports.flushLogMessages = flushLogMessages;
exports.drainAndFlush = drainAndFlush;
exports.pendingFromDelivery = pendingFromDelivery;
const errors_1 = require("../storage/errors");
const queue_1 = require("../storage/queue");
const batchMessage_1 = require("./batchMessage");
const hourWriter_1 = require("./hourWriter");
const parallel_1 = require("./parallel");
const HOUR_MS = 3_600_000;
/** Hours written in parallel by one flush. */
const HOUR_CONCURRENCY = 4;
/** Queue visibility of drained messages: long enough for a flush, short enough to retry soon. */
exports.DRAIN_VISIBILITY_SECONDS = 60;
/** Covers clock skew and request latency when reasoning about visibility deadlines. */
exports.EXCLUSIVITY_MARGIN_MS = 15_000;
/**
 * Writes the lines of `messages`: one block and one Put Block List per touched hour-blob.
 *
 * @param clock - current epoch ms (tests move it to simulate slow flushers).
 * @returns which messages are now fully stored and which are not; it throws only for bugs.
 */
async function flushLogMessages(container, messages, limits, clock = Date.now) {
    const groups = new Map();
    const seenTags = new Set();
    for (const pending of messages) {
        const { message, tag, headers } = pending.decoded;
        // The same part twice in one flush (it was sent twice) is written once.
        if (seenTags.has(tag))
            continue;
        seenTags.add(tag);
        headers.forEach((header, index) => {
            const hour = Math.floor(header.atMs / HOUR_MS) * HOUR_MS;
            const key = `${message.source}/${hour}`;
            let group = groups.get(key);
            if (!group) {
                group = {
                    source: message.source,
                    hourStart: new Date(hour),
                    parts: new Map(),
                    messages: new Set(),
                };
                groups.set(key, group);
            }
            group.messages.add(pending);
            let part = group.parts.get(tag);
            if (!part) {
                part = {
                    tag,
                    lines: [],
                    headers: [],
                    dequeueCount: pending.dequeueCount,
                    exclusiveUntil: pending.exclusiveUntil,
                };
                group.parts.set(tag, part);
            }
            part.lines.push(message.lines[index]);
            part.headers.push(header);
        });
    }
    const list = [...groups.values()];
    const outcomes = await (0, parallel_1.mapLimited)(list, HOUR_CONCURRENCY, (group) => (0, hourWriter_1.appendToHour)(container, group.source, group.hourStart, [...group.parts.values()], limits, clock));
    const failures = new Map();
    const hours = [];
    outcomes.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') {
            hours.push(outcome.value);
            return;
        }
        for (const message of list[index].messages) {
            if (!failures.has(message.decoded.tag))
                failures.set(message.decoded.tag, outcome.reason);
        }
    });
    const flushed = [];
    const failed = [];
    for (const message of messages) {
        const error = failures.get(message.decoded.tag);
        if (error === undefined)
            flushed.push(message);
        else
            failed.push({ message, error });
    }
    return { flushed, failed, linesWritten: hours.reduce((n, h) => n + h.linesWritten, 0), hours };
}
/** Most messages one receive request returns. */
const RECEIVE_BATCH = 32;
/** Deletes in flight while acknowledging (the queue service handles many parallel requests). */
const DELETE_CONCURRENCY = 64;
/**
 * Takes messages from the queue in rounds of up to `maxMessages`, writes each round (the first
 * together with the trigger's message), and deletes the drained messages whose lines are stored.
 *
 * @throws {DomainError} when the queue cannot be read (after the SDK's retries); failures to write
 * are reported in the result instead, so the caller decides whether its trigger message failed.
 */
async function drainAndFlush(options) {
    const { container, queue, limits, trigger, maxMessages } = options;
    const maxFlushes = options.maxFlushes ?? 1;
    const visibilitySeconds = options.visibilitySeconds ?? exports.DRAIN_VISIBILITY_SECONDS;
    const clock = options.clock ?? Date.now;
    const total = {
        flushed: [],
        failed: [],
        linesWritten: 0,
        hours: [],
        drained: 0,
        acknowledged: 0,
        undecodable: 0,
        triggerFlushed: trigger === undefined,
        flushes: 0,
    };
    const acknowledger = new Acknowledger(queue, DELETE_CONCURRENCY);
    // Round n + 1 is received while round n is written, and round n's deletes run behind both:
    // receive, write and delete overlap instead of taking turns.
    let next = receiveRound(queue, maxMessages, visibilitySeconds, clock);
    try {
        for (let round = 0; round < maxFlushes && next; round++) {
            let current;
            try {
                current = await next;
            }
            catch (error) {
                // The first round must read the queue; later rounds only stop draining.
                if (round === 0)
                    throw error;
                break;
            }
            next = undefined;
            const { received, undecodable, exhausted } = current;
            total.drained += received.length;
            total.undecodable += undecodable;
            if (!exhausted && round + 1 < maxFlushes) {
                next = receiveRound(queue, maxMessages, visibilitySeconds, clock);
                // Awaited in the next iteration; a rejection left unawaited must not crash the process.
                next.catch(() => undefined);
            }
            const pending = received.map((r) => r.pending);
            if (round === 0 && trigger)
                pending.unshift(trigger);
            if (pending.length === 0)
                break;
            const result = await flushLogMessages(container, pending, limits, clock);
            total.flushes++;
            total.flushed.push(...result.flushed);
            total.failed.push(...result.failed);
            total.linesWritten += result.linesWritten;
            total.hours.push(...result.hours);
            const stored = new Set(result.flushed);
            if (round === 0 && trigger)
                total.triggerFlushed = stored.has(trigger);
            acknowledger.add(received.filter((r) => stored.has(r.pending)));
            // Messages of a prefetched round are left invisible and come back after the visibility
            // timeout (as redeliveries): stopping after a failed write is a back-off.
            if (result.failed.length > 0)
                break;
        }
    }
    finally {
        // A failed delete is harmless: the message comes back and is found already stored.
        total.acknowledged = await acknowledger.settle();
    }
    return total;
}
/**
 * Deletes acknowledged messages with a fixed number in flight, across rounds: one pool, so the
 * deletes of several rounds neither stack up nor wait for each other's stragglers.
 */
class Acknowledger {
    queue;
    concurrency;
    waiting = [];
    inFlight = 0;
    deleted = 0;
    idle;
    constructor(queue, concurrency) {
        this.queue = queue;
        this.concurrency = concurrency;
    }
    add(messages) {
        this.waiting.push(...messages);
        while (this.inFlight < this.concurrency && this.waiting.length > 0)
            this.startOne();
    }
    /** Resolves with the number of messages deleted once every added delete has finished. */
    settle() {
        if (this.inFlight === 0)
            return Promise.resolve(this.deleted);
        return new Promise((resolve) => {
            this.idle = () => resolve(this.deleted);
        });
    }
    startOne() {
        const message = this.waiting.shift();
        this.inFlight++;
        this.queue.deleteMessage(message.messageId, message.popReceipt).then(() => this.finish(true), () => this.finish(false));
    }
    finish(deleted) {
        this.inFlight--;
        if (deleted)
            this.deleted++;
        if (this.waiting.length > 0)
            this.startOne();
        else if (this.inFlight === 0)
            this.idle?.();
    }
}
/** Receives up to `wanted` messages with parallel requests of up to 32 each. */
async function receiveRound(queue, wanted, visibilitySeconds, clock) {
    const requests = Array.from({ length: Math.ceil(wanted / RECEIVE_BATCH) }, (_, i) => Math.min(RECEIVE_BATCH, wanted - i * RECEIVE_BATCH));
    const startedAt = clock();
    const responses = await Promise.all(requests.map((count) => (0, errors_1.withStorageErrors)(async () => {
        try {
            return await queue.receiveMessages({
                numberOfMessages: count,
                visibilityTimeout: visibilitySeconds,
            });
        }
        catch (error) {
            if ((0, errors_1.isNotFound)(error))
                return undefined;
            throw error;
        }
    })));
    const received = [];
    let undecodable = 0;
    let exhausted = false;
    responses.forEach((response, i) => {
        const items = response?.receivedMessageItems ?? [];
        if (items.length < requests[i])
            exhausted = true;
        for (const item of items) {
            try {
                received.push({
                    pending: {
                        decoded: (0, batchMessage_1.decodeLogBatchMessage)((0, queue_1.decodeQueueMessage)(item.messageText)),
                        dequeueCount: item.dequeueCount,
                        exclusiveUntil: startedAt + visibilitySeconds * 1000 - exports.EXCLUSIVITY_MARGIN_MS,
                    },
                    messageId: item.messageId,
                    popReceipt: item.popReceipt,
                });
            }
            catch {
                // Left invisible: once it reappears the trigger gets it, fails, and the host poisons it.
                undecodable++;
            }
        }
    });
    return { received, undecodable, exhausted };
}
/**
 * Turns a delivered `log-batches` payload into a message to flush. Without `nextVisibleTime` the
 * message is assumed to stay invisible for {@link DRAIN_VISIBILITY_SECONDS} from now (the Functions
 * host keeps extending it while the invocation runs).
 *
 * @throws {ValidationError} when the payload is not a log-batches message.
 */
function pendingFromDelivery(payload, delivery, clock = Date.now) {
    const visibleAt = delivery.nextVisibleTime?.getTime();
    return {
        decoded: (0, batchMessage_1.decodeLogBatchMessage)(payload),
        dequeueCount: delivery.dequeueCount,
        exclusiveUntil: (visibleAt !== undefined && !Number.isNaN(visibleAt)
            ? visibleAt
            : clock() + exports.DRAIN_VISIBILITY_SECONDS * 1000) - exports.EXCLUSIVITY_MARGIN_MS,
    };
}
//# sourceMappingURL=flush.js.map