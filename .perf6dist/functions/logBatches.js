"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.flushLogBatches = flushLogBatches;
/**
 * Queue trigger on `log-batches`: buffers accepted log batches into hour-prefixed blobs. Each
 * invocation drains more messages from the queue and writes them together (src/logs/flush.ts).
 * Throwing makes the host retry the triggering message and, after `maxDequeueCount` attempts,
 * move it to `log-batches-poison`.
 */
const functions_1 = require("@azure/functions");
const config_1 = require("../src/config");
const flush_1 = require("../src/logs/flush");
const clients_1 = require("../src/storage/clients");
const queue_1 = require("../src/storage/queue");
/** The payload as the host hands it over: parsed JSON, or text when it did not parse it. */
function payloadOf(queueEntry) {
    if (typeof queueEntry !== 'string')
        return queueEntry;
    try {
        return JSON.parse(queueEntry);
    }
    catch {
        return (0, queue_1.decodeQueueMessage)(queueEntry);
    }
}
function deliveryOf(context) {
    const metadata = context.triggerMetadata ?? {};
    const dequeueCount = Number(metadata.dequeueCount ?? 1);
    const nextVisible = metadata.nextVisibleTime;
    return {
        dequeueCount: Number.isInteger(dequeueCount) && dequeueCount > 0 ? dequeueCount : 1,
        nextVisibleTime: typeof nextVisible === 'string' || nextVisible instanceof Date
            ? new Date(nextVisible)
            : undefined,
    };
}
/**
 * Flushes the triggering message together with up to `LOG_FLUSH_MAX_MESSAGES` drained ones.
 *
 * @throws the triggering message's write failure, so the host retries (and finally poisons) it.
 */
async function flushLogBatches(queueEntry, context) {
    const config = (0, config_1.getConfig)();
    const clients = (0, clients_1.getStorageClients)();
    const trigger = (0, flush_1.pendingFromDelivery)(payloadOf(queueEntry), deliveryOf(context));
    const result = await (0, flush_1.drainAndFlush)({
        container: clients.container(config.containers.logs),
        queue: clients.queue(config.queues.logBatches),
        limits: config.logs,
        trigger,
        maxMessages: config.logs.flushMaxMessages,
        maxFlushes: config.logs.flushMaxRounds,
    });
    context.log(`Flushed ${result.flushed.length} log messages (${result.drained} drained), ` +
        `${result.linesWritten} lines into ${result.hours.length} hour blobs; ${result.failed.length} failed.`);
    const failure = result.failed.find((f) => f.message === trigger);
    if (failure)
        throw failure.error;
}
functions_1.app.storageQueue('flushLogBatches', {
    queueName: (0, config_1.getConfig)().queues.logBatches,
    connection: 'AzureWebJobsStorage',
    handler: flushLogBatches,
});
//# sourceMappingURL=logBatches.js.map