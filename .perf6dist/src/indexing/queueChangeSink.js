"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureQueue = ensureQueue;
exports.queueChangeSink = queueChangeSink;
const errors_1 = require("../storage/errors");
const queue_1 = require("../storage/queue");
const indexMessages_1 = require("./indexMessages");
const createdQueues = new WeakMap();
/**
 * Creates the queue on first use, once per process and client.
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
async function ensureQueue(queue) {
    let pending = createdQueues.get(queue);
    if (!pending) {
        pending = (0, errors_1.withStorageErrors)(() => queue.createIfNotExists());
        createdQueues.set(queue, pending);
        pending.catch(() => createdQueues.delete(queue));
    }
    await pending;
}
/** Builds the sink over the `index-updates` queue client. */
function queueChangeSink(queue, options = {}) {
    const delay = options.announceDelaySeconds ?? 60;
    const send = async (changes, visibilityTimeoutSeconds) => {
        if (changes.length === 0)
            return;
        await ensureQueue(queue);
        for (const message of (0, indexMessages_1.packIndexChanges)(changes)) {
            await (0, queue_1.sendJsonMessage)(queue, message, { visibilityTimeoutSeconds });
        }
    };
    return {
        publish: (changes) => send(changes),
        announce: async (employees) => {
            if (delay <= 0)
                return;
            await send(employees.map((e) => ({
                department: e.department,
                employeeId: e.employeeId,
                reason: 'announced',
            })), delay);
        },
    };
}
//# sourceMappingURL=queueChangeSink.js.map