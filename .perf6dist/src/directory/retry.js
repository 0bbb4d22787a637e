"use strict";
/**
 * Bounded retry of optimistic-concurrency conflicts (412 on a shared entity's ETag).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MAX_CONFLICT_ATTEMPTS = exports.RETRY = void 0;
exports.retryOnConflict = retryOnConflict;
/** Returned by an attempt that lost a race and should run again. */
exports.RETRY = Symbol('retry');
/** Attempts before giving up on a contended entity (20 concurrent writers finish well within it). */
exports.DEFAULT_MAX_CONFLICT_ATTEMPTS = 50;
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
/**
 * Runs `attempt` until it returns something other than {@link RETRY}, at most `maxAttempts`
 * times, with a short jittered back-off from the third attempt on (the second runs at once: the
 * first usually failed only because it used a cached version).
 *
 * @throws the error `exhausted()` builds when every attempt lost; whatever `attempt` throws.
 */
async function retryOnConflict(maxAttempts, attempt, exhausted) {
    for (let n = 1; n <= maxAttempts; n++) {
        if (n > 2)
            await sleep(Math.random() * Math.min(250, 4 * 2 ** Math.min(n, 8)));
        const result = await attempt(n);
        if (result !== exports.RETRY)
            return result;
    }
    throw exhausted();
}
//# sourceMappingURL=retry.js.map