"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.configuredServices = configuredServices;
/**
 * The orchestration services over the configured storage (one instance per process).
 */
const config_1 = require("../config");
const context_1 = require("../directory/context");
const directory_1 = require("../directory/directory");
const lastNameStores_1 = require("../indexing/lastNameStores");
const queueChangeSink_1 = require("../indexing/queueChangeSink");
const clients_1 = require("../storage/clients");
let services;
/**
 * The services the activities use, over the configured tables, queue and container. Directory
 * changes go to the `index-updates` queue as for every other writer.
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
function configuredServices() {
    if (!services) {
        const config = (0, config_1.getConfig)();
        const clients = (0, clients_1.getStorageClients)();
        const employees = clients.table(config.tables.employees);
        const index = clients.table(config.tables.employeeIndex);
        const changes = (0, queueChangeSink_1.queueChangeSink)(clients.queue(config.queues.indexUpdates));
        services = {
            directory: (0, context_1.createContext)({ employees, changes }),
            employees: (0, directory_1.createDirectory)({ employees, changes }).employees,
            archive: clients.table(config.tables.archive),
            indexStores: {
                employees,
                index,
                lastNames: (0, lastNameStores_1.lastNameStoreFor)(config.directory.lastNameIndexMode, index, clients.container(config.containers.lastNameIndex)),
            },
        };
    }
    return services;
}
//# sourceMappingURL=configuredServices.js.map