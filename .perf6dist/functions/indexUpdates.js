"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.indexUpdatesWorker = indexUpdatesWorker;
/**
 * Queue trigger on `index-updates`: reconciles the inter-partition index (`EmployeeIndex`) and the
 * organisation-wide last-name index with the current primary entities of each employee the message
 * names (src/indexing/indexMaintenance.ts), and removes the photos of employees that are gone.
 */
const functions_1 = require("@azure/functions");
const config_1 = require("../src/config");
const indexUpdates_1 = require("../src/indexing/indexUpdates");
const photos_1 = require("../src/photos/photos");
const consistency_1 = require("./shared/consistency");
const queuePayload_1 = require("./shared/queuePayload");
/**
 * Handles one message.
 *
 * @throws for a malformed message or a storage fault (the host retries, then poisons).
 */
async function indexUpdatesWorker(queueEntry, context) {
    const outcome = await (0, indexUpdates_1.handleIndexUpdateMessage)((0, consistency_1.indexStores)(), (0, queuePayload_1.queuePayload)(queueEntry), async (department, employeeId) => {
        await (0, photos_1.removePhotosOfGoneEmployee)((0, consistency_1.photoDependencies)(), department, employeeId);
    });
    context.log(`Reconciled ${outcome.employees} employees (${outcome.gone} gone), delivery ${(0, queuePayload_1.dequeueCount)(context)}.`);
}
functions_1.app.storageQueue('indexUpdates', {
    queueName: (0, config_1.getConfig)().queues.indexUpdates,
    connection: 'AzureWebJobsStorage',
    handler: indexUpdatesWorker,
});
//# sourceMappingURL=indexUpdates.js.map