"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.QueuePoller = void 0;
const queue_1 = require("../../src/storage/queue");
class QueuePoller {
    #options;
    #inFlight = new Set();
    #loop;
    #stopping = false;
    #wakeSleep;
    constructor(options) {
        this.#options = options;
    }
    start() {
        if (this.#loop)
            return;
        this.#stopping = false;
        this.#loop = this.#run();
    }
    /** Stops receiving and waits for the messages in flight to finish. */
    async stop() {
        this.#stopping = true;
        this.#wakeSleep?.();
        await this.#loop;
        await Promise.allSettled([...this.#inFlight]);
        this.#loop = undefined;
    }
    /** Cuts the current back-off short (new work was just enqueued in this process). */
    poke() {
        this.#wakeSleep?.();
    }
    async #run() {
        const o = this.#options;
        let interval = o.minIntervalMs;
        while (!this.#stopping) {
            const free = o.concurrency - this.#inFlight.size;
            if (free <= 0) {
                await Promise.race(this.#inFlight);
                continue;
            }
            let messages = [];
            try {
                messages = await o.store.receive(o.queue, free, o.leaseSeconds);
            }
            catch (error) {
                o.log(`[durable] ${o.name}: receiving failed`, error);
            }
            if (this.#stopping) {
                // Received just as we stopped: hand them straight back for the next owner.
                await Promise.allSettled(messages.map((m) => o.store.extendMessage(o.queue, m, 0)));
                break;
            }
            if (messages.length === 0) {
                await this.#sleep(interval);
                interval = Math.min(o.maxIntervalMs, interval * 2);
                continue;
            }
            interval = o.minIntervalMs;
            for (const message of messages) {
                const work = this.#process(message).finally(() => this.#inFlight.delete(work));
                this.#inFlight.add(work);
            }
        }
    }
    async #process(message) {
        const o = this.#options;
        let body;
        try {
            body = (0, queue_1.decodeQueueMessage)(message.text);
        }
        catch (error) {
            o.log(`[durable] ${o.name}: dropping an unreadable message`, error);
            await o.store.deleteMessage(o.queue, message).catch(() => undefined);
            return;
        }
        const renewEveryMs = Math.max(200, (o.leaseSeconds * 1000) / 3);
        let renewing = Promise.resolve();
        const renewal = setInterval(() => {
            renewing = renewing
                .then(() => o.store.extendMessage(o.queue, message, o.leaseSeconds))
                .catch((error) => o.log(`[durable] ${o.name}: lease renewal failed`, error));
        }, renewEveryMs);
        let failure;
        let failed = false;
        try {
            await o.handle(body, message);
        }
        catch (error) {
            failed = true;
            failure = error;
        }
        finally {
            clearInterval(renewal);
            await renewing;
        }
        if (!failed) {
            await o.store.deleteMessage(o.queue, message).catch((error) => 
            // The work is done and idempotent: if the message comes back, repeating it is harmless.
            o.log(`[durable] ${o.name}: could not delete a handled message; it will be delivered again`, error));
            return;
        }
        if (message.dequeueCount >= o.maxDequeueCount) {
            o.log(`[durable] ${o.name}: giving up on a message after ${message.dequeueCount} attempts`, failure);
            await o.store.deleteMessage(o.queue, message).catch(() => undefined);
            return;
        }
        o.log(`[durable] ${o.name}: handler failed (attempt ${message.dequeueCount}), will retry`, failure);
        const backOffSeconds = Math.min(30, message.dequeueCount);
        await o.store.extendMessage(o.queue, message, backOffSeconds).catch(() => undefined);
    }
    #sleep(ms) {
        return new Promise((resolve) => {
            const timer = setTimeout(done, ms);
            function done() {
                clearTimeout(timer);
                resolve();
            }
            this.#wakeSleep = done;
        });
    }
}
exports.QueuePoller = QueuePoller;
//# sourceMappingURL=queuePoller.js.map