"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEV_KEY = exports.DEV_ACCOUNT = void 0;
exports.azuriteConnectionString = azuriteConnectionString;
exports.freePort = freePort;
exports.isListening = isListening;
exports.startAzurite = startAzurite;
/**
 * Starts the Azurite emulator (blob, queue, table) from the project's own node_modules, on free
 * ports or on the standard ones, in memory or persisted to a folder. Used by `npm start`, the test
 * setup and the benchmarks; nothing is installed globally.
 */
const node_child_process_1 = require("node:child_process");
const node_net_1 = require("node:net");
const node_path_1 = __importDefault(require("node:path"));
exports.DEV_ACCOUNT = 'devstoreaccount1';
exports.DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
/** A connection string for the development account on the given ports. */
function azuriteConnectionString(ports, host = '127.0.0.1', protocol = 'http') {
    return (`DefaultEndpointsProtocol=${protocol};AccountName=${exports.DEV_ACCOUNT};AccountKey=${exports.DEV_KEY};` +
        `BlobEndpoint=${protocol}://${host}:${ports.blob}/${exports.DEV_ACCOUNT};` +
        `QueueEndpoint=${protocol}://${host}:${ports.queue}/${exports.DEV_ACCOUNT};` +
        `TableEndpoint=${protocol}://${host}:${ports.table}/${exports.DEV_ACCOUNT};`);
}
/** A TCP port nobody listens on right now. */
function freePort() {
    return new Promise((resolve, reject) => {
        const server = (0, node_net_1.createServer)();
        server.unref();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            const port = typeof address === 'object' && address ? address.port : 0;
            server.close(() => resolve(port));
        });
    });
}
/** True when something accepts TCP connections on `host:port`. */
function isListening(port, host = '127.0.0.1', timeoutMs = 500) {
    return new Promise((resolve) => {
        const socket = new node_net_1.Socket();
        const done = (result) => {
            socket.destroy();
            resolve(result);
        };
        socket.setTimeout(timeoutMs, () => done(false));
        socket.once('error', () => done(false));
        socket.connect(port, host, () => done(true));
    });
}
async function waitForPorts(ports, child, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (child.exitCode !== null)
            throw new Error(`Azurite exited with code ${child.exitCode}.`);
        const up = await Promise.all([ports.blob, ports.queue, ports.table].map((p) => isListening(p)));
        if (up.every(Boolean))
            return;
        await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`Azurite did not listen on ${JSON.stringify(ports)} within ${timeoutMs} ms.`);
}
/**
 * Starts Azurite and resolves once all three services accept connections.
 *
 * @throws {Error} when Azurite exits or does not listen within 30 s.
 */
async function startAzurite(options = {}) {
    const ports = {
        blob: options.ports?.blob || (await freePort()),
        queue: options.ports?.queue || (await freePort()),
        table: options.ports?.table || (await freePort()),
    };
    const cli = require.resolve('azurite/dist/src/azurite.js');
    const args = [
        cli,
        '--blobPort',
        String(ports.blob),
        '--queuePort',
        String(ports.queue),
        '--tablePort',
        String(ports.table),
        '--skipApiVersionCheck',
        '--disableTelemetry',
        '--loose',
    ];
    if (options.location)
        args.push('--location', node_path_1.default.resolve(options.location));
    else
        args.push('--inMemoryPersistence');
    if (!options.verbose)
        args.push('--silent');
    args.push(...(options.extraArgs ?? []));
    const child = (0, node_child_process_1.spawn)(process.execPath, args, {
        stdio: options.verbose ? 'inherit' : ['ignore', 'ignore', 'inherit'],
        cwd: options.location ? node_path_1.default.resolve(options.location) : process.cwd(),
        detached: options.detached ?? false,
    });
    try {
        await waitForPorts(ports, child, 30_000);
    }
    catch (error) {
        child.kill('SIGKILL');
        throw error;
    }
    return {
        ports,
        connectionString: azuriteConnectionString(ports, '127.0.0.1', options.https ? 'https' : 'http'),
        process: child,
        stop: () => new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null)
                return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
                clearTimeout(timer);
                resolve();
            });
            child.kill('SIGTERM');
        }),
    };
}
//# sourceMappingURL=azurite.js.map