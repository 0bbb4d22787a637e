"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.deleteEmployee = deleteEmployee;
/**
 * Removing an employee: the employee entity, its email copy, the department's count (and manager
 * copy, if it was the manager) and its id in the last-name index entity, in ONE entity group
 * transaction. With `mustExist: false` an absent employee is not an error (delete-if-exists), so
 * queue workers (archive, move) can run it again safely.
 *
 * `If-Match`: a transaction cannot make a delete conditional, so the caller's ETag is checked
 * against a fresh read just before the transaction. The transaction itself is conditional on the
 * department and index entities, so a concurrent create, delete, rename or email change makes it
 * fail and retry; a concurrent change of only first name or age in the milliseconds between that
 * read and the commit is not detected.
 */
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const directoryErrors_1 = require("./directoryErrors");
const employeeEntity_1 = require("./employeeEntity");
const employeeState_1 = require("./employeeState");
const lastNameIndex_1 = require("./lastNameIndex");
const retry_1 = require("./retry");
const reviews_1 = require("./reviews");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
/** Operations of one entity group transaction. */
const MAX_TRANSACTION_OPERATIONS = 100;
/**
 * Deletes an employee with every same-partition copy and index entry, then publishes a `deleted`
 * change carrying the old email and last name.
 *
 * @returns whether something was deleted, and what.
 * @throws {NotFoundError} `EmployeeNotFound` when absent and `mustExist` is not false.
 * @throws {PreconditionFailedError} when `ifMatch` is not the current version.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
async function deleteEmployee(context, department, employeeId, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    (0, keys_1.employeeRowKey)(employeeId);
    const table = await context.table();
    let missingCopyOf;
    // The employee this call last saw, if a transaction then found it already gone: either an
    // earlier try of our own transaction committed (its answer was lost) or someone else deleted
    // it; both leave it deleted, which is what the caller asked for.
    let vanished;
    // Reviews deleted in the transaction; dropped (back to the purge) if one of them is gone.
    let knownReviews = options.keepReviews ? undefined : options.reviewRowKeys;
    let reviewsInTransaction = false;
    const outcome = await (0, retry_1.retryOnConflict)(context.maxConflictAttempts, async (attempt) => {
        if (vanished)
            return { deleted: true, employee: vanished };
        const useCache = attempt === 1;
        const current = await (0, employeeState_1.readEmployeeState)(table, partitionKey, employeeId);
        if (!current) {
            if (options.mustExist === false)
                return { deleted: false };
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
        }
        if (options.ifMatch !== undefined &&
            !(await (0, employeeState_1.versionMatches)(table, current, options.ifMatch))) {
            throw (0, directoryErrors_1.staleVersion)(`Employee ${employeeId}`);
        }
        const lastName = (0, keys_1.normalizeLastName)(current.data.lastName);
        const [dept, index] = await Promise.all([
            (0, state_1.loadDepartment)(context, department, useCache),
            (0, state_1.loadLastNameIndex)(context, department, lastName, useCache),
        ]);
        const plan = new transaction_1.PlannedTransaction().add(['delete', { partitionKey, rowKey: current.entity.rowKey }], 'employee');
        if (missingCopyOf !== current.data.email) {
            plan.add(['delete', { partitionKey, rowKey: (0, keys_1.emailRowKey)(current.data.email) }], 'email');
        }
        const employeeCount = dept ? Math.max(0, dept.value.employeeCount - 1) : 0;
        const wasManager = dept?.value.manager?.employeeId === employeeId;
        if (dept) {
            plan.add([
                'update',
                (0, departmentEntity_1.departmentMerge)(department, {
                    employeeCount,
                    ...(wasManager ? { manager: null } : {}),
                }),
                'Merge',
                { etag: dept.etag },
            ], 'department');
        }
        let ids;
        if (index && index.value.ids.includes(employeeId)) {
            ids = (0, lastNameIndex_1.withoutIds)(index.value.ids, [employeeId]);
            plan.add(ids.length === 0
                ? ['delete', { partitionKey, rowKey: (0, keys_1.lastNameRowKey)(lastName) }]
                : [
                    'update',
                    (0, lastNameIndex_1.lastNameIndexEntity)(partitionKey, { lastName, ids }),
                    'Replace',
                    { etag: index.etag },
                ], 'lastNameIndex');
        }
        reviewsInTransaction =
            knownReviews !== undefined &&
                plan.roles.length + knownReviews.length <= MAX_TRANSACTION_OPERATIONS;
        if (reviewsInTransaction) {
            for (const rowKey of knownReviews ?? []) {
                plan.add(['delete', { partitionKey, rowKey }], 'review');
            }
        }
        try {
            const etags = await (0, transaction_1.submitPlanned)(table, plan);
            const etagOf = (role) => etags[plan.roles.indexOf(role)];
            const departmentEtag = etagOf('department');
            if (dept && departmentEtag) {
                (0, state_1.rememberDepartment)(context, department, {
                    value: {
                        ...dept.value,
                        employeeCount,
                        manager: wasManager ? null : dept.value.manager,
                    },
                    etag: departmentEtag,
                });
            }
            const indexEtag = etagOf('lastNameIndex');
            (0, state_1.rememberLastNameIndex)(context, department, ids && indexEtag ? { value: { lastName, ids }, etag: indexEtag } : undefined, lastName);
            return { deleted: true, employee: (0, employeeEntity_1.toEmployee)(department, current.data) };
        }
        catch (error) {
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
            (0, state_1.forgetVersions)(context, department, [lastName]);
            if (error.role === 'employee' && error.status === 404) {
                vanished = (0, employeeEntity_1.toEmployee)(department, current.data);
                return retry_1.RETRY;
            }
            if (error.role === 'review') {
                // Deleted meanwhile: let the purge find whatever is left.
                knownReviews = undefined;
                return retry_1.RETRY;
            }
            if (error.role === 'email') {
                // The employee operation came first and passed: the copy itself is missing.
                missingCopyOf = current.data.email;
                return retry_1.RETRY;
            }
            return (0, transaction_1.retryUnexplained)(error, attempt);
        }
    }, () => (0, state_1.contendedError)(`Department "${department}"`));
    if (outcome.deleted && outcome.employee) {
        await context.changes.publish([
            {
                department,
                employeeId,
                reason: options.reason ?? 'deleted',
                previous: { email: outcome.employee.email, lastName: outcome.employee.lastName },
            },
        ]);
        if (!options.keepReviews && !reviewsInTransaction) {
            await (0, reviews_1.purgeReviews)(table, partitionKey, employeeId);
        }
    }
    return outcome;
}
//# sourceMappingURL=deleteEmployee.js.map