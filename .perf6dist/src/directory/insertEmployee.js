"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.insertEmployee = insertEmployee;
/**
 * Inserting one employee into a department's partition: the employee entity, its email copy, the
 * department's count and the last-name index entity change in ONE entity group transaction,
 * conditional on the department's and the index entity's ETags (a missing department fails the
 * whole batch: 404). Creating an employee and a move's copy into its target both insert this way.
 */
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const directoryErrors_1 = require("./directoryErrors");
const employeeEntity_1 = require("./employeeEntity");
const employeeState_1 = require("./employeeState");
const lastNameIndex_1 = require("./lastNameIndex");
const retry_1 = require("./retry");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
/**
 * Inserts a (validated) employee into `department` as a non-manager, retrying on concurrent
 * changes of the department or index entity. Publishes no change: the caller does.
 *
 * @param meta - `writeId` recognises this write's own earlier commit; `preserved` carries
 *   properties of a newer app version (a move keeps them).
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists` (another write's employee has the id), `EmailTaken`,
 *   `LastNameIndexFull`.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
async function insertEmployee(context, department, data, meta) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const table = await context.table();
    const lastName = (0, keys_1.normalizeLastName)(data.lastName);
    const primary = (0, employeeEntity_1.employeeEntity)(partitionKey, data, { ...meta, isManager: false });
    return (0, retry_1.retryOnConflict)(context.maxConflictAttempts, async (attempt) => {
        const useCache = attempt === 1;
        const [dept, index] = await Promise.all([
            (0, state_1.loadDepartment)(context, department, useCache),
            (0, state_1.loadLastNameIndex)(context, department, lastName, useCache),
        ]);
        if (!dept)
            throw (0, directoryErrors_1.departmentNotFound)(department);
        const ids = (0, lastNameIndex_1.withIds)(index?.value.ids ?? [], [data.employeeId]);
        const indexEntity = (0, lastNameIndex_1.lastNameIndexEntity)(partitionKey, { lastName, ids });
        const employeeCount = dept.value.employeeCount + 1;
        const plan = new transaction_1.PlannedTransaction()
            .add(['create', primary], 'employee')
            .add(['create', (0, employeeEntity_1.emailCopyEntity)(primary)], 'email')
            .add(['update', (0, departmentEntity_1.departmentMerge)(department, { employeeCount }), 'Merge', { etag: dept.etag }], 'department')
            .add(index
            ? ['update', indexEntity, 'Replace', { etag: index.etag }]
            : ['create', indexEntity], 'lastNameIndex');
        try {
            const [etag, , departmentEtag, indexEtag] = await (0, transaction_1.submitPlanned)(table, plan);
            if (departmentEtag) {
                (0, state_1.rememberDepartment)(context, department, {
                    value: { ...dept.value, employeeCount },
                    etag: departmentEtag,
                });
            }
            (0, state_1.rememberLastNameIndex)(context, department, indexEtag ? { value: { lastName, ids }, etag: indexEtag } : undefined, lastName);
            return {
                value: (0, employeeEntity_1.toEmployee)(department, data),
                etag: etag ?? (await (0, state_1.currentEtag)(table, partitionKey, primary.rowKey)),
                inserted: true,
            };
        }
        catch (error) {
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
            (0, state_1.forgetVersions)(context, department, [lastName]);
            switch (error.role) {
                case 'employee': {
                    const own = await (0, employeeState_1.ownCommit)(table, department, partitionKey, data.employeeId, meta.writeId);
                    if (own)
                        return { ...own, inserted: false };
                    throw (0, directoryErrors_1.employeeExists)(department, data.employeeId);
                }
                case 'email':
                    throw (0, directoryErrors_1.emailTaken)(department, data.email);
                case 'department':
                    if (error.status === 404 && !useCache)
                        throw (0, directoryErrors_1.departmentNotFound)(department);
                    return retry_1.RETRY;
                default:
                    return (0, transaction_1.retryUnexplained)(error, attempt);
            }
        }
    }, () => (0, state_1.contendedError)(`Department "${department}"`));
}
//# sourceMappingURL=insertEmployee.js.map