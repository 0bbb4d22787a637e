"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.retryDelayMs = retryDelayMs;
exports.shouldRetry = shouldRetry;
exports.retryTimedOut = retryTimedOut;
/** Milliseconds to wait after the `failures`-th failed attempt (1-based). */
function retryDelayMs(policy, failures) {
    const coefficient = policy.backoffCoefficient ?? 1;
    const delay = policy.firstRetryIntervalInMilliseconds * coefficient ** Math.max(0, failures - 1);
    const cap = policy.maxRetryIntervalInMilliseconds;
    const capped = cap !== undefined && cap > 0 ? Math.min(delay, cap) : delay;
    return Number.isFinite(capped) ? Math.max(0, Math.round(capped)) : Number.MAX_SAFE_INTEGER;
}
/** True when another attempt follows the timer after the `failures`-th failure. */
function shouldRetry(policy, failures) {
    return failures < policy.maxNumberOfAttempts;
}
/** True when the policy's overall retry timeout has passed since the first attempt. */
function retryTimedOut(policy, firstAttemptAt, now) {
    const timeout = policy.retryTimeoutInMilliseconds;
    return (timeout !== undefined && timeout > 0 && now.getTime() >= firstAttemptAt.getTime() + timeout);
}
//# sourceMappingURL=retry.js.map