"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createQueueOutputHandler = createQueueOutputHandler;
const bindingExpressions_1 = require("../config/bindingExpressions");
const functions_1 = require("../functions");
const queueMessage_1 = require("../queue/queueMessage");
const queueName_1 = require("../queue/queueName");
function createQueueOutputHandler(env, connections, encoding) {
    const created = new Set();
    const resolve = (fn, output) => {
        let queueName;
        try {
            queueName = (0, queueName_1.resolveQueueName)((0, functions_1.stringOption)(output.binding, 'queueName'), env);
        }
        catch (error) {
            throw new Error(`Function '${fn.name}', output '${output.name}': ${error.message}`);
        }
        const connection = (0, bindingExpressions_1.resolveBindingExpressions)((0, functions_1.stringOption)(output.binding, 'connection') ?? '', env);
        return {
            queue: connections.clients(connection).queue(queueName),
            key: `${connection}|${queueName}`,
        };
    };
    return {
        type: 'queue',
        prepare(fn, output) {
            resolve(fn, output);
        },
        async deliver(fn, output, value) {
            const { queue, key } = resolve(fn, output);
            if (!created.has(key)) {
                await queue.createIfNotExists();
                created.add(key);
            }
            for (const message of (0, queueMessage_1.outputMessages)(value)) {
                await queue.sendMessage((0, queueMessage_1.encodeMessageText)(message, encoding));
            }
        },
    };
}
//# sourceMappingURL=queueOutput.js.map