"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.copyEmployeeToTarget = copyEmployeeToTarget;
const directoryErrors_1 = require("../../directory/directoryErrors");
const employeeState_1 = require("../../directory/employeeState");
const insertEmployee_1 = require("../../directory/insertEmployee");
const paging_1 = require("../../directory/paging");
const transaction_1 = require("../../directory/transaction");
const keys_1 = require("../../storage/keys");
const moveRequest_1 = require("./moveRequest");
/**
 * Copies the employee of a move into the target partition (see the module comment).
 *
 * @throws {NotFoundError} `EmployeeNotFound` (in neither department), `DepartmentNotFound` (target).
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken` in the target, `LastNameIndexFull`.
 * @throws {ThrottledError} when the target department kept changing, or storage is busy.
 */
async function copyEmployeeToTarget(context, move) {
    const table = await context.table();
    const sourcePk = (0, keys_1.departmentPartitionKey)(move.department);
    const targetPk = (0, keys_1.departmentPartitionKey)(move.toDepartment);
    const source = await (0, employeeState_1.readEmployeeState)(table, sourcePk, move.employeeId);
    if (!source) {
        // Already removed from the source: fine only if the target holds it (a finished earlier try).
        const target = await (0, employeeState_1.readEmployeeState)(table, targetPk, move.employeeId);
        if (target)
            return { copied: false, reviews: 0 };
        throw (0, directoryErrors_1.employeeNotFound)(move.department, move.employeeId);
    }
    const { inserted: copied } = await (0, insertEmployee_1.insertEmployee)(context, move.toDepartment, source.data, {
        writeId: (0, moveRequest_1.moveWriteId)(move.moveId),
        preserved: source.meta.preserved,
    });
    const reviews = await copyReviews(table, sourcePk, targetPk, move.employeeId);
    return { copied, reviews };
}
/** Properties the SDK adds to a read entity, which must not be written back. */
const READ_ONLY_PROPERTIES = new Set(['partitionKey', 'rowKey', 'etag', 'timestamp']);
/**
 * Upserts every yearly review of the employee into the target partition (same RowKeys), in
 * transactions of at most 100 operations. Repeating it writes the same entities again.
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function copyReviews(table, sourcePk, targetPk, employeeId) {
    const reviews = await (0, paging_1.readWholeRange)(table, {
        partitionKey: sourcePk,
        ...(0, keys_1.reviewRowKeyRange)(employeeId),
    });
    for (let i = 0; i < reviews.length; i += transaction_1.MAX_TRANSACTION_OPERATIONS) {
        const plan = new transaction_1.PlannedTransaction();
        for (const review of reviews.slice(i, i + transaction_1.MAX_TRANSACTION_OPERATIONS)) {
            const copy = { partitionKey: targetPk, rowKey: review.rowKey };
            for (const [name, value] of Object.entries(review)) {
                if (!READ_ONLY_PROPERTIES.has(name) && !name.startsWith('odata.'))
                    copy[name] = value;
            }
            plan.add(['upsert', copy, 'Replace'], review.rowKey);
        }
        await (0, transaction_1.submitPlanned)(table, plan);
    }
    return reviews.length;
}
//# sourceMappingURL=copyToTarget.js.map