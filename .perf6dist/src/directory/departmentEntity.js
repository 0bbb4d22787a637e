"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.managerProperties = managerProperties;
exports.departmentEntity = departmentEntity;
exports.departmentMerge = departmentMerge;
exports.readDepartment = readDepartment;
exports.departmentListingEntity = departmentListingEntity;
exports.readDepartmentListing = readDepartmentListing;
const keys_1 = require("../storage/keys");
const entityTypes_1 = require("./entityTypes");
/**
 * Manager properties for a Merge (an empty `ManagerEmployeeId` means "no manager", so a Merge can
 * clear the copy without replacing the entity).
 */
function managerProperties(manager) {
    return {
        ManagerEmployeeId: manager?.employeeId ?? '',
        ManagerFirstName: manager?.firstName ?? '',
        ManagerLastName: manager?.lastName ?? '',
        ManagerEmail: manager?.email ?? '',
    };
}
/**
 * A new department entity.
 *
 * @throws {ValidationError} for an invalid department name.
 */
function departmentEntity(name, description) {
    return {
        partitionKey: (0, keys_1.departmentPartitionKey)(name),
        rowKey: keys_1.DEPARTMENT_ROW_KEY,
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.department,
        Name: name,
        Description: description,
        EmployeeCount: 0,
        ...managerProperties(null),
    };
}
/** The changes of a department entity for a Merge in the same transaction as its employees. */
function departmentMerge(name, changes) {
    const entity = {
        partitionKey: (0, keys_1.departmentPartitionKey)(name),
        rowKey: keys_1.DEPARTMENT_ROW_KEY,
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.department,
    };
    if (changes.employeeCount !== undefined)
        entity.EmployeeCount = changes.employeeCount;
    if (changes.description !== undefined)
        entity.Description = changes.description;
    if (changes.manager !== undefined)
        Object.assign(entity, managerProperties(changes.manager));
    return entity;
}
/** A stored department entity as API JSON; `undefined` for another entity type. */
function readDepartment(entity) {
    if (!(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.department) || typeof entity.Name !== 'string')
        return undefined;
    const managerId = entity.ManagerEmployeeId;
    return {
        name: entity.Name,
        description: typeof entity.Description === 'string' ? entity.Description : '',
        employeeCount: typeof entity.EmployeeCount === 'number' ? entity.EmployeeCount : 0,
        manager: typeof managerId === 'string' && managerId !== ''
            ? {
                employeeId: managerId,
                firstName: String(entity.ManagerFirstName ?? ''),
                lastName: String(entity.ManagerLastName ?? ''),
                email: String(entity.ManagerEmail ?? ''),
            }
            : null,
    };
}
/** The listing entity of a department (upserted, so writing it again is harmless). */
function departmentListingEntity(summary) {
    return {
        partitionKey: keys_1.DEPARTMENT_LIST_PARTITION_KEY,
        rowKey: (0, keys_1.departmentListRowKey)(summary.name),
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.departmentListing,
        Name: summary.name,
        Description: summary.description,
    };
}
/** A stored listing entity as API JSON; `undefined` for another entity type. */
function readDepartmentListing(entity) {
    const name = (0, keys_1.parseDepartmentListRowKey)(entity.rowKey);
    if (!(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.departmentListing) || name === undefined)
        return undefined;
    return { name, description: typeof entity.Description === 'string' ? entity.Description : '' };
}
//# sourceMappingURL=departmentEntity.js.map