"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SETTING_PREFIX = exports.DEFAULT_CONNECTION_SETTING = void 0;
exports.defaultTaskHub = defaultTaskHub;
exports.readDurableHostSettings = readDurableHostSettings;
/**
 * The durable runtime's settings on the local host, named as the Durable Functions extension
 * names them in host.json `extensions.durableTask` — and, as in Azure, overridable by app settings
 * `AzureFunctionsJobHost__extensions__durableTask__<path>`:
 *
 * - `hubName` (default: derived from the host id, see {@link defaultTaskHub})
 * - `storageProvider.connectionStringName` / `connectionName` (default `AzureWebJobsStorage`)
 * - `storageProvider.workItemQueueVisibilityTimeout` (TimeSpan; the message lease, default 30 s)
 * - `storageProvider.maxQueuePollingInterval` (TimeSpan; longest idle poll wait, default 1 s)
 * - `maxConcurrentActivityFunctions`, `maxConcurrentOrchestratorFunctions` (default 8 each)
 */
const timeSpan_1 = require("../host/config/timeSpan");
/**
 * The hub of a host that configures none: `Hub` + the host id's letters and digits. Like Azure
 * (where the default comes from the app's name), it is stable for one app — the host id is
 * derived from the app folder — and the test helper's unique host ids keep test hosts apart.
 */
function defaultTaskHub(hostId) {
    return `Hub${hostId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 45);
}
exports.DEFAULT_CONNECTION_SETTING = 'AzureWebJobsStorage';
/** The prefix of app settings that override host.json `extensions.durableTask` values. */
exports.SETTING_PREFIX = 'AzureFunctionsJobHost__extensions__durableTask__';
/**
 * Reads the settings: app settings first, then host.json, then defaults.
 *
 * @throws {Error} naming the setting when a value is malformed.
 */
function readDurableHostSettings(hostJson, env) {
    const pick = (path) => {
        const fromEnv = env[`${exports.SETTING_PREFIX}${path.join('__')}`];
        if (fromEnv !== undefined && fromEnv.trim() !== '')
            return fromEnv.trim();
        let node = hostJson;
        for (const key of path)
            node = node && typeof node === 'object' ? node[key] : undefined;
        return node;
    };
    const text = (path) => {
        const value = pick(path);
        if (value === undefined || value === null || value === '')
            return undefined;
        if (typeof value !== 'string')
            throw new Error(`durableTask.${path.join('.')} must be a string.`);
        return value;
    };
    const duration = (path) => {
        const value = text(path);
        return value === undefined ? undefined : (0, timeSpan_1.parseTimeSpan)(value, `durableTask.${path.join('.')}`);
    };
    const count = (path) => {
        const value = pick(path);
        if (value === undefined || value === null || value === '')
            return undefined;
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1)
            throw new Error(`durableTask.${path.join('.')} must be a whole number ≥ 1.`);
        return n;
    };
    const tuning = {};
    const visibility = duration(['storageProvider', 'workItemQueueVisibilityTimeout']);
    if (visibility !== undefined)
        tuning.leaseSeconds = Math.max(1, Math.round(visibility / 1000));
    const polling = duration(['storageProvider', 'maxQueuePollingInterval']);
    if (polling !== undefined)
        tuning.maxPollIntervalMs = Math.max(50, polling);
    const activities = count(['maxConcurrentActivityFunctions']);
    if (activities !== undefined)
        tuning.activityConcurrency = activities;
    const orchestrators = count(['maxConcurrentOrchestratorFunctions']);
    if (orchestrators !== undefined)
        tuning.orchestrationConcurrency = orchestrators;
    return {
        taskHub: text(['hubName']),
        connectionName: text(['storageProvider', 'connectionStringName']) ??
            text(['storageProvider', 'connectionName']) ??
            exports.DEFAULT_CONNECTION_SETTING,
        tuning,
    };
}
//# sourceMappingURL=hostSettings.js.map