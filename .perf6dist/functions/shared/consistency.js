"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.indexStores = indexStores;
exports.archiveDependencies = archiveDependencies;
exports.photoDependencies = photoDependencies;
/**
 * Process-wide services of the queue-driven parts (archive, asynchronous indexes, photos), built
 * from the configuration and the shared storage clients.
 */
const config_1 = require("../../src/config");
const lastNameStores_1 = require("../../src/indexing/lastNameStores");
const queueChangeSink_1 = require("../../src/indexing/queueChangeSink");
const blobSas_1 = require("../../src/sas/blobSas");
const signingKey_1 = require("../../src/sas/signingKey");
const clients_1 = require("../../src/storage/clients");
const directory_1 = require("./directory");
let stores;
let photos;
let archiveChanges;
/** The index tables and the configured last-name store. */
function indexStores() {
    if (!stores) {
        const config = (0, config_1.getConfig)();
        const clients = (0, clients_1.getStorageClients)();
        const index = clients.table(config.tables.employeeIndex);
        stores = {
            employees: clients.table(config.tables.employees),
            index,
            lastNames: (0, lastNameStores_1.lastNameStoreFor)(config.directory.lastNameIndexMode, index, clients.container(config.containers.lastNameIndex), { maxShardChars: config.directory.lastNameShardChars }),
        };
    }
    return stores;
}
/** What the archive worker needs. */
function archiveDependencies() {
    const config = (0, config_1.getConfig)();
    const clients = (0, clients_1.getStorageClients)();
    return {
        employees: clients.table(config.tables.employees),
        archive: clients.table(config.tables.archive),
        directory: (0, directory_1.directoryServices)().employees,
        // The archive message re-publishes on a replay, so the delete need not announce.
        changes: (archiveChanges ??= (0, queueChangeSink_1.queueChangeSink)(clients.queue(config.queues.indexUpdates), {
            announceDelaySeconds: config.directory.indexAnnounceDelaySeconds,
        })),
    };
}
/** What the photo feature needs (service SAS with the account key, user delegation otherwise). */
function photoDependencies() {
    if (!photos) {
        const config = (0, config_1.getConfig)();
        const clients = (0, clients_1.getStorageClients)();
        const keyed = (0, signingKey_1.resolveKeyedStorage)(clients, config);
        const blobService = clients.blobService();
        photos = {
            employees: clients.table(config.tables.employees),
            archive: clients.table(config.tables.archive),
            photos: clients.container(config.containers.photos),
            directory: (0, directory_1.directoryServices)().employees,
            signer: keyed
                ? (0, blobSas_1.accountKeySigner)(keyed.key)
                : (0, blobSas_1.userDelegationSigner)(blobService, config.sas.accountName ?? blobService.accountName, config.sas.maxMinutes * 60_000),
            allowHttp: clients.isLoopback,
            readSasSeconds: config.sas.defaultMinutes * 60,
        };
    }
    return photos;
}
//# sourceMappingURL=consistency.js.map