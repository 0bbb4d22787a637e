"use strict";
/**
 * The only reader of `process.env`.
 *
 * Every storage name and tunable has a default and one documented setting name (the README's
 * configuration table lists them). Values are read once, validated, and frozen; a setting that is
 * present but malformed, or a required one that is missing, throws a {@link ConfigError} naming it.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = void 0;
exports.loadConfig = loadConfig;
exports.getConfig = getConfig;
exports.resetConfig = resetConfig;
/** A setting is missing or malformed. The message names the setting. */
class ConfigError extends Error {
    setting;
    constructor(setting, message) {
        super(message);
        this.setting = setting;
        this.name = 'ConfigError';
    }
}
exports.ConfigError = ConfigError;
function readString(env, name, fallback) {
    const value = env[name];
    return value === undefined || value.trim() === '' ? fallback : value.trim();
}
function readOptional(env, name) {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
}
function readInt(env, name, fallback, min, max) {
    const raw = readOptional(env, name);
    if (raw === undefined)
        return fallback;
    if (!/^-?\d+$/.test(raw)) {
        throw new ConfigError(name, `Setting ${name} must be a whole number, got "${raw}".`);
    }
    const value = Number(raw);
    if (value < min || value > max) {
        throw new ConfigError(name, `Setting ${name} must be between ${min} and ${max}, got ${value}.`);
    }
    return value;
}
function readTableName(env, name, fallback) {
    const value = readString(env, name, fallback);
    if (!/^[A-Za-z][A-Za-z0-9]{2,62}$/.test(value)) {
        throw new ConfigError(name, `Setting ${name} must be a table name (3-63 letters or digits, starting with a letter), got "${value}".`);
    }
    return value;
}
/**
 * Queue and container names: 3-63 lowercase letters, digits and single hyphens. Queues are
 * capped at 56 so that `<name>-poison`, which the Functions host creates, stays within 63.
 */
function readQueueOrContainerName(env, name, fallback, maxLength = 63) {
    const value = readString(env, name, fallback);
    if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(value) || value.length > maxLength) {
        throw new ConfigError(name, `Setting ${name} must be a queue/container name (3-${maxLength} lowercase letters, digits, single hyphens), got "${value}".`);
    }
    return value;
}
/** Longest queue name whose `-poison` companion is still a valid queue name. */
const MAX_QUEUE_NAME = 63 - '-poison'.length;
/** A six-field NCRONTAB expression (`{second} {minute} {hour} {day} {month} {day-of-week}`). */
function readNcrontab(env, name, fallback) {
    const value = readString(env, name, fallback);
    if (value.split(/\s+/).length !== 6) {
        throw new ConfigError(name, `Setting ${name} must be a six-field NCRONTAB schedule such as "0 0 1 * * *", got "${value}".`);
    }
    return value;
}
function readStorage(env) {
    const connectionString = readOptional(env, 'AzureWebJobsStorage');
    if (connectionString !== undefined)
        return { kind: 'connectionString', connectionString };
    const accountName = readOptional(env, 'AzureWebJobsStorage__accountName');
    const uri = (service) => readOptional(env, `AzureWebJobsStorage__${service}ServiceUri`) ??
        (accountName ? `https://${accountName}.${service}.core.windows.net` : undefined);
    const tableServiceUri = uri('table');
    const queueServiceUri = uri('queue');
    const blobServiceUri = uri('blob');
    if (!tableServiceUri || !queueServiceUri || !blobServiceUri) {
        throw new ConfigError('AzureWebJobsStorage', 'Setting AzureWebJobsStorage is missing: set a connection string, or AzureWebJobsStorage__accountName ' +
            '(or AzureWebJobsStorage__tableServiceUri, __queueServiceUri and __blobServiceUri) for managed identity.');
    }
    return {
        kind: 'identity',
        accountName,
        tableServiceUri,
        queueServiceUri,
        blobServiceUri,
        clientId: readOptional(env, 'AzureWebJobsStorage__clientId'),
    };
}
/**
 * Reads and validates the configuration from an environment map.
 *
 * @throws {ConfigError} when a required setting is missing or a setting is malformed.
 */
function loadConfig(env) {
    const lastNameIndexMode = readString(env, 'LASTNAME_INDEX_MODE', 'entity');
    if (lastNameIndexMode !== 'entity' && lastNameIndexMode !== 'blob') {
        throw new ConfigError('LASTNAME_INDEX_MODE', `Setting LASTNAME_INDEX_MODE must be "entity" or "blob", got "${lastNameIndexMode}".`);
    }
    const sasMaxMinutes = readInt(env, 'SAS_MAX_MINUTES', 60, 1, 7 * 24 * 60);
    const sasTablePolicy = readString(env, 'SAS_TABLE_POLICY', 'stored');
    if (sasTablePolicy !== 'stored' && sasTablePolicy !== 'none') {
        throw new ConfigError('SAS_TABLE_POLICY', `Setting SAS_TABLE_POLICY must be "stored" or "none", got "${sasTablePolicy}".`);
    }
    const loginAttemptsPrefix = readString(env, 'LOGIN_TABLE_PREFIX', 'LoginAttempts');
    if (!/^[A-Za-z][A-Za-z0-9]{2,54}$/.test(loginAttemptsPrefix)) {
        throw new ConfigError('LOGIN_TABLE_PREFIX', `Setting LOGIN_TABLE_PREFIX must be 3-55 letters or digits starting with a letter, got "${loginAttemptsPrefix}".`);
    }
    return Object.freeze({
        storage: readStorage(env),
        tables: {
            employees: readTableName(env, 'EMPLOYEES_TABLE', 'Employees'),
            archive: readTableName(env, 'ARCHIVE_TABLE', 'EmployeesArchive'),
            employeeIndex: readTableName(env, 'EMPLOYEE_INDEX_TABLE', 'EmployeeIndex'),
            expenses: readTableName(env, 'EXPENSES_TABLE', 'EmployeeExpenses'),
            loginAttemptsPrefix,
            messageStats: readTableName(env, 'MESSAGE_STATS_TABLE', 'MessageStats'),
            accessLog: readTableName(env, 'ACCESS_LOG_TABLE', 'AccessLog'),
        },
        queues: {
            archive: readQueueOrContainerName(env, 'ARCHIVE_QUEUE', 'archive-requests', MAX_QUEUE_NAME),
            indexUpdates: readQueueOrContainerName(env, 'INDEX_QUEUE', 'index-updates', MAX_QUEUE_NAME),
            logBatches: readQueueOrContainerName(env, 'LOG_QUEUE', 'log-batches', MAX_QUEUE_NAME),
        },
        containers: {
            lastNameIndex: readQueueOrContainerName(env, 'LASTNAME_INDEX_CONTAINER', 'lastname-index'),
            photos: readQueueOrContainerName(env, 'PHOTOS_CONTAINER', 'photos'),
            logs: readQueueOrContainerName(env, 'LOGS_CONTAINER', 'logs'),
        },
        logins: {
            retentionDays: readInt(env, 'LOGIN_RETENTION_DAYS', 60, 1, 3650),
            cleanupSchedule: readNcrontab(env, 'LOGIN_CLEANUP_SCHEDULE', '0 0 1 * * *'),
        },
        sas: {
            defaultMinutes: Math.min(readInt(env, 'SAS_DEFAULT_MINUTES', 15, 1, 7 * 24 * 60), sasMaxMinutes),
            maxMinutes: sasMaxMinutes,
            accountKey: readOptional(env, 'STORAGE_ACCOUNT_KEY'),
            accountName: readOptional(env, 'STORAGE_ACCOUNT_NAME'),
            tablePolicy: sasTablePolicy,
            policyCacheMs: readInt(env, 'SAS_POLICY_CACHE_SECONDS', 15, 0, 3600) * 1000,
        },
        directory: {
            lastNameIndexMode: lastNameIndexMode,
            departmentCacheTtlMs: readInt(env, 'DEPARTMENT_CACHE_TTL_SECONDS', 30, 0, 86400) * 1000,
            lastNameShardChars: readInt(env, 'LASTNAME_INDEX_SHARD_CHARS', 30_000, 100, 32_000),
            indexAnnounceDelaySeconds: readInt(env, 'INDEX_ANNOUNCE_DELAY_SECONDS', 60, 0, 3600),
        },
        logs: {
            maxBlobBytes: readInt(env, 'LOG_BLOB_MAX_BYTES', 64 * 1024 * 1024, 1024, 4 * 1024 ** 3),
            maxBlobBlocks: readInt(env, 'LOG_BLOB_MAX_BLOCKS', 40_000, 2, 49_000),
            maxBatchEntries: readInt(env, 'LOG_MAX_BATCH_ENTRIES', 1000, 1, 100_000),
            maxBatchBytes: readInt(env, 'LOG_MAX_BATCH_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024),
            flushMaxMessages: readInt(env, 'LOG_FLUSH_MAX_MESSAGES', 256, 1, 4096),
            flushMaxRounds: readInt(env, 'LOG_FLUSH_MAX_ROUNDS', 8, 1, 100),
            maxQueryEntries: readInt(env, 'LOG_MAX_QUERY_ENTRIES', 100_000, 1, 1_000_000),
        },
        retry: {
            maxRetries: readInt(env, 'STORAGE_MAX_RETRIES', 5, 0, 20),
            retryDelayMs: readInt(env, 'STORAGE_RETRY_DELAY_MS', 200, 1, 60_000),
            maxRetryDelayMs: readInt(env, 'STORAGE_MAX_RETRY_DELAY_MS', 8_000, 1, 600_000),
            tryTimeoutMs: readInt(env, 'STORAGE_TRY_TIMEOUT_MS', 30_000, 100, 600_000),
        },
    });
}
let cached;
/**
 * The process-wide configuration, read from `process.env` on first use.
 *
 * @throws {ConfigError} when a required setting is missing or a setting is malformed.
 */
function getConfig() {
    cached ??= loadConfig(process.env);
    return cached;
}
/** Forgets the cached configuration so the next {@link getConfig} re-reads the environment (tests). */
function resetConfig() {
    cached = undefined;
}
//# sourceMappingURL=config.js.map