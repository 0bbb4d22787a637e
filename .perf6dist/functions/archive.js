"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getArchived = exports.requestEmployeeArchive = void 0;
exports.archiveWorker = archiveWorker;
/**
 * Archive (eventually consistent transaction through a queue), API.md "Archive":
 * `POST /departments/{dept}/employees/{id}/archive` → 202 and an `archive-requests` message;
 * the queue trigger moves the employee (src/archive/archiveEmployee.ts);
 * `GET /archive/departments/{dept}/employees/{id}` reads the archived copy.
 * A message whose processing keeps failing lands in `archive-requests-poison` after
 * `maxDequeueCount` (host.json).
 */
const functions_1 = require("@azure/functions");
const archiveEmployee_1 = require("../src/archive/archiveEmployee");
const archiveRequests_1 = require("../src/archive/archiveRequests");
const config_1 = require("../src/config");
const clients_1 = require("../src/storage/clients");
const consistency_1 = require("./shared/consistency");
const input_1 = require("./shared/input");
const http_1 = require("./shared/http");
const queuePayload_1 = require("./shared/queuePayload");
/** `POST /departments/{dept}/employees/{id}/archive` → 202 `{"status":"queued"}` + `Location`. */
exports.requestEmployeeArchive = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const config = (0, config_1.getConfig)();
    const clients = (0, clients_1.getStorageClients)();
    await (0, archiveRequests_1.requestArchive)(clients.table(config.tables.employees), clients.queue(config.queues.archive), dept, id);
    return (0, http_1.json)(202, { status: 'queued' }, {
        location: `/api/archive/departments/${encodeURIComponent(dept)}/employees/${id}`,
    });
});
/** `GET /archive/departments/{dept}/employees/{id}` → the archived employee, or 404. */
exports.getArchived = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const config = (0, config_1.getConfig)();
    return (0, http_1.json)(200, await (0, archiveEmployee_1.getArchivedEmployee)((0, clients_1.getStorageClients)().table(config.tables.archive), dept, id));
});
/**
 * Queue trigger on `archive-requests`: runs the archive sequence; throwing makes the host retry.
 *
 * @throws for a malformed message or a failure of any step (the host retries, then poisons).
 */
async function archiveWorker(queueEntry, context) {
    const message = (0, archiveRequests_1.parseArchiveRequest)((0, queuePayload_1.queuePayload)(queueEntry));
    const result = await (0, archiveEmployee_1.archiveEmployee)((0, consistency_1.archiveDependencies)(), message.department, message.employeeId);
    context.log(`Archive ${message.department}/${message.employeeId} (delivery ${(0, queuePayload_1.dequeueCount)(context)}): ${result.outcome}.`);
}
functions_1.app.http('requestEmployeeArchive', {
    route: 'departments/{dept}/employees/{id}/archive',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.requestEmployeeArchive,
});
functions_1.app.http('getArchivedEmployee', {
    route: 'archive/departments/{dept}/employees/{id}',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.getArchived,
});
functions_1.app.storageQueue('archiveEmployee', {
    queueName: (0, config_1.getConfig)().queues.archive,
    connection: 'AzureWebJobsStorage',
    handler: archiveWorker,
});
//# sourceMappingURL=archive.js.map