"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayPoisonMessages = replayPoisonMessages;
exports.parseReplayArgs = parseReplayArgs;
/**
 * `node dist/tools/replay-poison.js <queue> [--max N] [--dry-run]`: moves messages from
 * `<queue>-poison` back to `<queue>` once the cause of their failures is fixed.
 *
 * Each message is first sent to `<queue>` (same text, so the same base64 JSON) and only then
 * deleted from the poison queue: a crash between the two leaves a duplicate, never a loss, and the
 * workers are idempotent. Messages being moved are hidden from other readers of the poison queue
 * for {@link LEASE_SECONDS}. `--dry-run` only peeks (at most 32 messages, the service's peek limit)
 * and changes nothing. Storage: the `AzureWebJobsStorage` connection (environment).
 */
const node_util_1 = require("node:util");
const config_1 = require("../src/config");
const clients_1 = require("../src/storage/clients");
const keys_1 = require("../src/storage/keys");
/** How long a received poison message stays hidden while it is being moved. */
const LEASE_SECONDS = 60;
/** The most messages the Queue service returns or peeks per call. */
const MAX_PER_CALL = 32;
/**
 * Moves messages from `<queueName>-poison` to `<queueName>`, sending before deleting.
 *
 * @returns the messages moved (or that would be, for a dry run), in the order handled.
 * @throws {Error} when `queueName` is itself a poison queue, or for a storage failure (messages
 *   already moved stay moved; the one in progress may be in both queues).
 */
async function replayPoisonMessages(clients, queueName, options = {}) {
    if ((0, keys_1.parsePoisonQueueName)(queueName) !== undefined) {
        throw new Error(`"${queueName}" is a poison queue; name the main queue (${(0, keys_1.parsePoisonQueueName)(queueName)}).`);
    }
    const max = options.max ?? Number.POSITIVE_INFINITY;
    const poison = clients.queue((0, keys_1.poisonQueueName)(queueName));
    const target = clients.queue(queueName);
    if (!(await poison.exists()))
        return [];
    if (options.dryRun)
        return peek(poison, max, options.onMessage);
    await target.createIfNotExists();
    const moved = [];
    while (moved.length < max) {
        const { receivedMessageItems } = await poison.receiveMessages({
            numberOfMessages: Math.min(MAX_PER_CALL, max - moved.length),
            visibilityTimeout: LEASE_SECONDS,
        });
        // Messages received earlier in this run are still hidden, so an empty answer means done.
        if (receivedMessageItems.length === 0)
            break;
        for (const item of receivedMessageItems) {
            await target.sendMessage(item.messageText);
            await poison.deleteMessage(item.messageId, item.popReceipt);
            const message = {
                messageId: item.messageId,
                dequeueCount: item.dequeueCount,
                insertedOn: item.insertedOn,
            };
            moved.push(message);
            options.onMessage?.(message);
        }
    }
    return moved;
}
async function peek(poison, max, onMessage) {
    const { peekedMessageItems } = await poison.peekMessages({
        numberOfMessages: Math.min(MAX_PER_CALL, max),
    });
    return peekedMessageItems.map((item) => {
        const message = {
            messageId: item.messageId,
            dequeueCount: item.dequeueCount,
            insertedOn: item.insertedOn,
        };
        onMessage?.(message);
        return message;
    });
}
/**
 * Reads `<queue> [--max N] [--dry-run]`.
 *
 * @throws {Error} naming the problem (missing queue, extra arguments, bad --max).
 */
function parseReplayArgs(args) {
    const { values, positionals } = (0, node_util_1.parseArgs)({
        args: [...args],
        options: { max: { type: 'string' }, 'dry-run': { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
    });
    if (positionals.length !== 1) {
        throw new Error('Usage: replay-poison <queue> [--max N] [--dry-run]');
    }
    let max;
    if (values.max !== undefined) {
        if (!/^\d{1,9}$/.test(values.max) || Number(values.max) < 1)
            throw new Error(`--max must be a whole number ≥ 1, got "${values.max}".`);
        max = Number(values.max);
    }
    return { queueName: positionals[0], max, dryRun: values['dry-run'] === true };
}
async function main() {
    const command = parseReplayArgs(process.argv.slice(2));
    const config = (0, config_1.loadConfig)(process.env);
    const clients = (0, clients_1.createStorageClients)(config.storage, config.retry);
    const from = (0, keys_1.poisonQueueName)(command.queueName);
    const messages = await replayPoisonMessages(clients, command.queueName, {
        max: command.max,
        dryRun: command.dryRun,
        onMessage: (m) => process.stdout.write(`${command.dryRun ? 'would move' : 'moved'} ${m.messageId} (dequeued ${m.dequeueCount}×` +
            `${m.insertedOn ? `, first queued ${m.insertedOn.toISOString()}` : ''})\n`),
    });
    process.stdout.write(`${command.dryRun ? 'Would move' : 'Moved'} ${messages.length} message(s) from ${from} to ${command.queueName}.\n`);
}
if (require.main === module) {
    main().catch((error) => {
        process.stderr.write(`replay-poison: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
    });
}
//# sourceMappingURL=replay-poison.js.map