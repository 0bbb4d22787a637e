"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.startBuiltHost = startBuiltHost;
/**
 * Starting the built local Functions host (`dist/tools/host/cli.js`) for a benchmark case, with
 * only the functions files the case needs, against the counting proxy so its storage traffic is
 * measured. The host is a child process: its CPU work does not share the case's event loop.
 */
const node_child_process_1 = require("node:child_process");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const PROJECT_ROOT = node_path_1.default.resolve(__dirname, '..', '..');
const HOST_CLI = node_path_1.default.join(PROJECT_ROOT, 'dist', 'tools', 'host', 'cli.js');
/**
 * Starts the built host on a free port with only `functionsGlob` (relative to the project root,
 * e.g. `dist/functions/archive.js`) loaded; `settings` become its environment.
 *
 * @throws {Error} when the build has no host CLI, or the host exits or stays silent for 30 s.
 */
async function startBuiltHost(env, functionsGlob, settings) {
    if (!node_fs_1.default.existsSync(HOST_CLI)) {
        throw new Error(`${node_path_1.default.relative(PROJECT_ROOT, HOST_CLI)} is missing: run "npm run build" (npm run bench does).`);
    }
    const child = (0, node_child_process_1.spawn)(process.execPath, [HOST_CLI, '--app-root', PROJECT_ROOT, '--functions', functionsGlob, '--port', '0'], {
        cwd: PROJECT_ROOT,
        env: {
            ...process.env,
            ...settings,
            AzureWebJobsStorage: env.connectionString,
            HOST_LOG_LEVEL: 'warning',
            AzureFunctionsWebHost__hostid: `bench-${(0, node_crypto_1.randomBytes)(6).toString('hex')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const stopped = new Promise((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
        if (child.exitCode !== null || child.signalCode !== null)
            return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await stopped;
        clearTimeout(timer);
    };
    const baseUrl = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The host did not start within 30 s:\n${output}`)), 30_000);
        const onData = (chunk) => {
            // Keep only the tail: a long run must not grow this string without bound.
            output = (output + chunk.toString('utf8')).slice(-20_000);
            const match = /Host listening on \S+ \(API base (\S+)\)/.exec(output);
            if (match) {
                clearTimeout(timer);
                resolve(match[1]);
            }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`The host exited (code ${code}) before listening:\n${output}`));
        });
    }).catch(async (error) => {
        await stop();
        throw error;
    });
    return { baseUrl, stop };
}
//# sourceMappingURL=builtHost.js.map