"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.resolveKeyedStorage = resolveKeyedStorage;
exports.requireKeyedStorage = requireKeyedStorage;
const errors_1 = require("../errors");
const clients_1 = require("../storage/clients");
/**
 * The account key for signing, with clients that use it; `undefined` when none is configured.
 *
 * @param clients - the app's clients; reused when they already carry a key.
 * @param config - `sas.accountKey`/`sas.accountName` (and the retry budget for new clients).
 * @throws {NotConfiguredError} when a key is configured but no account name can be found.
 */
function resolveKeyedStorage(clients, config) {
    if (clients.sharedKey)
        return { key: clients.sharedKey, clients };
    const accountKey = config.sas.accountKey;
    if (!accountKey)
        return undefined;
    const blobService = clients.blobService();
    const accountName = config.sas.accountName ?? blobService.accountName;
    if (!accountName) {
        throw new errors_1.NotConfiguredError('STORAGE_ACCOUNT_KEY is set but the account name is unknown: set STORAGE_ACCOUNT_NAME.');
    }
    // Same endpoints as the app's own clients, authorised with the key instead of the identity.
    const connectionString = `AccountName=${accountName};AccountKey=${accountKey};` +
        `TableEndpoint=${clients.tableService().url};` +
        `BlobEndpoint=${blobService.url};` +
        `QueueEndpoint=${clients.queueService().url};`;
    return {
        key: { accountName, accountKey },
        clients: (0, clients_1.createStorageClients)({ kind: 'connectionString', connectionString }, config.retry),
    };
}
/**
 * Like {@link resolveKeyedStorage}, for features that cannot work without a key.
 *
 * @throws {NotConfiguredError} when no account key is configured.
 */
function requireKeyedStorage(clients, config, feature) {
    const keyed = resolveKeyedStorage(clients, config);
    if (!keyed) {
        throw new errors_1.NotConfiguredError(`${feature} needs the storage account key (Table storage has no user delegation SAS): ` +
            'set STORAGE_ACCOUNT_KEY (a Key Vault reference in Azure) and STORAGE_ACCOUNT_NAME.', 'SasKeyNotConfigured');
    }
    return keyed;
}
//# sourceMappingURL=signingKey.js.map