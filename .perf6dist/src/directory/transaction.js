"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TransactionFailure = exports.PlannedTransaction = exports.MAX_TRANSACTION_OPERATIONS = void 0;
exports.failedOperationIndex = failedOperationIndex;
exports.submitPlanned = submitPlanned;
exports.unexplainedFailure = unexplainedFailure;
exports.retryUnexplained = retryUnexplained;
const errors_1 = require("../storage/errors");
const retry_1 = require("./retry");
/** Most operations one entity group transaction may hold. */
exports.MAX_TRANSACTION_OPERATIONS = 100;
/** The operations of one transaction, each with what it is about. */
class PlannedTransaction {
    actions = [];
    roles = [];
    /** Appends an operation. */
    add(action, role) {
        this.actions.push(action);
        this.roles.push(role);
        return this;
    }
    get size() {
        return this.actions.length;
    }
}
exports.PlannedTransaction = PlannedTransaction;
/** A transaction the service refused as a whole because one operation failed. */
class TransactionFailure extends Error {
    status;
    code;
    index;
    role;
    constructor(status, code, 
    /** The failing operation's index, when the service said. */
    index, 
    /** The failing operation's role, when the index is known. */
    role, options) {
        super(`Entity group transaction failed (${status} ${code ?? ''}) at operation ${index ?? '?'}.`, options);
        this.status = status;
        this.code = code;
        this.index = index;
        this.role = role;
        this.name = 'TransactionFailure';
    }
}
exports.TransactionFailure = TransactionFailure;
/** The failing operation's index from a transaction error message (`"2:..."`). */
function failedOperationIndex(error) {
    const message = error?.message;
    const match = typeof message === 'string' ? /^(\d+):/.exec(message) : null;
    return match ? Number(match[1]) : undefined;
}
/**
 * Submits a planned transaction and returns each operation's new ETag (undefined for deletes).
 *
 * @throws {TransactionFailure} when an operation failed with 404, 409 or 412 (nothing was written).
 * @throws {DomainError} for throttling and other storage faults that outlasted the SDK's retries.
 */
async function submitPlanned(table, plan) {
    if (plan.size === 0)
        return [];
    if (plan.size > exports.MAX_TRANSACTION_OPERATIONS) {
        throw new Error(`A transaction of ${plan.size} operations is over the ${exports.MAX_TRANSACTION_OPERATIONS} limit.`);
    }
    try {
        const response = await table.submitTransaction(plan.actions);
        return plan.actions.map((_, i) => response.subResponses[i]?.etag);
    }
    catch (error) {
        const status = (0, errors_1.storageStatus)(error);
        if (status === 404 || status === 409 || status === 412) {
            const index = failedOperationIndex(error);
            throw new TransactionFailure(status, (0, errors_1.storageCode)(error), index, index === undefined ? undefined : plan.roles[index], {
                cause: error,
            });
        }
        throw (0, errors_1.toDomainError)(error);
    }
}
/**
 * The domain error for a failed transaction whose failing operation could not be identified
 * (the service did not say which one): a conflict the caller may retry.
 */
function unexplainedFailure(failure) {
    return (0, errors_1.toDomainError)(failure.cause, {
        notFound: { code: 'Conflict', message: 'The data changed concurrently; try again.' },
        conflict: { code: 'Conflict', message: 'The data changed concurrently; try again.' },
        preconditionFailed: 'The data changed concurrently; try again.',
    });
}
/**
 * What to do with a failure no role explains: retry a couple of times (a race), then give up
 * with {@link unexplainedFailure}.
 */
function retryUnexplained(failure, attempt) {
    return failure.role === undefined && attempt >= 3
        ? Promise.reject(unexplainedFailure(failure))
        : Promise.resolve(retry_1.RETRY);
}
//# sourceMappingURL=transaction.js.map