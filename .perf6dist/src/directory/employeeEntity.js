"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EMPLOYEE_FIELDS = void 0;
exports.foreignProperties = foreignProperties;
exports.employeeEntity = employeeEntity;
exports.employeeDataProperties = employeeDataProperties;
exports.emailCopyEntity = emailCopyEntity;
exports.readEmployeeData = readEmployeeData;
exports.readEmployeeFields = readEmployeeFields;
exports.readEmployeeMeta = readEmployeeMeta;
exports.toEmployee = toEmployee;
exports.storedToEmployee = storedToEmployee;
exports.employeeSelectProperties = employeeSelectProperties;
exports.projectEmployee = projectEmployee;
const keys_1 = require("../storage/keys");
const entityTypes_1 = require("./entityTypes");
/** API field name → entity property name. */
const FIELD_PROPERTIES = {
    employeeId: 'EmployeeId',
    firstName: 'FirstName',
    lastName: 'LastName',
    email: 'Email',
    age: 'Age',
    photoUrl: 'PhotoUrl',
};
/** Every field `select` accepts for employees. */
exports.EMPLOYEE_FIELDS = [
    'department',
    ...Object.keys(FIELD_PROPERTIES),
];
/** Properties this version writes itself; any other stored property is carried over untouched. */
const OWN_PROPERTIES = new Set([
    entityTypes_1.ENTITY_TYPE_PROPERTY,
    ...Object.values(FIELD_PROPERTIES),
    'IsManager',
    'WriteId',
]);
/** Properties the SDK adds to a read entity that are not data. */
const SYSTEM_PROPERTIES = new Set([
    'partitionKey',
    'rowKey',
    'etag',
    'timestamp',
    'odata.etag',
    'odata.metadata',
]);
/** Properties of the stored entity that this version does not own (a newer version's). */
function foreignProperties(entity) {
    const kept = {};
    for (const [name, value] of Object.entries(entity)) {
        if (!OWN_PROPERTIES.has(name) && !SYSTEM_PROPERTIES.has(name))
            kept[name] = value;
    }
    return kept;
}
/**
 * The primary employee entity, `empid_<id>` in the department's partition.
 *
 * @throws {ValidationError} for an invalid department or employee id.
 */
function employeeEntity(partitionKey, data, meta) {
    return {
        ...meta.preserved,
        partitionKey,
        rowKey: (0, keys_1.employeeRowKey)(data.employeeId),
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.employee,
        ...employeeDataProperties(data),
        IsManager: meta.isManager,
        WriteId: meta.writeId,
    };
}
/**
 * The stored properties of employee data (the inverse of {@link readEmployeeFields}), for every
 * entity that carries a copy of it: the primary, its email copy, index entries elsewhere.
 */
function employeeDataProperties(data) {
    const properties = {
        EmployeeId: data.employeeId,
        FirstName: data.firstName,
        LastName: data.lastName,
        Email: data.email,
    };
    if (data.age !== undefined)
        properties.Age = data.age;
    if (data.photoUrl !== undefined)
        properties.PhotoUrl = data.photoUrl;
    return properties;
}
/**
 * The email copy of a primary employee entity: same data under `email_<normalised address>`,
 * without the primary's bookkeeping.
 */
function emailCopyEntity(primary) {
    const { IsManager: _isManager, WriteId: _writeId, ...data } = primary;
    return {
        ...data,
        partitionKey: primary.partitionKey,
        rowKey: (0, keys_1.emailRowKey)(String(primary.Email)),
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.employeeEmail,
    };
}
/** The data of a stored employee or email copy; `undefined` for another type or a malformed one. */
function readEmployeeData(entity) {
    if (!(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employee) &&
        !(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employeeEmail)) {
        return undefined;
    }
    return readEmployeeFields(entity);
}
/**
 * The employee fields of any entity that carries a copy of them (primary, email copy, or an
 * index entry elsewhere), whatever its `EntityType`; `undefined` when one is missing or malformed.
 */
function readEmployeeFields(entity) {
    const { EmployeeId, FirstName, LastName, Email, Age, PhotoUrl } = entity;
    if (typeof EmployeeId !== 'string' ||
        !(0, keys_1.isEmployeeId)(EmployeeId) ||
        typeof FirstName !== 'string' ||
        typeof LastName !== 'string' ||
        typeof Email !== 'string') {
        return undefined;
    }
    const data = {
        employeeId: EmployeeId,
        firstName: FirstName,
        lastName: LastName,
        email: Email,
    };
    if (typeof Age === 'number')
        data.age = Age;
    if (typeof PhotoUrl === 'string')
        data.photoUrl = PhotoUrl;
    return data;
}
/** The bookkeeping of a stored primary employee entity. */
function readEmployeeMeta(entity) {
    return {
        isManager: entity.IsManager === true,
        writeId: typeof entity.WriteId === 'string' ? entity.WriteId : undefined,
        preserved: foreignProperties(entity),
    };
}
/** The API JSON of employee data in a department. */
function toEmployee(department, data) {
    const employee = {
        department,
        employeeId: data.employeeId,
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
        age: data.age ?? null,
    };
    if (data.photoUrl !== undefined)
        employee.photoUrl = data.photoUrl;
    return employee;
}
/** A stored employee (or email copy) as API JSON; `undefined` for another entity type. */
function storedToEmployee(entity) {
    const department = (0, keys_1.parseDepartmentPartitionKey)(entity.partitionKey);
    const data = readEmployeeData(entity);
    return department !== undefined && data ? toEmployee(department, data) : undefined;
}
/** Entity properties to ask the service for when the caller selects `fields` (keys always). */
function employeeSelectProperties(fields) {
    const properties = new Set([
        'PartitionKey',
        'RowKey',
        entityTypes_1.ENTITY_TYPE_PROPERTY,
        'EmployeeId',
    ]);
    for (const field of fields)
        if (field !== 'department')
            properties.add(FIELD_PROPERTIES[field]);
    return [...properties];
}
/**
 * A projected stored employee as API JSON: the keys (`department`, `employeeId`) plus the
 * selected fields that the entity has; `undefined` for another entity type.
 */
function projectEmployee(entity, fields) {
    const department = (0, keys_1.parseDepartmentPartitionKey)(entity.partitionKey);
    if (department === undefined ||
        (!(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employee) &&
            !(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.employeeEmail)) ||
        typeof entity.EmployeeId !== 'string') {
        return undefined;
    }
    const json = { department, employeeId: entity.EmployeeId };
    for (const field of fields) {
        if (field === 'department' || field === 'employeeId')
            continue;
        const value = entity[FIELD_PROPERTIES[field]];
        if (field === 'age')
            json.age = typeof value === 'number' ? value : null;
        else if (value !== undefined)
            json[field] = value;
    }
    return json;
}
//# sourceMappingURL=employeeEntity.js.map