"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.directoryServices = directoryServices;
/**
 * The process-wide directory services for the HTTP adapters, built from the configuration and
 * the shared storage clients (input shapes: ./input.ts).
 */
const config_1 = require("../../src/config");
const directory_1 = require("../../src/directory/directory");
const announcingEmployees_1 = require("../../src/indexing/announcingEmployees");
const queueChangeSink_1 = require("../../src/indexing/queueChangeSink");
const clients_1 = require("../../src/storage/clients");
let directory;
/**
 * The directory over the configured `Employees` table (created on first use).
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
function directoryServices() {
    if (!directory) {
        const config = (0, config_1.getConfig)();
        // Every committed employee change goes to `index-updates` (asynchronous indexes, docs/queues.md).
        const changes = (0, queueChangeSink_1.queueChangeSink)((0, clients_1.getStorageClients)().queue(config.queues.indexUpdates), {
            announceDelaySeconds: config.directory.indexAnnounceDelaySeconds,
        });
        const services = (0, directory_1.createDirectory)({
            employees: (0, clients_1.getStorageClients)().table(config.tables.employees),
            departmentCacheTtlMs: config.directory.departmentCacheTtlMs,
            changes,
        });
        directory = { ...services, employees: (0, announcingEmployees_1.withAnnouncements)(services.employees, changes) };
    }
    return directory;
}
//# sourceMappingURL=directory.js.map