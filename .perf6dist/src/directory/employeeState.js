"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readEmployeeState = readEmployeeState;
exports.versionMatches = versionMatches;
exports.ownCommit = ownCommit;
const keys_1 = require("../storage/keys");
const employeeEntity_1 = require("./employeeEntity");
const entityTypes_1 = require("./entityTypes");
const state_1 = require("./state");
/**
 * The primary employee entity, or `undefined` when there is none (or it is of a type this
 * version does not know).
 *
 * @throws {DomainError} for storage faults.
 */
async function readEmployeeState(table, partitionKey, employeeId) {
    const entity = await (0, state_1.readEntity)(table, partitionKey, (0, keys_1.employeeRowKey)(employeeId));
    if (!entity || !(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employee))
        return undefined;
    const data = (0, employeeEntity_1.readEmployeeData)(entity);
    return data ? { entity, data, meta: (0, employeeEntity_1.readEmployeeMeta)(entity), etag: entity.etag } : undefined;
}
/**
 * True when `ifMatch` names the current version of the employee: the ETag of the primary entity
 * (from `GET .../employees/{id}`) or of its email copy (from `GET .../by-email/{email}`). Every
 * data write rewrites both in one transaction, so the copy's ETag is current exactly when the
 * data the caller saw is.
 *
 * @throws {DomainError} for storage faults.
 */
async function versionMatches(table, state, ifMatch) {
    if (ifMatch === state.etag)
        return true;
    const copy = await (0, state_1.readEntity)(table, state.entity.partitionKey, (0, keys_1.emailRowKey)(state.data.email), [
        'EmployeeId',
    ]);
    return copy !== undefined && copy.etag === ifMatch && copy.EmployeeId === state.data.employeeId;
}
/**
 * After a transaction failed on the employee operation: the employee as written by *this* write
 * if it did commit (an earlier try whose answer was lost, retried by the SDK), else `undefined`.
 *
 * @throws {DomainError} for storage faults.
 */
async function ownCommit(table, department, partitionKey, employeeId, writeId) {
    const state = await readEmployeeState(table, partitionKey, employeeId);
    return state && state.meta.writeId === writeId
        ? { value: (0, employeeEntity_1.toEmployee)(department, state.data), etag: state.etag }
        : undefined;
}
//# sourceMappingURL=employeeState.js.map