"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.HOST_VERSION = exports.CORE_API_VERSION = exports.CORE_MODULE_NAME = void 0;
exports.createCoreApi = createCoreApi;
exports.installCoreModule = installCoreModule;
/**
 * Supplies the module `@azure/functions-core` to the function app, as the Azure Functions Node.js
 * worker does: `require('@azure/functions-core')` from any module returns this host's
 * implementation. `@azure/functions` then registers functions and hands over its programming
 * model here instead of falling back to "test mode".
 */
const node_module_1 = __importDefault(require("node:module"));
const registry_1 = require("./registry");
exports.CORE_MODULE_NAME = '@azure/functions-core';
/** Version reported as the worker's; the library only checks that `log` exists (host ≥ 4.28). */
exports.CORE_API_VERSION = '3.10.1';
/** Host version reported to the app. */
exports.HOST_VERSION = '4.1037.0-local';
/** Builds the module object over a registry; `log` receives the library's system logs. */
function createCoreApi(registry, log) {
    return {
        version: exports.CORE_API_VERSION,
        get hostVersion() {
            return exports.HOST_VERSION;
        },
        registerFunction: (metadata, callback) => registry.registerFunction(metadata, callback),
        registerHook: (hookName, callback) => registry.registerHook(hookName, callback),
        setProgrammingModel: (model) => {
            registry.programmingModel = model;
        },
        getProgrammingModel: () => registry.programmingModel,
        log,
        Disposable: registry_1.Disposable,
    };
}
/**
 * Makes `require('@azure/functions-core')` return `api` in this process (the worker intercepts
 * `Module.prototype.require` the same way). Must run before any module of the app loads.
 *
 * @returns a function that removes the interception.
 */
function installCoreModule(api) {
    const prototype = node_module_1.default.prototype;
    const original = prototype.require;
    prototype.require = function requireWithCore(id) {
        return id === exports.CORE_MODULE_NAME ? api : original.call(this, id);
    };
    return () => {
        prototype.require = original;
    };
}
//# sourceMappingURL=coreModule.js.map