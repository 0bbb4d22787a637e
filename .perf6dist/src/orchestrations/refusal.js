"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isRefusal = isRefusal;
exports.refusal = refusal;
exports.refuseOnPermanentError = refuseOnPermanentError;
exports.refusalError = refusalError;
/**
 * Permanent refusals of an activity, as values.
 *
 * An activity that throws is retried (`callActivityWithRetry`): right for a storage fault, wrong
 * for "the id is taken in the target", which no retry will change. So activities turn the
 * directory's permanent domain errors (invalid input, not found, conflict) into a {@link Refusal}
 * value, and the orchestrator fails the orchestration with its reason. Anything else still throws
 * and is retried.
 */
const errors_1 = require("../errors");
/** True for a {@link Refusal}. */
function isRefusal(value) {
    return (typeof value === 'object' &&
        value !== null &&
        'refused' in value &&
        typeof value.refused?.message === 'string');
}
/** A refusal with a code and a sentence. */
function refusal(code, message) {
    return { refused: { code, message } };
}
const PERMANENT_KINDS = new Set(['invalid', 'notFound', 'conflict']);
/**
 * Runs `work`; a permanent domain error becomes a {@link Refusal}, anything else is rethrown.
 *
 * @throws whatever `work` throws that is not a permanent domain error (transient: retried).
 */
async function refuseOnPermanentError(work) {
    try {
        return await work();
    }
    catch (error) {
        if (error instanceof errors_1.DomainError && PERMANENT_KINDS.has(error.kind)) {
            return refusal(error.code, error.message);
        }
        throw error;
    }
}
/** The error an orchestrator throws for a refusal: the status then shows `<code>: <message>`. */
function refusalError(value) {
    return new Error(`${value.refused.code}: ${value.refused.message}`);
}
//# sourceMappingURL=refusal.js.map