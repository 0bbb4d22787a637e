"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConnectionResolver = exports.ConnectionError = exports.DEFAULT_CONNECTION = void 0;
/**
 * Storage clients for the connections that bindings name. A binding's `connection` is the name
 * of a setting (default `AzureWebJobsStorage`) holding a connection string, or the prefix of
 * identity settings (`<name>__accountName`, `<name>__queueServiceUri`, ...). Clients come from
 * the project's factory, so the host retries exactly as the app does.
 */
const config_1 = require("../../src/config");
const clients_1 = require("../../src/storage/clients");
exports.DEFAULT_CONNECTION = 'AzureWebJobsStorage';
const IDENTITY_SUFFIXES = [
    'accountName',
    'tableServiceUri',
    'queueServiceUri',
    'blobServiceUri',
    'clientId',
];
/** The named connection has no usable settings. */
class ConnectionError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ConnectionError';
    }
}
exports.ConnectionError = ConnectionError;
class ConnectionResolver {
    env;
    #clients = new Map();
    constructor(env) {
        this.env = env;
    }
    /**
     * Clients for a named connection (created once per name).
     *
     * @throws {ConnectionError} when the connection's settings are missing or malformed.
     */
    clients(connectionName = exports.DEFAULT_CONNECTION) {
        const name = connectionName.trim() === '' ? exports.DEFAULT_CONNECTION : connectionName;
        let clients = this.#clients.get(name);
        if (clients)
            return clients;
        // Present the named connection to the app's config reader as if it were AzureWebJobsStorage.
        const mapped = {
            ...this.env,
            [exports.DEFAULT_CONNECTION]: this.env[name] ?? '',
        };
        for (const suffix of IDENTITY_SUFFIXES) {
            mapped[`${exports.DEFAULT_CONNECTION}__${suffix}`] = this.env[`${name}__${suffix}`] ?? '';
        }
        try {
            const config = (0, config_1.loadConfig)(mapped);
            clients = (0, clients_1.createStorageClients)(config.storage, config.retry);
        }
        catch (error) {
            if (error instanceof config_1.ConfigError && error.setting === exports.DEFAULT_CONNECTION) {
                throw new ConnectionError(`Storage connection '${name}' is not configured: set ${name} to a connection string, or ${name}__accountName (or ${name}__queueServiceUri, __blobServiceUri and __tableServiceUri) for managed identity.`);
            }
            throw new ConnectionError(`Storage connection '${name}': ${error.message}`);
        }
        this.#clients.set(name, clients);
        return clients;
    }
}
exports.ConnectionResolver = ConnectionResolver;
//# sourceMappingURL=storage.js.map