"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_MESSAGE_JSON_BYTES = exports.LOG_MESSAGE_VERSION = void 0;
exports.splitIntoMessages = splitIntoMessages;
exports.decodeLogBatchMessage = decodeLogBatchMessage;
/**
 * The `log-batches` queue message: one part of one accepted batch, its entries already formatted
 * as log lines. A batch larger than one queue message (64 KiB after base64) is split into several
 * parts; each part is an independent unit of work for the flusher and carries the batch id and its
 * part index, which together tag every line it delivers.
 */
const zod_1 = require("zod");
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
const queue_1 = require("../storage/queue");
const lineFormat_1 = require("./lineFormat");
/** Version of the message payload. */
exports.LOG_MESSAGE_VERSION = 1;
/** Largest JSON payload whose base64 form fits one queue message. */
exports.MAX_MESSAGE_JSON_BYTES = Math.floor(queue_1.MAX_QUEUE_MESSAGE_BYTES / 4) * 3;
/**
 * Formats a validated batch as queue messages, each under the queue's size limit.
 *
 * @throws {TooLargeError} when one entry alone does not fit in a queue message.
 */
function splitIntoMessages(batchId, source, entries) {
    // Six-digit part numbers leave room for any realistic split.
    const envelopeBytes = Buffer.byteLength(JSON.stringify({
        v: exports.LOG_MESSAGE_VERSION,
        batchId,
        part: 999_999,
        parts: 999_999,
        source,
        lines: [],
    }));
    const budget = exports.MAX_MESSAGE_JSON_BYTES - envelopeBytes;
    const messages = [];
    let current;
    let used = 0;
    entries.forEach((entry, index) => {
        if (current) {
            const line = (0, lineFormat_1.encodeLogLine)(entry, (0, lineFormat_1.batchPartTag)(batchId, current.part));
            // +1 for the comma between array items.
            const size = Buffer.byteLength(JSON.stringify(line)) + 1;
            if (used + size <= budget) {
                current.lines.push(line);
                used += size;
                return;
            }
        }
        current = {
            v: exports.LOG_MESSAGE_VERSION,
            batchId,
            part: messages.length,
            parts: 0,
            source,
            lines: [],
        };
        messages.push(current);
        const line = (0, lineFormat_1.encodeLogLine)(entry, (0, lineFormat_1.batchPartTag)(batchId, current.part));
        const size = Buffer.byteLength(JSON.stringify(line)) + 1;
        if (size > budget) {
            throw new errors_1.TooLargeError(`body.entries[${index}] is ${size} bytes once stored; one entry may take at most ${budget} bytes.`, 'LogEntryTooLarge');
        }
        current.lines.push(line);
        used = size;
    });
    for (const message of messages)
        message.parts = messages.length;
    return messages;
}
const messageSchema = zod_1.z.object({
    v: zod_1.z.literal(exports.LOG_MESSAGE_VERSION),
    batchId: zod_1.z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
    part: zod_1.z.number().int().min(0).max(999_999),
    parts: zod_1.z.number().int().min(1).max(1_000_000),
    source: zod_1.z.string().refine(keys_1.isLogSource),
    lines: zod_1.z.array(zod_1.z.string()).min(1),
});
/**
 * Checks a queue payload and reads every line's header.
 *
 * @throws {ValidationError} when the payload is not a `log-batches` message or a line is malformed
 * (the host then retries and finally moves the message to the poison queue).
 */
function decodeLogBatchMessage(payload) {
    const parsed = messageSchema.safeParse(payload);
    if (!parsed.success || parsed.data.part >= parsed.data.parts) {
        throw new errors_1.ValidationError('Not a log-batches queue message.', 'message', 'InvalidLogMessage');
    }
    const message = parsed.data;
    const tag = (0, lineFormat_1.batchPartTag)(message.batchId, message.part);
    const headers = message.lines.map((line, index) => {
        try {
            const header = (0, lineFormat_1.readLineHeader)(line);
            if (header.tag !== tag)
                throw new Error(`line tag ${header.tag} is not ${tag}`);
            return header;
        }
        catch (error) {
            throw new errors_1.ValidationError(`Line ${index} of log message ${tag} is malformed: ${error.message}`, 'message', 'InvalidLogMessage');
        }
    });
    return { message, tag, headers };
}
//# sourceMappingURL=batchMessage.js.map