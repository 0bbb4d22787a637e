/**
 * Supplies the module `@azure/functions-core` to the function app, as the Azure Functions Node.js
 * worker does: `require('@azure/functions-core')` from any module returns this host's
 * implementation. `@azure/functions` then registers functions and hands over its programming
 * model here instead of falling back to "test mode".
 */
import Module from 'node:module';
import type { FunctionAppRegistry } from './registry';
import { Disposable } from './registry';
import type {
  FunctionCallback,
  FunctionMetadata,
  HookCallback,
  ProgrammingModel,
  RpcLogCategory,
  RpcLogLevel,
} from './types';

/** The module name the Functions programming model imports its host API from. */
export const CORE_MODULE_NAME = '@azure/functions-core';

/** Version reported as the worker's; the library only checks that `log` exists (host ≥ 4.28). */
export const CORE_API_VERSION = '3.10.1';
/** Host version reported to the app. */
export const HOST_VERSION = '4.1037.0-local';

/** The host API (`@azure/functions-core`) the local host gives the programming model. */
export interface CoreApi {
  version: string;
  readonly hostVersion: string;
  registerFunction(metadata: FunctionMetadata, callback: FunctionCallback): Disposable;
  registerHook(hookName: string, callback: HookCallback): Disposable;
  setProgrammingModel(model: ProgrammingModel): void;
  getProgrammingModel(): ProgrammingModel | undefined;
  log(level: RpcLogLevel, category: RpcLogCategory, message: string): void;
  Disposable: typeof Disposable;
}

/**
 * Builds the module object over a registry (or the current one of a restartable worker); `log`
 * receives the library's system logs.
 */
export function createCoreApi(
  registry: FunctionAppRegistry | (() => FunctionAppRegistry),
  log: (level: RpcLogLevel, category: RpcLogCategory, message: string) => void,
): CoreApi {
  const current = typeof registry === 'function' ? registry : () => registry;
  return {
    version: CORE_API_VERSION,
    get hostVersion() {
      return HOST_VERSION;
    },
    registerFunction: (metadata, callback) => current().registerFunction(metadata, callback),
    registerHook: (hookName, callback) => current().registerHook(hookName, callback),
    setProgrammingModel: (model) => {
      current().programmingModel = model;
    },
    getProgrammingModel: () => current().programmingModel,
    log,
    Disposable,
  };
}

type RequireFunction = (this: unknown, id: string) => unknown;

/**
 * Makes `require('@azure/functions-core')` return `api` in this process (the worker intercepts
 * `Module.prototype.require` the same way). Must run before any module of the app loads.
 *
 * @returns a function that removes the interception.
 */
export function installCoreModule(api: CoreApi): () => void {
  const prototype = Module.prototype as unknown as { require: RequireFunction };
  const original = prototype.require;
  prototype.require = function requireWithCore(this: unknown, id: string): unknown {
    return id === CORE_MODULE_NAME ? api : original.call(this, id);
  };
  return () => {
    prototype.require = original;
  };
}
