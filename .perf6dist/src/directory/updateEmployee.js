"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.updateEmployee = updateEmployee;
/**
 * Changing an employee: the employee entity, its email copy (moved when the email changes), the
 * last-name index entities (when the last name changes) and the department's manager copy (when
 * the manager's name or email changes) in ONE entity group transaction.
 *
 * The employee operation is always conditional on the ETag just read, so the copies can never
 * drift from the employee. Without `If-Match` a lost race is retried on fresh data
 * (last writer wins); with `If-Match` it is answered 412. Every transaction that changes a
 * last-name index entity also touches the department entity under its ETag, so index entities can
 * be deleted (transactions cannot make a delete conditional) without losing a concurrent change.
 */
const node_crypto_1 = require("node:crypto");
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const directoryErrors_1 = require("./directoryErrors");
const employeeEntity_1 = require("./employeeEntity");
const employeeState_1 = require("./employeeState");
const lastNameIndex_1 = require("./lastNameIndex");
const retry_1 = require("./retry");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
function applyChanges(current, changes) {
    const next = {
        employeeId: current.employeeId,
        firstName: changes.firstName ?? current.firstName,
        lastName: changes.lastName ?? current.lastName,
        email: changes.email ?? current.email,
    };
    const age = changes.age === undefined ? current.age : changes.age;
    if (age !== null && age !== undefined)
        next.age = age;
    const photoUrl = changes.photoUrl === undefined ? current.photoUrl : changes.photoUrl;
    if (photoUrl !== null && photoUrl !== undefined)
        next.photoUrl = photoUrl;
    return next;
}
function managerOf(data) {
    return {
        employeeId: data.employeeId,
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
    };
}
/**
 * Applies already validated changes to an employee and publishes an `updated` change (with the
 * previous email and last name when they changed).
 *
 * @returns the employee and the new ETag of its entity.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {PreconditionFailedError} when `ifMatch` is not the current version.
 * @throws {ConflictError} `EmailTaken`, `LastNameIndexFull`.
 * @throws {ThrottledError} when the employee kept changing concurrently, or storage is busy.
 */
async function updateEmployee(context, department, employeeId, changes, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const table = await context.table();
    const writeId = (0, node_crypto_1.randomUUID)();
    let previous;
    // Set when the old email copy turned out to be missing (damaged data): do not delete it again.
    let missingCopyOf;
    const updated = await (0, retry_1.retryOnConflict)(context.maxConflictAttempts, async (attempt) => {
        const useCache = attempt === 1;
        const current = await (0, employeeState_1.readEmployeeState)(table, partitionKey, employeeId);
        if (!current)
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
        if (options.ifMatch !== undefined &&
            !(await (0, employeeState_1.versionMatches)(table, current, options.ifMatch))) {
            throw (0, directoryErrors_1.staleVersion)(`Employee ${employeeId}`);
        }
        const next = applyChanges(current.data, changes);
        const emailChanged = (0, keys_1.emailRowKey)(next.email) !== (0, keys_1.emailRowKey)(current.data.email);
        const oldName = (0, keys_1.normalizeLastName)(current.data.lastName);
        const newName = (0, keys_1.normalizeLastName)(next.lastName);
        const nameChanged = oldName !== newName;
        const managerCopyChanged = current.meta.isManager &&
            (next.firstName !== current.data.firstName ||
                next.lastName !== current.data.lastName ||
                next.email !== current.data.email);
        const [dept, oldIndex, newIndex] = await Promise.all([
            nameChanged || managerCopyChanged
                ? (0, state_1.loadDepartment)(context, department, useCache)
                : undefined,
            nameChanged ? (0, state_1.loadLastNameIndex)(context, department, oldName, useCache) : undefined,
            nameChanged ? (0, state_1.loadLastNameIndex)(context, department, newName, useCache) : undefined,
        ]);
        if (nameChanged && !dept)
            throw (0, directoryErrors_1.departmentNotFound)(department);
        const primary = (0, employeeEntity_1.employeeEntity)(partitionKey, next, {
            isManager: current.meta.isManager,
            writeId,
            preserved: current.meta.preserved,
        });
        const plan = new transaction_1.PlannedTransaction().add(['update', primary, 'Replace', { etag: current.etag }], 'employee');
        if (emailChanged) {
            if (missingCopyOf !== current.data.email) {
                plan.add(['delete', { partitionKey, rowKey: (0, keys_1.emailRowKey)(current.data.email) }], 'oldEmail');
            }
            plan.add(['create', (0, employeeEntity_1.emailCopyEntity)(primary)], 'email');
        }
        else {
            plan.add(['upsert', (0, employeeEntity_1.emailCopyEntity)(primary), 'Replace'], 'email');
        }
        let oldIds;
        let newIds;
        if (nameChanged) {
            if (oldIndex && oldIndex.value.ids.includes(employeeId)) {
                oldIds = (0, lastNameIndex_1.withoutIds)(oldIndex.value.ids, [employeeId]);
                plan.add(oldIds.length === 0
                    ? ['delete', { partitionKey, rowKey: (0, keys_1.lastNameRowKey)(oldName) }]
                    : [
                        'update',
                        (0, lastNameIndex_1.lastNameIndexEntity)(partitionKey, { lastName: oldName, ids: oldIds }),
                        'Replace',
                        { etag: oldIndex.etag },
                    ], 'oldIndex');
            }
            newIds = (0, lastNameIndex_1.withIds)(newIndex?.value.ids ?? [], [employeeId]);
            const entity = (0, lastNameIndex_1.lastNameIndexEntity)(partitionKey, { lastName: newName, ids: newIds });
            plan.add(newIndex ? ['update', entity, 'Replace', { etag: newIndex.etag }] : ['create', entity], 'newIndex');
        }
        let nextDepartment;
        if (dept) {
            const isListedManager = dept.value.manager?.employeeId === employeeId;
            const manager = managerCopyChanged && isListedManager ? managerOf(next) : undefined;
            nextDepartment = manager ? { ...dept.value, manager } : dept.value;
            plan.add(['update', (0, departmentEntity_1.departmentMerge)(department, { manager }), 'Merge', { etag: dept.etag }], 'department');
        }
        previous = {
            ...(emailChanged ? { email: current.data.email } : {}),
            ...(nameChanged ? { lastName: current.data.lastName } : {}),
        };
        try {
            const etags = await (0, transaction_1.submitPlanned)(table, plan);
            const etagOf = (role) => etags[plan.roles.indexOf(role)];
            if (dept && nextDepartment) {
                const etag = etagOf('department');
                if (etag)
                    (0, state_1.rememberDepartment)(context, department, { value: nextDepartment, etag });
            }
            if (oldIds) {
                const etag = etagOf('oldIndex');
                (0, state_1.rememberLastNameIndex)(context, department, etag ? { value: { lastName: oldName, ids: oldIds }, etag } : undefined, oldName);
            }
            if (newIds) {
                const etag = etagOf('newIndex');
                (0, state_1.rememberLastNameIndex)(context, department, etag ? { value: { lastName: newName, ids: newIds }, etag } : undefined, newName);
            }
            return {
                value: (0, employeeEntity_1.toEmployee)(department, next),
                etag: etagOf('employee') ?? (await (0, state_1.currentEtag)(table, partitionKey, primary.rowKey)),
            };
        }
        catch (error) {
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
            (0, state_1.forgetVersions)(context, department, nameChanged ? [oldName, newName] : []);
            switch (error.role) {
                case 'employee': {
                    const own = await (0, employeeState_1.ownCommit)(table, department, partitionKey, employeeId, writeId);
                    if (own)
                        return own;
                    if (options.ifMatch !== undefined && error.status === 412)
                        throw (0, directoryErrors_1.staleVersion)(`Employee ${employeeId}`);
                    return retry_1.RETRY;
                }
                case 'oldEmail':
                    // The employee did not change (its operation came first and passed): the copy is missing.
                    missingCopyOf = current.data.email;
                    return retry_1.RETRY;
                case 'email':
                    throw (0, directoryErrors_1.emailTaken)(department, next.email);
                default:
                    return (0, transaction_1.retryUnexplained)(error, attempt);
            }
        }
    }, () => (0, state_1.contendedError)(`Employee ${employeeId}`));
    const change = { department, employeeId, reason: 'updated' };
    if (previous && Object.keys(previous).length > 0)
        change.previous = previous;
    await context.changes.publish([change]);
    return updated;
}
//# sourceMappingURL=updateEmployee.js.map