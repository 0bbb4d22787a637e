"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.acceptLogBatch = acceptLogBatch;
/**
 * Accepting a `POST /logs` batch: it is durable once its queue message(s) are stored, and only then
 * does the caller hear "accepted". The flusher turns messages into blob lines later.
 *
 * A batch too big for one queue message is split into parts. To keep the batch all-or-nothing, the
 * parts are first sent invisible; if one send fails, the parts already sent are deleted (nobody can
 * have received them yet) and the caller gets the error; once all are stored they are made visible.
 */
const node_crypto_1 = require("node:crypto");
const errors_1 = require("../storage/errors");
const queue_1 = require("../storage/queue");
const batchMessage_1 = require("./batchMessage");
/** How long the parts of a multi-part batch stay hidden while the rest is being sent. */
const HIDDEN_PARTS_SECONDS = 60;
async function send(queue, text, visibilityTimeout) {
    const attempt = () => queue
        .sendMessage(text, { visibilityTimeout })
        .then((r) => ({ messageId: r.messageId, popReceipt: r.popReceipt, text }));
    return (0, errors_1.withStorageErrors)(async () => {
        try {
            return await attempt();
        }
        catch (error) {
            // A fresh deployment (or test) may not have the queue yet; the trigger creates it too.
            if (!(0, errors_1.isNotFound)(error))
                throw error;
            await queue.createIfNotExists();
            return attempt();
        }
    });
}
/**
 * Stores a validated batch durably on the `log-batches` queue.
 *
 * @returns the batch id and how many entries and queue messages it became.
 * @throws {TooLargeError} when one entry alone is too large for a queue message.
 * @throws {DomainError} for storage faults left after the SDK's retries (nothing of the batch
 * stays queued, unless the clean-up itself failed).
 */
async function acceptLogBatch(queue, batch) {
    const batchId = (0, node_crypto_1.randomUUID)();
    const texts = (0, batchMessage_1.splitIntoMessages)(batchId, batch.source, batch.entries).map(queue_1.encodeQueueMessage);
    const accepted = { batchId, entries: batch.entries.length, messages: texts.length };
    if (texts.length === 1) {
        await send(queue, texts[0]);
        return accepted;
    }
    const results = await Promise.allSettled(texts.map((text) => send(queue, text, HIDDEN_PARTS_SECONDS)));
    const sent = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failure = results.find((r) => r.status === 'rejected');
    if (failure) {
        await Promise.allSettled(sent.map((m) => queue.deleteMessage(m.messageId, m.popReceipt)));
        throw failure.reason;
    }
    // Revealing is an optimisation: a part whose reveal fails becomes visible by itself shortly.
    await Promise.allSettled(sent.map((m) => queue.updateMessage(m.messageId, m.popReceipt, m.text, 0)));
    return accepted;
}
//# sourceMappingURL=ingest.js.map