"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `node [-r @swc-node/register] tools/host/cli.ts [options]`: runs a function app on the local
 * host until SIGINT/SIGTERM.
 *
 *   --app-root <dir>     the app's folder (default: current directory)
 *   --functions <glob>   entry points relative to the app root (default: package.json main)
 *   --host-json <file>   host.json to use (default: <app-root>/host.json)
 *   --settings <file>    local.settings.json to load (default: <app-root>/local.settings.json)
 *   --port <n>           default: PORT, else local.settings.json Host.LocalHttpPort, else 7071;
 *                        0 picks a free port
 *   --listen <address>   default 127.0.0.1
 *
 * Environment: HOST_LOG_LEVEL (default information), HOST_SHUTDOWN_TIMEOUT_MS (default 30000).
 * Exit code 1 when the app cannot start, with every problem printed.
 */
const node_path_1 = __importDefault(require("node:path"));
const node_util_1 = require("node:util");
const host_1 = require("./host");
const localSettings_1 = require("./load/localSettings");
const log_1 = require("./log");
function integerSetting(name, value, fallback) {
    if (value === undefined || value.trim() === '')
        return fallback;
    if (!/^\d+$/.test(value.trim()))
        throw new Error(`${name} must be a whole number, got "${value}".`);
    return Number(value);
}
async function main() {
    const { values } = (0, node_util_1.parseArgs)({
        options: {
            'app-root': { type: 'string' },
            functions: { type: 'string' },
            'host-json': { type: 'string' },
            settings: { type: 'string' },
            port: { type: 'string' },
            listen: { type: 'string' },
        },
        strict: true,
    });
    const appRoot = node_path_1.default.resolve(values['app-root'] ?? process.cwd());
    const logger = (0, log_1.createLogger)({ level: (0, log_1.parseLogLevel)(process.env.HOST_LOG_LEVEL) });
    const settingsFile = node_path_1.default.resolve(values.settings ?? node_path_1.default.join(appRoot, 'local.settings.json'));
    const localSettings = (0, localSettings_1.readLocalSettings)(settingsFile);
    if (localSettings) {
        const skipped = (0, localSettings_1.applyLocalSettings)(localSettings.values, process.env);
        for (const name of skipped) {
            logger.debug(`Skipping '${name}' from local.settings.json: it is already set in the environment.`);
        }
    }
    const port = integerSetting('--port', values.port ?? process.env.PORT, localSettings?.localHttpPort ?? 7071);
    const graceMs = integerSetting('HOST_SHUTDOWN_TIMEOUT_MS', process.env.HOST_SHUTDOWN_TIMEOUT_MS, host_1.DEFAULT_SHUTDOWN_GRACE_MS);
    let host;
    try {
        host = await (0, host_1.startLocalHost)({
            appRoot,
            functionsGlob: values.functions,
            hostJsonPath: values['host-json'],
            port,
            listenAddress: values.listen,
            logger,
        });
    }
    catch (error) {
        if (error instanceof host_1.HostStartupError) {
            process.stderr.write(`Host startup failed: ${error.message}\n`);
            process.exit(1);
        }
        throw error;
    }
    // Printed whatever the log level: launchers and the e2e helper wait for this line.
    process.stdout.write(`Host listening on ${host.origin} (API base ${host.baseUrl})\n`);
    let signals = 0;
    const shutdown = (signal) => {
        signals += 1;
        if (signals > 1) {
            logger.warn(`${signal} again: exiting without waiting.`);
            process.exit(1);
        }
        logger.info(`${signal} received.`);
        host.stop(graceMs).then(() => process.exit(0), (error) => {
            logger.error(`Shutdown failed: ${(0, log_1.describeError)(error)}`);
            process.exit(1);
        });
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
}
main().catch((error) => {
    process.stderr.write(`Host failed: ${(0, log_1.describeError)(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=cli.js.map