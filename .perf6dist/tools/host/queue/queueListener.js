"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.QueueListener = exports.DEFAULT_MESSAGE_LEASE_MS = void 0;
const timeSpan_1 = require("../config/timeSpan");
const log_1 = require("../log");
const backoff_1 = require("./backoff");
const queueMessage_1 = require("./queueMessage");
/** How long a received message stays invisible while its function runs (the host's lease). */
exports.DEFAULT_MESSAGE_LEASE_MS = 10 * 60_000;
function sleep(ms, signal) {
    return new Promise((resolve) => {
        if (signal.aborted)
            return resolve();
        const timer = setTimeout(done, ms);
        function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
        }
        signal.addEventListener('abort', done, { once: true });
    });
}
const seconds = (ms) => Math.max(0, Math.round(ms / 1000));
class QueueListener {
    config;
    #inFlight = new Map();
    #stop = new AbortController();
    #backoff;
    #leaseMs;
    #loop;
    #poisonQueueReady = false;
    /** Resolves when any in-flight message finishes (wakes a loop waiting for capacity). */
    #capacity;
    constructor(config) {
        this.config = config;
        this.#backoff = new backoff_1.PollingBackoff(backoff_1.MIN_POLLING_DELAY_MS, config.options.maxPollingIntervalMs);
        this.#leaseMs = config.leaseMs ?? exports.DEFAULT_MESSAGE_LEASE_MS;
    }
    get queueName() {
        return this.config.queue.name;
    }
    /** Number of messages whose function is running. */
    get inFlightCount() {
        return this.#inFlight.size;
    }
    start() {
        this.#loop ??= this.#run();
    }
    /** Stops polling, waits up to `graceMs` for running functions, releases the rest. */
    async stop(graceMs) {
        this.#stop.abort();
        this.#capacity?.();
        await this.#loop;
        const running = [...this.#inFlight.values()];
        if (running.length > 0) {
            this.#log('information', `Waiting up to ${graceMs} ms for ${running.length} running invocation(s).`);
            let timer;
            await Promise.race([
                Promise.allSettled(running.map((entry) => entry.done)),
                new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
            ]);
            clearTimeout(timer);
        }
        await Promise.allSettled([...this.#inFlight.values()].map((entry) => this.#abandon(entry)));
    }
    #log(level, message) {
        this.config.logger.log(level, this.config.fn.name, message);
    }
    async #run() {
        const { queue, options } = this.config;
        const signal = this.#stop.signal;
        let failing = false;
        while (!signal.aborted) {
            try {
                // Azure creates a trigger's queue when it is missing; retried until storage answers.
                await queue.createIfNotExists({ abortSignal: signal });
                break;
            }
            catch (error) {
                if (signal.aborted)
                    return;
                if (!failing)
                    this.#log('error', `The listener for queue '${queue.name}' could not start and will keep retrying: ${error.message}`);
                failing = true;
                await sleep(this.#backoff.next(false), signal);
            }
        }
        failing = false;
        while (!signal.aborted) {
            if (this.#inFlight.size > options.newBatchThreshold) {
                await new Promise((resolve) => (this.#capacity = resolve));
                this.#capacity = undefined;
                continue;
            }
            let messages;
            try {
                const response = await queue.receiveMessages({
                    numberOfMessages: options.batchSize,
                    visibilityTimeout: seconds(this.#leaseMs),
                    abortSignal: signal,
                });
                messages = response.receivedMessageItems;
                if (failing)
                    this.#log('information', `Queue '${queue.name}' is reachable again.`);
                failing = false;
            }
            catch (error) {
                if (signal.aborted)
                    break;
                if (!failing)
                    this.#log('warning', `Polling queue '${queue.name}' failed (retrying with back-off): ${error.message}`);
                failing = true;
                await sleep(this.#backoff.next(false), signal);
                continue;
            }
            for (const message of messages)
                this.#dispatch(message);
            await sleep(this.#backoff.next(messages.length > 0), signal);
        }
    }
    #dispatch(message) {
        const entry = {
            message,
            popReceipt: message.popReceipt,
            operations: Promise.resolve(),
            abandoned: false,
            done: Promise.resolve(),
        };
        this.#inFlight.set(message.messageId, entry);
        entry.renewTimer = setInterval(() => void this.#renew(entry), Math.max(1000, this.#leaseMs / 2));
        entry.renewTimer.unref();
        entry.done = this.#process(entry)
            .catch((error) => this.#log('error', `Message ${message.messageId}: ${(0, log_1.describeError)(error)}`))
            .finally(() => {
            clearInterval(entry.renewTimer);
            this.#inFlight.delete(message.messageId);
            this.#capacity?.();
        });
    }
    /** Runs a storage operation on the message after the previous one (pop receipts chain). */
    #sequenced(entry, operation) {
        const result = entry.operations.then(operation);
        entry.operations = result.catch(() => undefined);
        return result;
    }
    async #renew(entry) {
        if (entry.abandoned)
            return;
        try {
            await this.#sequenced(entry, async () => {
                const response = await this.config.queue.updateMessage(entry.message.messageId, entry.popReceipt, undefined, seconds(this.#leaseMs));
                entry.popReceipt = response.popReceipt ?? entry.popReceipt;
            });
        }
        catch (error) {
            this.#log('warning', `Could not extend the lease of message ${entry.message.messageId}: ${error.message}`);
        }
    }
    async #process(entry) {
        const { fn, options, runner } = this.config;
        const message = entry.message;
        // A message past the limit crashed earlier attempts before they could record a failure.
        if (message.dequeueCount > options.maxDequeueCount) {
            await this.#moveToPoison(entry);
            return;
        }
        const decoded = (0, queueMessage_1.decodeMessageText)(message.messageText, options.messageEncoding);
        if (!decoded.ok) {
            this.#log('error', `Message ${message.messageId}: ${decoded.reason}`);
            await this.#moveToPoison(entry);
            return;
        }
        let succeeded = false;
        try {
            await runner.run(fn, {
                data: fn.trigger.binding.dataType === 'binary'
                    ? { bytes: Buffer.from(decoded.text, 'utf8') }
                    : { string: decoded.text },
                metadata: (0, queueMessage_1.queueTriggerMetadata)(message, decoded.text, fn.name),
                reason: `New queue message detected on '${this.queueName}'.`,
            });
            succeeded = true;
        }
        catch {
            // The invoker logged the failure; the message's fate is decided below.
        }
        if (entry.abandoned)
            return;
        if (succeeded) {
            await this.#sequenced(entry, () => this.config.queue.deleteMessage(message.messageId, entry.popReceipt));
        }
        else if (message.dequeueCount >= options.maxDequeueCount) {
            await this.#moveToPoison(entry);
        }
        else {
            await this.#release(entry, options.visibilityTimeoutMs);
        }
    }
    async #release(entry, visibleAfterMs) {
        await this.#sequenced(entry, async () => {
            const response = await this.config.queue.updateMessage(entry.message.messageId, entry.popReceipt, undefined, seconds(visibleAfterMs));
            entry.popReceipt = response.popReceipt ?? entry.popReceipt;
        });
        this.#log('debug', `Message ${entry.message.messageId} will be visible again after ${(0, timeSpan_1.formatTimeSpan)(visibleAfterMs)}.`);
    }
    async #abandon(entry) {
        if (entry.abandoned)
            return;
        entry.abandoned = true;
        clearInterval(entry.renewTimer);
        try {
            await this.#release(entry, this.config.options.visibilityTimeoutMs);
            this.#log('warning', `Shutdown: message ${entry.message.messageId} was still being processed; released for redelivery.`);
        }
        catch (error) {
            this.#log('warning', `Shutdown: message ${entry.message.messageId} could not be released (${error.message}); it reappears when its lease expires.`);
        }
    }
    async #moveToPoison(entry) {
        const { poisonQueue, queue, options } = this.config;
        this.#log('warning', `Message has reached MaxDequeueCount of ${options.maxDequeueCount}. Moving message to queue '${poisonQueue.name}'.`);
        if (!this.#poisonQueueReady) {
            await poisonQueue.createIfNotExists();
            this.#poisonQueueReady = true;
        }
        // The poison copy keeps the original (still encoded) text, as the host's copy does.
        await poisonQueue.sendMessage(entry.message.messageText);
        await this.#sequenced(entry, () => queue.deleteMessage(entry.message.messageId, entry.popReceipt));
    }
}
exports.QueueListener = QueueListener;
//# sourceMappingURL=queueListener.js.map