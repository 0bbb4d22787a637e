"use strict";
/**
 * The queue listener's polling delay, after the WebJobs SDK's randomized exponential back-off:
 * after a poll that found messages the delay drops to the minimum (100 ms); after each empty
 * poll it grows by roughly doubling increments (±20% jitter) until it reaches host.json
 * `maxPollingInterval`, where it stays until messages appear again.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.PollingBackoff = exports.MIN_POLLING_DELAY_MS = void 0;
/** The WebJobs SDK's floor for queue polling. */
exports.MIN_POLLING_DELAY_MS = 100;
const RANDOMIZATION_FACTOR = 0.2;
class PollingBackoff {
    minimumMs;
    maximumMs;
    random;
    #current;
    #exponent = 0;
    constructor(minimumMs, maximumMs, random = Math.random) {
        this.minimumMs = minimumMs;
        this.maximumMs = maximumMs;
        this.random = random;
        if (maximumMs < minimumMs)
            throw new Error('The maximum polling delay is below the minimum.');
        this.#current = minimumMs;
    }
    /** The delay before the next poll, given whether the last poll found work. */
    next(foundWork) {
        if (foundWork) {
            this.#current = this.minimumMs;
            this.#exponent = 1;
        }
        else if (this.#current !== this.maximumMs) {
            let delay = this.minimumMs;
            if (this.#exponent > 0) {
                const jitter = 1 - RANDOMIZATION_FACTOR + this.random() * 2 * RANDOMIZATION_FACTOR;
                delay += jitter * 2 ** (this.#exponent - 1) * this.minimumMs;
            }
            if (delay < this.maximumMs) {
                this.#current = Math.round(delay);
                this.#exponent += 1;
            }
            else {
                this.#current = this.maximumMs;
            }
        }
        return this.#current;
    }
}
exports.PollingBackoff = PollingBackoff;
//# sourceMappingURL=backoff.js.map