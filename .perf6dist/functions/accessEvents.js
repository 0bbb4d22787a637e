"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listAccessEvents = exports.recordAccessEvent = void 0;
/**
 * Resource-access events (prepend/append anti-pattern avoided), API.md "Access events":
 * `POST /access-events` and
 * `GET /departments/{dept}/employees/{id}/access-events?from=ISO&to=ISO` (oldest first, paged).
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const accessLog_1 = require("../src/access/accessLog");
const config_1 = require("../src/config");
const clients_1 = require("../src/storage/clients");
const http_1 = require("./shared/http");
const input_1 = require("./shared/input");
let log;
function accessLog() {
    log ??= new accessLog_1.AccessLog((0, clients_1.getStorageClients)().table((0, config_1.getConfig)().tables.accessLog));
    return log;
}
const eventBody = zod_1.z.strictObject({
    department: input_1.departmentName,
    employeeId: input_1.employeeId,
    resource: zod_1.z.string().min(1).max(accessLog_1.MAX_RESOURCE_LENGTH),
    action: zod_1.z
        .string()
        .max(accessLog_1.MAX_ACTION_LENGTH)
        .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-", starting with a letter'),
    at: input_1.instant.optional(),
});
const windowQuery = zod_1.z.object({
    from: input_1.instant,
    to: input_1.instant,
    pageSize: (0, input_1.queryInt)(1, accessLog_1.MAX_ACCESS_PAGE_SIZE).optional(),
    continuationToken: zod_1.z.string().optional(),
});
function toJson(event) {
    return { ...event, at: event.at.toISOString() };
}
/** `POST /access-events` → 201 with the stored event. */
exports.recordAccessEvent = (0, http_1.handleErrors)(async (request) => {
    const body = await (0, http_1.readJson)(request, eventBody);
    const { event, etag } = await accessLog().record(body);
    return (0, http_1.json)(201, toJson(event), { etag });
});
/** `GET .../access-events?from&to` → one page of the window, oldest first. */
exports.listAccessEvents = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { from, to, pageSize, continuationToken } = (0, http_1.readQuery)(request, windowQuery);
    const page = await accessLog().window(dept, id, from, to, { pageSize, continuationToken });
    return (0, http_1.json)(200, { items: page.items.map(toJson), continuationToken: page.continuationToken });
});
functions_1.app.http('recordAccessEvent', {
    route: 'access-events',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.recordAccessEvent,
});
functions_1.app.http('listAccessEvents', {
    route: 'departments/{dept}/employees/{id}/access-events',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listAccessEvents,
});
//# sourceMappingURL=accessEvents.js.map