"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.putDepartment = putDepartment;
exports.getDepartment = getDepartment;
exports.listDepartments = listDepartments;
exports.setManager = setManager;
const errors_1 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const directoryErrors_1 = require("./directoryErrors");
const employeeState_1 = require("./employeeState");
const paging_1 = require("./paging");
const retry_1 = require("./retry");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
const validation_1 = require("./validation");
/**
 * Creates a department or updates its description, and lists it in the department listing.
 *
 * @param body - `{description?}`; an omitted description leaves an existing one unchanged.
 * @returns whether it was created, the department and its new ETag.
 * @throws {ValidationError} for an invalid name or body.
 * @throws {PreconditionFailedError} when `ifMatch` is given and is not the current ETag (or the department does not exist).
 */
async function putDepartment(context, listCache, name, body, options = {}) {
    const input = (0, validation_1.validateInput)(validation_1.departmentBodySchema, body, 'body');
    (0, keys_1.departmentPartitionKey)(name);
    const table = await context.table();
    const result = await (0, retry_1.retryOnConflict)(context.maxConflictAttempts, async () => {
        const current = await (0, state_1.loadDepartment)(context, name, false);
        if (!current) {
            if (options.ifMatch !== undefined)
                throw (0, directoryErrors_1.staleVersion)(`Department "${name}"`);
            const entity = (0, departmentEntity_1.departmentEntity)(name, input.description ?? '');
            try {
                const response = await table.createEntity(entity);
                const value = {
                    name,
                    description: input.description ?? '',
                    employeeCount: 0,
                    manager: null,
                };
                return { created: true, value, etag: response.etag ?? '' };
            }
            catch (error) {
                if ((0, errors_1.isAlreadyExists)(error))
                    return retry_1.RETRY;
                throw (0, errors_1.toDomainError)(error);
            }
        }
        if (options.ifMatch !== undefined && options.ifMatch !== current.etag)
            throw (0, directoryErrors_1.staleVersion)(`Department "${name}"`);
        if (input.description === undefined || input.description === current.value.description) {
            return { created: false, ...current };
        }
        try {
            const response = await table.updateEntity((0, departmentEntity_1.departmentMerge)(name, { description: input.description }), 'Merge', {
                etag: current.etag,
            });
            return {
                created: false,
                value: { ...current.value, description: input.description },
                etag: response.etag ?? '',
            };
        }
        catch (error) {
            (0, state_1.forgetVersions)(context, name);
            if ((0, errors_1.isPreconditionFailed)(error)) {
                if (options.ifMatch !== undefined)
                    throw (0, directoryErrors_1.staleVersion)(`Department "${name}"`);
                return retry_1.RETRY;
            }
            throw (0, errors_1.toDomainError)(error);
        }
    }, () => (0, state_1.contendedError)(`Department "${name}"`));
    (0, state_1.rememberDepartment)(context, name, { value: result.value, etag: result.etag });
    // The listing lives in another partition: written after the department, idempotently, so a
    // failure here is repaired by the caller's retry of the same PUT.
    await (0, errors_1.withStorageErrors)(() => table.upsertEntity((0, departmentEntity_1.departmentListingEntity)({ name, description: result.value.description }), 'Replace'));
    listCache.clear();
    return result;
}
/**
 * One department (one point read), with its ETag.
 *
 * @throws {ValidationError} for an invalid name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 */
async function getDepartment(context, name) {
    const entity = await (0, state_1.readEntity)(await context.table(), (0, keys_1.departmentPartitionKey)(name), keys_1.DEPARTMENT_ROW_KEY);
    const value = entity && (0, departmentEntity_1.readDepartment)(entity);
    if (!entity || !value)
        throw (0, directoryErrors_1.departmentNotFound)(name);
    return { value, etag: entity.etag };
}
/**
 * A page of the department list (`{name, description}` in name order), from the in-process cache
 * when a fresh copy is there, else one range query over the listing partition.
 *
 * @throws {ValidationError} for an invalid page size or continuation token.
 */
async function listDepartments(context, listCache, options = {}) {
    const pageSize = (0, validation_1.pageSizeOf)(options.pageSize);
    const key = `${pageSize}|${options.continuationToken ?? ''}`;
    const cached = listCache.get(key);
    if (cached)
        return cached;
    // Department names use only characters from " " (U+0020) to "z": this range holds them all.
    const range = { partitionKey: keys_1.DEPARTMENT_LIST_PARTITION_KEY, ge: ' ', lt: '~' };
    const page = await (0, paging_1.readRangePage)(await context.table(), 'departments', range, {
        pageSize,
        continuationToken: options.continuationToken,
    });
    const result = {
        items: page.entities
            .map(departmentEntity_1.readDepartmentListing)
            .filter((d) => d !== undefined),
        continuationToken: page.continuationToken,
    };
    listCache.set(key, result);
    return result;
}
/**
 * Makes an employee of the department its manager: copies the manager's details onto the
 * department entity and flags the employee (and unflags the previous manager) in one transaction,
 * so later name/email changes of the manager update the copy in their own transaction.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `DepartmentNotFound`, or `EmployeeNotFound` when the employee is not in the department.
 * @throws {PreconditionFailedError} when `ifMatch` is not the department's current ETag.
 */
async function setManager(context, department, employeeId, options = {}) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    (0, keys_1.employeeRowKey)(employeeId);
    const table = await context.table();
    let previousMissing;
    return (0, retry_1.retryOnConflict)(context.maxConflictAttempts, async (attempt) => {
        const [dept, employee] = await Promise.all([
            (0, state_1.loadDepartment)(context, department, false),
            (0, employeeState_1.readEmployeeState)(table, partitionKey, employeeId),
        ]);
        if (!dept)
            throw (0, directoryErrors_1.departmentNotFound)(department);
        if (!employee)
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
        if (options.ifMatch !== undefined && options.ifMatch !== dept.etag)
            throw (0, directoryErrors_1.staleVersion)(`Department "${department}"`);
        const manager = {
            employeeId,
            firstName: employee.data.firstName,
            lastName: employee.data.lastName,
            email: employee.data.email,
        };
        const previous = dept.value.manager?.employeeId;
        const plan = new transaction_1.PlannedTransaction()
            .add(['update', (0, departmentEntity_1.departmentMerge)(department, { manager }), 'Merge', { etag: dept.etag }], 'department')
            .add([
            'update',
            { partitionKey, rowKey: (0, keys_1.employeeRowKey)(employeeId), IsManager: true },
            'Merge',
            { etag: employee.etag },
        ], 'employee');
        if (previous !== undefined && previous !== employeeId && previous !== previousMissing) {
            plan.add(['update', { partitionKey, rowKey: (0, keys_1.employeeRowKey)(previous), IsManager: false }, 'Merge'], 'previousManager');
        }
        try {
            const [etag] = await (0, transaction_1.submitPlanned)(table, plan);
            const value = { ...dept.value, manager };
            if (etag)
                (0, state_1.rememberDepartment)(context, department, { value, etag });
            return { value, etag: etag ?? '' };
        }
        catch (error) {
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
            (0, state_1.forgetVersions)(context, department);
            if (error.role === 'department' && options.ifMatch !== undefined)
                throw (0, directoryErrors_1.staleVersion)(`Department "${department}"`);
            if (error.role === 'previousManager')
                previousMissing = previous;
            return (0, transaction_1.retryUnexplained)(error, attempt);
        }
    }, () => (0, state_1.contendedError)(`Department "${department}"`));
}
//# sourceMappingURL=departments.js.map