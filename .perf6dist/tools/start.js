"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `npm start`: runs the function app locally with one command.
 *
 * Storage: a configured `AzureWebJobsStorage` (environment, else local.settings.json) that is not
 * the local emulator is used as is. Otherwise an emulator already listening on 10000-10002 is
 * reused, or Azurite is started from node_modules on those ports with its data in `./.azurite/`.
 *
 * Functions: `func start` when Azure Functions Core Tools are on PATH; otherwise the project's
 * local host (tools/host) on port 7071 (`PORT` to change). Ctrl-C stops everything cleanly.
 *
 * Options: --port <n>, --functions <glob> (default package.json main), --listen <address>.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const node_util_1 = require("node:util");
const azurite_1 = require("./azurite");
const host_1 = require("./host/host");
const launch_1 = require("./host/launch");
const localSettings_1 = require("./host/load/localSettings");
const log_1 = require("./host/log");
/** The folder holding package.json (this file runs from tools/ or dist/tools/). */
function projectRoot() {
    let directory = __dirname;
    while (!node_fs_1.default.existsSync(node_path_1.default.join(directory, 'package.json'))) {
        const parent = node_path_1.default.dirname(directory);
        if (parent === directory)
            throw new Error('package.json not found above ' + __dirname);
        directory = parent;
    }
    return directory;
}
/** A condition the user can fix; printed without a stack trace. */
class LaunchError extends Error {
}
function say(line = '') {
    process.stdout.write(`${line}\n`);
}
async function main() {
    const { values } = (0, node_util_1.parseArgs)({
        options: {
            port: { type: 'string' },
            functions: { type: 'string' },
            listen: { type: 'string' },
        },
        strict: true,
    });
    const root = projectRoot();
    const localSettings = (0, localSettings_1.readLocalSettings)(node_path_1.default.join(root, 'local.settings.json'));
    if (localSettings)
        (0, localSettings_1.applyLocalSettings)(localSettings.values, process.env);
    const port = Number(values.port ?? process.env.PORT ?? localSettings?.localHttpPort ?? 7071);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`Invalid port "${values.port ?? process.env.PORT}".`);
    // 1. Storage.
    const listening = {
        blob: await (0, azurite_1.isListening)(launch_1.STANDARD_EMULATOR_PORTS.blob),
        queue: await (0, azurite_1.isListening)(launch_1.STANDARD_EMULATOR_PORTS.queue),
        table: await (0, azurite_1.isListening)(launch_1.STANDARD_EMULATOR_PORTS.table),
    };
    const plan = (0, launch_1.planStorage)(process.env, listening);
    let azurite;
    let storageLine;
    switch (plan.kind) {
        case 'configured':
            storageLine = `configured: ${plan.description}`;
            break;
        case 'reuseEmulator':
            process.env.AzureWebJobsStorage = (0, azurite_1.azuriteConnectionString)(launch_1.STANDARD_EMULATOR_PORTS);
            storageLine = 'the emulator already listening on 10000-10002 (reused)';
            break;
        case 'startEmulator': {
            const location = node_path_1.default.join(root, '.azurite');
            node_fs_1.default.mkdirSync(location, { recursive: true });
            azurite = await (0, azurite_1.startAzurite)({
                ports: { ...launch_1.STANDARD_EMULATOR_PORTS },
                location,
                detached: true,
            });
            process.env.AzureWebJobsStorage = azurite.connectionString;
            storageLine = `Azurite, started here (data in ${node_path_1.default.relative(process.cwd(), location) || location})`;
            break;
        }
        case 'portsBusy':
            throw new LaunchError(`Something listens on port ${plan.busy.map((s) => launch_1.STANDARD_EMULATOR_PORTS[s]).join(' and ')} but not on all of ` +
                '10000-10002, so it is not a storage emulator to reuse: stop it, or set AzureWebJobsStorage to a storage account.');
    }
    const stopAzurite = async () => {
        await azurite?.stop();
    };
    // If this process dies abruptly, do not leave a detached Azurite behind.
    process.once('exit', () => azurite?.process.kill('SIGKILL'));
    const emulatorLines = plan.kind === 'configured'
        ? []
        : [
            `  Blob:    http://127.0.0.1:${launch_1.STANDARD_EMULATOR_PORTS.blob}/devstoreaccount1`,
            `  Queue:   http://127.0.0.1:${launch_1.STANDARD_EMULATOR_PORTS.queue}/devstoreaccount1`,
            `  Table:   http://127.0.0.1:${launch_1.STANDARD_EMULATOR_PORTS.table}/devstoreaccount1`,
        ];
    // 2. Functions: Core Tools when installed.
    const func = (0, launch_1.findOnPath)('func', process.env.PATH);
    if (func) {
        say(`Storage: ${storageLine}`);
        for (const line of emulatorLines)
            say(line);
        say(`Azure Functions Core Tools found (${func}): running "func start --port ${port}".`);
        const child = (0, node_child_process_1.spawn)(func, ['start', '--port', String(port)], {
            cwd: root,
            stdio: 'inherit',
            env: process.env,
        });
        const forward = (signal) => {
            if (child.exitCode === null)
                child.kill(signal);
        };
        process.on('SIGINT', forward);
        process.on('SIGTERM', forward);
        const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c ?? 0)));
        await stopAzurite();
        process.exit(code);
    }
    // 3. Otherwise the project's local host, in this process.
    const logger = (0, log_1.createLogger)({ level: (0, log_1.parseLogLevel)(process.env.HOST_LOG_LEVEL) });
    let host;
    try {
        host = await (0, host_1.startLocalHost)({
            appRoot: root,
            functionsGlob: values.functions,
            port,
            listenAddress: values.listen,
            logger,
        });
    }
    catch (error) {
        await stopAzurite();
        if (error instanceof host_1.HostStartupError) {
            process.stderr.write(`Host startup failed: ${error.message}\n`);
            process.exit(1);
        }
        throw error;
    }
    const shown = host.origin.replace('//127.0.0.1:', '//localhost:');
    say();
    say('Local Functions host (Azure Functions Core Tools not found on PATH)');
    say(`  API:     ${shown}/${host.baseUrl.slice(host.origin.length + 1)}`);
    say(`  Health:  ${host.baseUrl.replace(host.origin, shown)}/health`);
    say(`  Admin:   ${shown}/admin/host/status`);
    say(`Storage: ${storageLine}`);
    for (const line of emulatorLines)
        say(line);
    say('Press Ctrl+C to stop.');
    if (azurite) {
        azurite.process.once('exit', (code, signal) => {
            if (!stopping)
                logger.error(`Azurite exited unexpectedly (${signal ?? code}); storage calls will fail until it runs again.`);
        });
    }
    let stopping = false;
    const shutdown = (signal) => {
        if (stopping) {
            say(`${signal} again: exiting without waiting.`);
            process.exit(1);
        }
        stopping = true;
        say(`\n${signal}: stopping the host, then storage...`);
        host
            .stop(Number(process.env.HOST_SHUTDOWN_TIMEOUT_MS ?? host_1.DEFAULT_SHUTDOWN_GRACE_MS))
            .then(stopAzurite)
            .then(() => process.exit(0), (error) => {
            process.stderr.write(`Shutdown failed: ${(0, log_1.describeError)(error)}\n`);
            process.exit(1);
        });
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
}
main().catch((error) => {
    process.stderr.write(`npm start failed: ${error instanceof LaunchError ? error.message : (0, log_1.describeError)(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=start.js.map