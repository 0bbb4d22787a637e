"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_QUEUE_MESSAGE_BYTES = void 0;
exports.encodeQueueMessage = encodeQueueMessage;
exports.decodeQueueMessage = decodeQueueMessage;
exports.sendJsonMessage = sendJsonMessage;
const errors_1 = require("../errors");
const errors_2 = require("./errors");
/** Azure's limit on one queue message, after base64 encoding. */
exports.MAX_QUEUE_MESSAGE_BYTES = 64 * 1024;
/** Base64 text of a JSON payload, as the Functions host encodes queue messages. */
function encodeQueueMessage(payload) {
    return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
}
/**
 * Reverses {@link encodeQueueMessage}.
 *
 * @throws {SyntaxError} when the text is not base64 of JSON.
 */
function decodeQueueMessage(messageText) {
    return JSON.parse(Buffer.from(messageText, 'base64').toString('utf8'));
}
/**
 * Enqueues one JSON payload, base64-encoded.
 *
 * @returns the service's message id.
 * @throws {TooLargeError} when the encoded message is over 64 KiB.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
async function sendJsonMessage(queue, payload, options = {}) {
    const text = encodeQueueMessage(payload);
    if (Buffer.byteLength(text) > exports.MAX_QUEUE_MESSAGE_BYTES) {
        throw new errors_1.TooLargeError(`Queue message of ${Buffer.byteLength(text)} bytes is over the ${exports.MAX_QUEUE_MESSAGE_BYTES}-byte limit.`);
    }
    const response = await (0, errors_2.withStorageErrors)(() => queue.sendMessage(text, { visibilityTimeout: options.visibilityTimeoutSeconds }));
    return response.messageId;
}
//# sourceMappingURL=queue.js.map