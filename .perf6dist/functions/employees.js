"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.findEmployeesByLastName = exports.deleteEmployee = exports.patchEmployee = exports.listEmployees = exports.getEmployeeByEmail = exports.getEmployee = exports.importEmployees = exports.createEmployee = void 0;
/**
 * Employees (intra-partition secondary index, entity group transactions), API.md "Employees":
 * create, import, point reads by id and by email, id/email range queries, PATCH, DELETE, and the
 * last-name lookup within a department.
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const validation_1 = require("../src/directory/validation");
const indexQueries_1 = require("../src/indexing/indexQueries");
const consistency_1 = require("./shared/consistency");
const directory_1 = require("./shared/directory");
const http_1 = require("./shared/http");
const input_1 = require("./shared/input");
/** An import body of 1,000 rows with long non-Latin names can pass the default 1 MiB. */
const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
const listQuery = zod_1.z.strictObject({
    fromId: zod_1.z.string().optional(),
    toId: zod_1.z.string().optional(),
    emailFrom: zod_1.z.string().optional(),
    emailTo: zod_1.z.string().optional(),
    emailPrefix: zod_1.z.string().optional(),
    ...input_1.listParams,
});
const byEmailRoute = input_1.departmentRoute.extend({ email: zod_1.z.string().min(1).max(1024) });
const byEmailQuery = zod_1.z.strictObject({ consistency: zod_1.z.enum(['strong', 'eventual']).optional() });
const lastNameQuery = zod_1.z.strictObject({
    lastName: zod_1.z.string().min(1).max(254),
    department: zod_1.z.string().optional(),
    ...input_1.listParams,
});
/** `POST /departments/{dept}/employees` → 201 with the employee and its ETag. */
exports.createEmployee = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const body = await (0, http_1.readJson)(request, validation_1.newEmployeeSchema);
    const result = await (0, directory_1.directoryServices)().employees.create(dept, body);
    return (0, http_1.json)(201, result.value, { etag: result.etag });
});
/** `POST /departments/{dept}/employees/import` → 200 `{created, failed}`. */
exports.importEmployees = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const body = await (0, http_1.readJson)(request, validation_1.importBodySchema, MAX_IMPORT_BYTES);
    return (0, http_1.json)(200, await (0, directory_1.directoryServices)().employees.import(dept, body.employees));
});
/** `GET /departments/{dept}/employees/{id}` → the employee and its ETag. */
exports.getEmployee = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const result = await (0, directory_1.directoryServices)().employees.get(dept, id);
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
/**
 * `GET /departments/{dept}/employees/by-email/{email}` → the employee, from its email copy.
 * The route is a catch-all so an address with `/` may be sent raw; an encoded `%2F`, which the
 * host leaves encoded in route values, is decoded here.
 */
exports.getEmployeeByEmail = (0, http_1.handleErrors)(async (request) => {
    const { dept, email } = (0, http_1.readParams)(request, byEmailRoute);
    const { consistency } = (0, http_1.readQuery)(request, byEmailQuery);
    const address = email.replace(/%2F/gi, '/');
    const result = consistency === 'eventual'
        ? await (0, indexQueries_1.getEmployeeByEmailEventually)((0, consistency_1.indexStores)().index, dept, address)
        : await (0, directory_1.directoryServices)().employees.getByEmail(dept, address);
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
/** `GET /departments/{dept}/employees?fromId&toId | emailFrom&emailTo | emailPrefix` → a page. */
exports.listEmployees = (0, http_1.handleErrors)(async (request) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const { pageSize, continuationToken, select, ...range } = (0, http_1.readQuery)(request, listQuery);
    return (0, http_1.json)(200, await (0, directory_1.directoryServices)().employees.list(dept, range, { pageSize, continuationToken, select }));
});
/** `PATCH /departments/{dept}/employees/{id}` → the employee and its new ETag. */
exports.patchEmployee = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const body = await (0, http_1.readJson)(request, zod_1.z.unknown());
    const result = await (0, directory_1.directoryServices)().employees.patch(dept, id, body, {
        ifMatch: (0, http_1.ifMatch)(request),
    });
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
/** `DELETE /departments/{dept}/employees/{id}` → 204. */
exports.deleteEmployee = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    await (0, directory_1.directoryServices)().employees.delete(dept, id, { ifMatch: (0, http_1.ifMatch)(request) });
    return { status: 204 };
});
/** `GET /employees?lastName=X&department=D` → `{items, continuationToken}` through the index entity. */
exports.findEmployeesByLastName = (0, http_1.handleErrors)(async (request) => {
    const { lastName, department, pageSize, continuationToken, select } = (0, http_1.readQuery)(request, lastNameQuery);
    if (department === undefined) {
        // Organisation-wide: through the last-name index entities (option 1 or 3, LASTNAME_INDEX_MODE).
        const stores = (0, consistency_1.indexStores)();
        return (0, http_1.json)(200, await (0, indexQueries_1.findEmployeesAcrossOrganisation)(stores.employees, stores.lastNames, lastName, {
            pageSize,
            continuationToken,
            select,
        }));
    }
    return (0, http_1.json)(200, await (0, directory_1.directoryServices)().employees.findByLastName(department, lastName, {
        pageSize,
        continuationToken,
        select,
    }));
});
const employees = 'departments/{dept}/employees';
functions_1.app.http('listEmployees', {
    route: employees,
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listEmployees,
});
functions_1.app.http('createEmployee', {
    route: employees,
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.createEmployee,
});
functions_1.app.http('importEmployees', {
    route: `${employees}/import`,
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.importEmployees,
});
functions_1.app.http('getEmployeeByEmail', {
    route: `${employees}/by-email/{*email}`,
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.getEmployeeByEmail,
});
functions_1.app.http('getEmployee', {
    route: `${employees}/{id}`,
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.getEmployee,
});
functions_1.app.http('patchEmployee', {
    route: `${employees}/{id}`,
    methods: ['PATCH'],
    authLevel: 'function',
    handler: exports.patchEmployee,
});
functions_1.app.http('deleteEmployee', {
    route: `${employees}/{id}`,
    methods: ['DELETE'],
    authLevel: 'function',
    handler: exports.deleteEmployee,
});
functions_1.app.http('findEmployeesByLastName', {
    route: 'employees',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.findEmployeesByLastName,
});
//# sourceMappingURL=employees.js.map