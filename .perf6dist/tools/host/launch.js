"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.STANDARD_EMULATOR_PORTS = void 0;
exports.isStandardEmulator = isStandardEmulator;
exports.planStorage = planStorage;
exports.findOnPath = findOnPath;
/**
 * The decisions `npm start` makes before anything runs (pure, so they are tested without
 * starting processes): which storage to use, and whether Azure Functions Core Tools are there.
 */
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const clients_1 = require("../../src/storage/clients");
/** The emulator's standard ports, as `UseDevelopmentStorage=true` expects them. */
exports.STANDARD_EMULATOR_PORTS = { blob: 10000, queue: 10001, table: 10002 };
/**
 * True for `UseDevelopmentStorage=true` and for the development account on the standard local
 * ports: storage the launcher may start (or reuse) itself.
 */
function isStandardEmulator(connectionString) {
    const parts = (0, clients_1.parseConnectionString)(connectionString);
    if (parts.get('accountname') !== 'devstoreaccount1')
        return false;
    return Object.keys(exports.STANDARD_EMULATOR_PORTS).every((service) => {
        const endpoint = parts.get(`${service}endpoint`);
        if (!endpoint)
            return false;
        try {
            const url = new URL(endpoint);
            const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
            return loopback && Number(url.port) === exports.STANDARD_EMULATOR_PORTS[service];
        }
        catch {
            return false;
        }
    });
}
/**
 * Chooses the storage for `npm start`: a configured account as is; for the emulator (or
 * nothing configured), an emulator already listening on 10000-10002, else an embedded one.
 */
function planStorage(env, listening) {
    const connection = env.AzureWebJobsStorage?.trim();
    if (connection && !isStandardEmulator(connection)) {
        const account = (0, clients_1.parseConnectionString)(connection).get('accountname') ?? 'unknown account';
        return { kind: 'configured', description: `AzureWebJobsStorage (account ${account})` };
    }
    if (!connection && env.AzureWebJobsStorage__accountName?.trim()) {
        return {
            kind: 'configured',
            description: `managed identity (account ${env.AzureWebJobsStorage__accountName.trim()})`,
        };
    }
    const services = Object.keys(exports.STANDARD_EMULATOR_PORTS);
    const busy = services.filter((service) => listening[service]);
    if (busy.length === services.length)
        return { kind: 'reuseEmulator' };
    if (busy.length === 0)
        return { kind: 'startEmulator' };
    return { kind: 'portsBusy', busy };
}
/** The path of an executable on PATH (`func`, or `func.cmd`/`func.exe` on Windows), if any. */
function findOnPath(command, pathVariable, platform = process.platform) {
    const names = platform === 'win32' ? [`${command}.cmd`, `${command}.exe`, command] : [command];
    for (const directory of (pathVariable ?? '').split(node_path_1.default.delimiter)) {
        if (!directory)
            continue;
        for (const name of names) {
            const candidate = node_path_1.default.join(directory, name);
            try {
                node_fs_1.default.accessSync(candidate, platform === 'win32' ? node_fs_1.default.constants.F_OK : node_fs_1.default.constants.X_OK);
                if (node_fs_1.default.statSync(candidate).isFile())
                    return candidate;
            }
            catch {
                // not here
            }
        }
    }
    return undefined;
}
//# sourceMappingURL=launch.js.map