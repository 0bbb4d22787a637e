"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SasService = void 0;
exports.newPhotoVersion = newPhotoVersion;
exports.getSasService = getSasService;
/**
 * SAS issuance (valet key): the app checks who is asking and hands out a short-lived token
 * scoped to exactly what that caller may see; the client then talks to storage directly, so
 * the data never flows through the app.
 *
 * Every token is least privilege: tables read-only and limited to one partition (`spk` = `epk`),
 * a photo blob read or create+write (never delete or list), the logs container read+list.
 */
const node_crypto_1 = require("node:crypto");
const storage_blob_1 = require("@azure/storage-blob");
const config_1 = require("../config");
const errors_1 = require("../errors");
const roles_1 = require("../identity/roles");
const clients_1 = require("../storage/clients");
const keys_1 = require("../storage/keys");
const blobSas_1 = require("./blobSas");
const lifetime_1 = require("./lifetime");
const photoLocator_1 = require("./photoLocator");
const signingKey_1 = require("./signingKey");
const tablePolicy_1 = require("./tablePolicy");
const tableSas_1 = require("./tableSas");
/** Issues SAS tokens after checking the caller's roles. */
class SasService {
    clients;
    config;
    now;
    photoLocator;
    policies;
    keyed;
    blobSigner;
    containerUrls = new Map();
    constructor(options) {
        this.clients = options.clients;
        this.config = options.config;
        this.now = options.now ?? (() => new Date());
        this.photoLocator =
            options.photoLocator ??
                (0, photoLocator_1.employeeEntityPhotoLocator)(this.clients.table(this.config.tables.employees));
        this.policies = new tablePolicy_1.SasPolicyManager({
            cacheMs: this.config.sas.policyCacheMs,
            emulator: this.clients.isLoopback,
            now: this.now,
        });
    }
    /**
     * Read SAS on `EmployeeExpenses`, limited to one employee's partition.
     *
     * @throws {ValidationError} for a bad department, employee id or lifetime.
     * @throws {ForbiddenError} unless the caller is that employee or a `DirectoryAdmin`.
     * @throws {NotConfiguredError} when no account key is configured.
     */
    async expensesSas(principal, department, employeeId, minutes) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        const window = this.window(minutes);
        if (!(0, roles_1.isEmployee)(principal, employeeId) && !(0, roles_1.isDirectoryAdmin)(principal)) {
            throw new errors_1.ForbiddenError(`Only employee ${employeeId} or a DirectoryAdmin may read these expenses.`);
        }
        return this.tableSas({ table: this.config.tables.expenses, partitionKey }, window);
    }
    /**
     * Read SAS on `Employees`, limited to the employee entities of one department's partition
     * (RowKeys `empid_000000`–`empid_999999`; reviews and index entities stay out of reach).
     *
     * @throws {ValidationError} for a bad department or lifetime.
     * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin` or `DirectoryReader:{dept}`.
     * @throws {NotConfiguredError} when no account key is configured.
     */
    async departmentSas(principal, department, minutes) {
        const partitionKey = (0, keys_1.departmentPartitionKey)(department);
        const window = this.window(minutes);
        if (!(0, roles_1.canReadDepartment)(principal, department)) {
            throw new errors_1.ForbiddenError(`Reading department ${department} needs the DirectoryAdmin or ${(0, roles_1.directoryReaderRole)(department)} role.`);
        }
        return this.tableSas({
            table: this.config.tables.employees,
            partitionKey,
            rowKeyStart: (0, keys_1.employeeRowKey)('000000'),
            rowKeyEnd: (0, keys_1.employeeRowKey)('999999'),
        }, window);
    }
    /**
     * Blob SAS for one employee photo. `read`: the current photo (the employee, a `DirectoryAdmin`
     * or a reader of the department). `write`: create+write on a new version blob (the employee or
     * a `DirectoryAdmin`); the client uploads there, then hands the blob name to the photo feature.
     *
     * @throws {ValidationError} for a bad department, employee id or lifetime.
     * @throws {ForbiddenError} when the caller may not read or replace that photo.
     * @throws {NotFoundError} `PhotoNotFound` for `read` when the employee has no photo.
     */
    async photoSas(principal, department, employeeId, access, minutes) {
        (0, keys_1.departmentPartitionKey)(department);
        (0, keys_1.employeeRowKey)(employeeId);
        const window = this.window(minutes);
        const self = (0, roles_1.isEmployee)(principal, employeeId);
        if (access === 'write') {
            if (!self && !(0, roles_1.isDirectoryAdmin)(principal)) {
                throw new errors_1.ForbiddenError(`Only employee ${employeeId} or a DirectoryAdmin may upload this photo.`);
            }
            const blobName = (0, keys_1.photoBlobName)(department, employeeId, newPhotoVersion(this.now()));
            return this.blobSas(this.config.containers.photos, blobName, storage_blob_1.BlobSASPermissions.from({ create: true, write: true }).toString(), window);
        }
        if (!self && !(0, roles_1.canReadDepartment)(principal, department)) {
            throw new errors_1.ForbiddenError(`Reading this photo needs to be employee ${employeeId}, a DirectoryAdmin or ${(0, roles_1.directoryReaderRole)(department)}.`);
        }
        const blobName = await this.photoLocator.currentPhotoBlob(department, employeeId);
        if (blobName === undefined) {
            throw new errors_1.NotFoundError('PhotoNotFound', `Employee ${employeeId} in ${department} has no photo.`);
        }
        const owner = (0, keys_1.parsePhotoBlobName)(blobName);
        if (!owner || owner.department !== department || owner.employeeId !== employeeId) {
            // A photo blob of someone else would leak data: refuse loudly, this is a bug upstream.
            throw new Error(`Photo blob "${blobName}" does not belong to ${department}/${employeeId}.`);
        }
        return this.blobSas(this.config.containers.photos, blobName, storage_blob_1.BlobSASPermissions.from({ read: true }).toString(), window);
    }
    /**
     * Read+list SAS on the `logs` container.
     *
     * @throws {ValidationError} for a bad lifetime.
     * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin`.
     */
    async logsSas(principal, minutes) {
        const window = this.window(minutes);
        (0, roles_1.requireDirectoryAdmin)(principal, 'read the logs container');
        return this.blobSas(this.config.containers.logs, undefined, storage_blob_1.ContainerSASPermissions.from({ read: true, list: true }).toString(), window);
    }
    /**
     * Revokes every table SAS bound to the table's current stored access policy.
     *
     * @param table - `Employees` or `EmployeeExpenses` (their configured names, any case).
     * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin`.
     * @throws {NotFoundError} `SasTableNotFound` for a table SAS are not issued for.
     * @throws {NotConfiguredError} when tokens are not bound to policies or no key is configured.
     */
    async rotateSasPolicy(principal, table) {
        (0, roles_1.requireDirectoryAdmin)(principal, 'rotate SAS policies');
        const tableName = this.sasTableNamed(table);
        if (this.config.sas.tablePolicy !== 'stored') {
            throw new errors_1.NotConfiguredError('Table SAS are not bound to stored access policies here (SAS_TABLE_POLICY=none); ' +
                'revoke them by rotating the account key.', 'SasPolicyNotUsed');
        }
        const keyed = (0, signingKey_1.requireKeyedStorage)(this.clients, this.config, 'Rotating SAS policies');
        return this.policies.rotate(keyed.clients.table(tableName));
    }
    sasTableNamed(table) {
        const tables = [this.config.tables.employees, this.config.tables.expenses];
        const match = tables.find((name) => name.toLowerCase() === table.toLowerCase());
        if (!match) {
            throw new errors_1.NotFoundError('SasTableNotFound', `SAS are issued for tables ${tables.join(' and ')} only, not "${table}".`);
        }
        return match;
    }
    window(minutes) {
        return (0, lifetime_1.sasWindow)(this.now(), minutes, this.config.sas);
    }
    keyedStorage() {
        if (this.keyed === undefined)
            this.keyed = (0, signingKey_1.resolveKeyedStorage)(this.clients, this.config) ?? null;
        return this.keyed ?? undefined;
    }
    get protocol() {
        return this.clients.isLoopback ? storage_blob_1.SASProtocol.HttpsAndHttp : storage_blob_1.SASProtocol.Https;
    }
    async tableSas(scope, window) {
        const keyed = this.keyedStorage() ?? (0, signingKey_1.requireKeyedStorage)(this.clients, this.config, 'A table SAS');
        const table = keyed.clients.table(scope.table);
        const policyId = this.config.sas.tablePolicy === 'stored'
            ? await this.policies.currentPolicyId(table)
            : undefined;
        const sas = (0, tableSas_1.signTableSas)(scope, { key: keyed.key, window, policyId, protocol: this.protocol });
        return {
            url: table.url,
            sas,
            startsOn: window.startsOn.toISOString(),
            expiresOn: window.expiresOn.toISOString(),
            permissions: tablePolicy_1.TABLE_SAS_PERMISSION,
            signedWith: 'accountKey',
            ...scope,
            ...(policyId ? { policyId } : {}),
        };
    }
    signer() {
        if (!this.blobSigner) {
            const keyed = this.keyedStorage();
            if (keyed) {
                this.blobSigner = (0, blobSas_1.accountKeySigner)(keyed.key);
            }
            else {
                const blobService = this.clients.blobService();
                const accountName = this.config.sas.accountName ?? blobService.accountName;
                this.blobSigner = (0, blobSas_1.userDelegationSigner)(blobService, accountName, this.config.sas.maxMinutes * 60_000 + 60_000, this.now);
            }
        }
        return this.blobSigner;
    }
    containerUrl(container) {
        let url = this.containerUrls.get(container);
        if (url === undefined) {
            url = this.clients.container(container).url;
            this.containerUrls.set(container, url);
        }
        return url;
    }
    async blobSas(container, blobName, permissions, window) {
        const signer = this.signer();
        const sas = await signer.sign({
            containerName: container,
            ...(blobName !== undefined ? { blobName } : {}),
            permissions: blobName !== undefined
                ? storage_blob_1.BlobSASPermissions.parse(permissions)
                : storage_blob_1.ContainerSASPermissions.parse(permissions),
            startsOn: window.startsOn,
            expiresOn: window.expiresOn,
            protocol: this.protocol,
        });
        const containerUrl = this.containerUrl(container);
        // The SDK's own blob URL encoding (each path segment escaped), without building a client.
        const resourceUrl = blobName !== undefined
            ? `${containerUrl}/${blobName.split('/').map(encodeURIComponent).join('/')}`
            : containerUrl;
        return {
            url: `${resourceUrl}?${sas}`,
            sas,
            startsOn: window.startsOn.toISOString(),
            expiresOn: window.expiresOn.toISOString(),
            permissions,
            signedWith: signer.kind,
            container,
            ...(blobName !== undefined ? { blobName } : {}),
        };
    }
}
exports.SasService = SasService;
/** A fresh, time-ordered photo version: `0001763800000000-1a2b3c4d5e6f`. */
function newPhotoVersion(now) {
    return `${String(now.getTime()).padStart(16, '0')}-${(0, node_crypto_1.randomBytes)(6).toString('hex')}`;
}
let defaultService;
/**
 * The process-wide SAS service on the configured account.
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
function getSasService() {
    defaultService ??= new SasService({ clients: (0, clients_1.getStorageClients)(), config: (0, config_1.getConfig)() });
    return defaultService;
}
//# sourceMappingURL=service.js.map