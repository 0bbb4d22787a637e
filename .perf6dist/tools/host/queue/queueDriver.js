"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createQueueDriver = createQueueDriver;
/**
 * The storage queue trigger (`app.storageQueue`): one listener per function, on the queue its
 * binding names (`%SETTING%` resolved, lower-cased), through the connection its binding names.
 */
const node_crypto_1 = require("node:crypto");
const bindingExpressions_1 = require("../config/bindingExpressions");
const functions_1 = require("../functions");
const storage_1 = require("../storage");
const keys_1 = require("../../../src/storage/keys");
const queueListener_1 = require("./queueListener");
const queueMessage_1 = require("./queueMessage");
const queueName_1 = require("./queueName");
function createQueueDriver(config) {
    const listeners = new Map();
    const queueNames = new Map();
    return {
        triggerTypes: ['queuetrigger'],
        add(fn) {
            const binding = fn.trigger.binding;
            let queueName;
            try {
                queueName = (0, queueName_1.resolveQueueName)((0, functions_1.stringOption)(binding, 'queueName'), config.env);
            }
            catch (error) {
                throw new Error(`Function '${fn.name}': ${error.message}`);
            }
            const connectionName = (0, bindingExpressions_1.resolveBindingExpressions)((0, functions_1.stringOption)(binding, 'connection') ?? '', config.env) ||
                storage_1.DEFAULT_CONNECTION;
            const clients = config.connections.clients(connectionName);
            queueNames.set(fn.name, queueName);
            listeners.set(fn.name, new queueListener_1.QueueListener({
                fn,
                queue: clients.queue(queueName),
                poisonQueue: clients.queue((0, keys_1.poisonQueueName)(queueName)),
                options: config.options,
                runner: config.runner,
                logger: config.logger,
            }));
        },
        describe(fn) {
            return `queueTrigger on '${queueNames.get(fn.name)}'`;
        },
        async start() {
            for (const listener of listeners.values())
                listener.start();
        },
        async stop(graceMs) {
            await Promise.all([...listeners.values()].map((listener) => listener.stop(graceMs)));
        },
        // The admin endpoint calls the function directly with the input as the message text, as
        // the Functions host does: no queue round trip, no retries, no poison queue.
        async runOnce(fn, input) {
            const now = new Date();
            await config.runner.run(fn, {
                data: { string: input },
                metadata: (0, queueMessage_1.queueTriggerMetadata)({
                    messageId: (0, node_crypto_1.randomUUID)(),
                    popReceipt: '',
                    messageText: input,
                    dequeueCount: 1,
                    insertedOn: now,
                    expiresOn: now,
                    nextVisibleOn: now,
                }, input, fn.name, now),
                reason: 'This function was programmatically called via the host APIs.',
            });
        },
    };
}
//# sourceMappingURL=queueDriver.js.map