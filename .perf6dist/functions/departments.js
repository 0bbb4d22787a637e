"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.setDepartmentManager = exports.listDepartments = exports.getDepartment = exports.putDepartment = void 0;
/**
 * Departments (denormalization, one-to-many, client-side join cache), API.md "Departments":
 * `PUT/GET /departments/{dept}`, `GET /departments`, `PUT /departments/{dept}/manager`.
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const validation_1 = require("../src/directory/validation");
const directory_1 = require("./shared/directory");
const input_1 = require("./shared/input");
const http_1 = require("./shared/http");
const listQuery = zod_1.z.strictObject({
    pageSize: input_1.listParams.pageSize,
    continuationToken: input_1.listParams.continuationToken,
});
/** `PUT /departments/{dept}` → 201 created or 200 updated, with the department and its ETag. */
exports.putDepartment = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const body = await (0, http_1.readJson)(request, validation_1.departmentBodySchema);
    const result = await (0, directory_1.directoryServices)().departments.put(dept, body, {
        ifMatch: (0, http_1.ifMatch)(request),
    });
    return (0, http_1.json)(result.created ? 201 : 200, result.value, { etag: result.etag });
});
/** `GET /departments/{dept}` → the department (one point read) and its ETag. */
exports.getDepartment = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const result = await (0, directory_1.directoryServices)().departments.get(dept);
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
/** `GET /departments` → a page of `{name, description}`. */
exports.listDepartments = (0, http_1.handleErrors)(async (request) => {
    const query = (0, http_1.readQuery)(request, listQuery);
    return (0, http_1.json)(200, await (0, directory_1.directoryServices)().departments.list(query));
});
/** `PUT /departments/{dept}/manager` → the department with the manager's details copied on. */
exports.setDepartmentManager = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const { employeeId } = await (0, http_1.readJson)(request, validation_1.managerBodySchema);
    const result = await (0, directory_1.directoryServices)().departments.setManager(dept, employeeId, {
        ifMatch: (0, http_1.ifMatch)(request),
    });
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
functions_1.app.http('listDepartments', {
    route: 'departments',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listDepartments,
});
functions_1.app.http('getDepartment', {
    route: 'departments/{dept}',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.getDepartment,
});
functions_1.app.http('putDepartment', {
    route: 'departments/{dept}',
    methods: ['PUT'],
    authLevel: 'function',
    handler: exports.putDepartment,
});
functions_1.app.http('setDepartmentManager', {
    route: 'departments/{dept}/manager',
    methods: ['PUT'],
    authLevel: 'function',
    handler: exports.setDepartmentManager,
});
//# sourceMappingURL=departments.js.map