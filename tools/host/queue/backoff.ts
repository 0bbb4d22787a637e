/**
 * The queue listener's polling delay, after the WebJobs SDK's randomized exponential back-off:
 * the first empty poll after messages were found waits the minimum (100 ms); each further empty
 * poll waits longer, by roughly doubling increments (±20% jitter), up to host.json
 * `maxPollingInterval`, where it stays until messages appear again. (A poll that found messages
 * is followed by the next one without any delay; see queueListener.ts.)
 */

/** The WebJobs SDK's floor for queue polling. */
export const MIN_POLLING_DELAY_MS = 100;
const RANDOMIZATION_FACTOR = 0.2;

/** The polling interval of an idle queue: doubles while empty, back to the minimum on a message. */
export class PollingBackoff {
  #current: number;
  #exponent = 0;

  constructor(
    private readonly minimumMs: number,
    private readonly maximumMs: number,
    private readonly random: () => number = Math.random,
  ) {
    if (maximumMs < minimumMs) throw new Error('The maximum polling delay is below the minimum.');
    this.#current = minimumMs;
  }

  /** The delay before the next poll, given whether a poll found work since the last delay. */
  next(foundWork: boolean): number {
    if (foundWork) {
      this.#current = this.minimumMs;
      this.#exponent = 1;
    } else if (this.#current !== this.maximumMs) {
      let delay = this.minimumMs;
      if (this.#exponent > 0) {
        const jitter = 1 - RANDOMIZATION_FACTOR + this.random() * 2 * RANDOMIZATION_FACTOR;
        delay += jitter * 2 ** (this.#exponent - 1) * this.minimumMs;
      }
      if (delay < this.maximumMs) {
        this.#current = Math.round(delay);
        this.#exponent += 1;
      } else {
        this.#current = this.maximumMs;
      }
    }
    return this.#current;
  }
}
