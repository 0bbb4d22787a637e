"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createSasHandlers = createSasHandlers;
/**
 * SAS endpoints (API.md "SAS"): the valet key. Each route reads the App Service principal,
 * validates input, asks the SAS service for a token and returns it uncached.
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const principal_1 = require("../src/identity/principal");
const service_1 = require("../src/sas/service");
const http_1 = require("./shared/http");
/** Tokens are secrets with an expiry: never let a proxy or browser keep them. */
const NO_STORE = { 'cache-control': 'no-store' };
const lifetimeBody = zod_1.z.object({ minutes: zod_1.z.number().int().min(1).optional() });
const photoBody = lifetimeBody.extend({ access: zod_1.z.enum(['read', 'write']) });
const departmentParams = zod_1.z.object({ dept: zod_1.z.string() });
const employeeParams = zod_1.z.object({ dept: zod_1.z.string(), id: zod_1.z.string() });
const tableParams = zod_1.z.object({ table: zod_1.z.string() });
function principalOf(request) {
    return (0, principal_1.parsePrincipalHeader)(request.headers.get(principal_1.PRINCIPAL_HEADER));
}
/** Authenticates first, so that a caller without identity learns nothing about the input rules. */
function withPrincipal(handler) {
    return (0, http_1.handleErrors)(async (request) => {
        const principal = principalOf(request);
        return (0, http_1.json)(200, await handler(principal, request), NO_STORE);
    });
}
/** The SAS handlers over a service (the registered ones use the process-wide service). */
function createSasHandlers(service) {
    return {
        expenses: withPrincipal(async (principal, request) => {
            const { dept, id } = (0, http_1.readParams)(request, employeeParams);
            const { minutes } = await (0, http_1.readJson)(request, lifetimeBody);
            return service().expensesSas(principal, dept, id, minutes);
        }),
        department: withPrincipal(async (principal, request) => {
            const { dept } = (0, http_1.readParams)(request, departmentParams);
            const { minutes } = await (0, http_1.readJson)(request, lifetimeBody);
            return service().departmentSas(principal, dept, minutes);
        }),
        photo: withPrincipal(async (principal, request) => {
            const { dept, id } = (0, http_1.readParams)(request, employeeParams);
            const { access, minutes } = await (0, http_1.readJson)(request, photoBody);
            return service().photoSas(principal, dept, id, access, minutes);
        }),
        logs: withPrincipal(async (principal, request) => {
            const { minutes } = await (0, http_1.readJson)(request, lifetimeBody);
            return service().logsSas(principal, minutes);
        }),
        rotatePolicy: withPrincipal(async (principal, request) => {
            const { table } = (0, http_1.readParams)(request, tableParams);
            return service().rotateSasPolicy(principal, table);
        }),
    };
}
const handlers = createSasHandlers(service_1.getSasService);
functions_1.app.http('sasExpenses', {
    route: 'sas/expenses/{dept}/{id}',
    methods: ['POST'],
    authLevel: 'function',
    handler: handlers.expenses,
});
functions_1.app.http('sasDepartment', {
    route: 'sas/departments/{dept}',
    methods: ['POST'],
    authLevel: 'function',
    handler: handlers.department,
});
functions_1.app.http('sasPhoto', {
    route: 'sas/photos/{dept}/{id}',
    methods: ['POST'],
    authLevel: 'function',
    handler: handlers.photo,
});
functions_1.app.http('sasLogs', {
    route: 'sas/logs',
    methods: ['POST'],
    authLevel: 'function',
    handler: handlers.logs,
});
// Not `admin/...`: the Functions host reserves that prefix for its own API.
functions_1.app.http('sasPolicyRotate', {
    route: 'sas/policies/{table}/rotate',
    methods: ['POST'],
    authLevel: 'function',
    handler: handlers.rotatePolicy,
});
//# sourceMappingURL=sas.js.map