"use strict";
/**
 * Entity types of the `Employees` table (heterogeneous entity types pattern).
 *
 * One department partition holds several kinds of entity. Each carries an `EntityType` property
 * naming its type and version, and its RowKey starts with a type prefix (see src/storage/keys.ts),
 * so a range query returns one type and a reader can skip any entity whose type it does not know
 * (an entity written by a newer version of the app, for example).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.ENTITY_TYPE_PROPERTY = exports.EntityTypes = void 0;
exports.isEntityOfType = isEntityOfType;
/** Every entity type this version of the directory reads and writes. */
exports.EntityTypes = {
    employee: 'Employee.v1',
    employeeEmail: 'EmployeeEmail.v1',
    department: 'Department.v1',
    departmentListing: 'DepartmentListing.v1',
    lastNameIndex: 'LastNameIndex.v1',
    review: 'Review.v1',
};
/** Name of the property that carries the type. */
exports.ENTITY_TYPE_PROPERTY = 'EntityType';
/** True when a stored entity declares exactly `type` (unknown types and versions are skipped). */
function isEntityOfType(entity, type) {
    return entity[exports.ENTITY_TYPE_PROPERTY] === type;
}
//# sourceMappingURL=entityTypes.js.map