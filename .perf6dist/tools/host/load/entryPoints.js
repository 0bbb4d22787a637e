"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.EntryPointError = exports.DEFAULT_MAIN = void 0;
exports.packageMain = packageMain;
exports.loadEntryPoints = loadEntryPoints;
/**
 * Loads the app's entry points: package.json `main` (a file or a glob; the host's override wins),
 * each file required in order, with the functions it registers attributed to it, as the Node.js
 * worker does. A file that fails to load stops the host (Node 20 workers block on it too).
 */
const node_fs_1 = __importDefault(require("node:fs"));
const node_module_1 = require("node:module");
const node_path_1 = __importDefault(require("node:path"));
const glob_1 = require("./glob");
exports.DEFAULT_MAIN = 'dist/functions/*.js';
/** An entry point is missing or threw while loading. */
class EntryPointError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EntryPointError';
    }
}
exports.EntryPointError = EntryPointError;
/** The `main` of the app's package.json, or the default when it has none. */
function packageMain(appRoot) {
    try {
        const pkg = JSON.parse(node_fs_1.default.readFileSync(node_path_1.default.join(appRoot, 'package.json'), 'utf8'));
        return typeof pkg.main === 'string' && pkg.main.trim() !== '' ? pkg.main : exports.DEFAULT_MAIN;
    }
    catch {
        return exports.DEFAULT_MAIN;
    }
}
/**
 * Requires every file matching `pattern` under `appRoot`.
 *
 * @returns the loaded files, relative to `appRoot`.
 * @throws {EntryPointError} when nothing matches or a file throws while loading.
 */
function loadEntryPoints(appRoot, pattern, registry) {
    const files = (0, glob_1.globFiles)(appRoot, pattern);
    if (files.length === 0) {
        throw new EntryPointError(`Found zero files matching the entry point pattern "${pattern}" under ${appRoot}. Build the app first (npm run build) or pass another pattern.`);
    }
    for (const file of files) {
        const fullPath = node_path_1.default.join(appRoot, file);
        registry.currentEntryPoint = fullPath;
        try {
            // Node's loader (not a bundler's): the app's own `require` calls then go through the
            // host's `@azure/functions-core` interception.
            (0, node_module_1.createRequire)(fullPath)(fullPath);
        }
        catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            const wrapped = new EntryPointError(`Worker was unable to load entry point "${file}": ${reason}`);
            wrapped.cause = error;
            throw wrapped;
        }
        finally {
            registry.currentEntryPoint = undefined;
        }
    }
    return files;
}
//# sourceMappingURL=entryPoints.js.map