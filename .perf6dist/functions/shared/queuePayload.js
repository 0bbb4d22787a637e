"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.queuePayload = queuePayload;
exports.dequeueCount = dequeueCount;
const queue_1 = require("../../src/storage/queue");
/** The payload: parsed JSON, or the text decoded when the host did not parse it. */
function queuePayload(queueEntry) {
    if (typeof queueEntry !== 'string')
        return queueEntry;
    try {
        return JSON.parse(queueEntry);
    }
    catch {
        return (0, queue_1.decodeQueueMessage)(queueEntry);
    }
}
/** The delivery count of the triggering message (1 on the first delivery). */
function dequeueCount(context) {
    const count = Number(context.triggerMetadata?.dequeueCount ?? 1);
    return Number.isInteger(count) && count > 0 ? count : 1;
}
//# sourceMappingURL=queuePayload.js.map