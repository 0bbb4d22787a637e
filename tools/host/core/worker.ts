/**
 * The app's language worker as the host sees it: the app's modules loaded through
 * `@azure/functions-core`, invoked with host.json `functionTimeout`. When an invocation passes the
 * timeout the Functions host restarts the worker (azure-functions-host: a FunctionTimeoutException
 * shuts the worker channel down and starts a new one): every invocation in flight fails, the app
 * loads again and its `appStart` hooks run again, and what it kept in memory is gone. The local
 * worker shares the host's process, so a restart drops the app's modules from Node's module
 * cache (everything the app loaded, and the app's own files the host had loaded) and loads them
 * afresh; the old code cannot be killed, but nothing it returns is used any more.
 */
import path from 'node:path';
import { describeError, type Logger } from '../log';
import { createCoreApi, installCoreModule } from './coreModule';
import { createInvoker, FunctionTimeoutError, type Invoker } from './invoke';
import { FunctionAppRegistry, type RegisteredFunction } from './registry';
import type { HookContext, RpcLogCategory, RpcLogLevel } from './types';

export { FunctionTimeoutError } from './invoke';

/** An invocation that was running when the worker restarted. */
export class WorkerRestartedError extends Error {
  constructor(functionName: string, cause: string) {
    super(`Function '${functionName}' was running when the worker restarted (${cause}).`);
    this.name = 'WorkerRestartedError';
  }
}

/** How to load and run the app. */
export interface LocalWorkerOptions {
  appRoot: string;
  /** Loads the app's entry points into the registry (throws when one fails). */
  load: (registry: FunctionAppRegistry) => void;
  logger: Logger;
  /** host.json `functionTimeout`; undefined = none. */
  functionTimeoutMs?: number;
  /** Receives the programming model's own (system) logs. */
  log: (level: RpcLogLevel, category: RpcLogCategory, message: string) => void;
}

interface Generation {
  registry: FunctionAppRegistry;
  invoker: Invoker;
  /** Fails one running invocation (at a restart). */
  inFlight: Set<(error: Error) => void>;
}

// The host's own code (tools/host, tools/durable) stays loaded across restarts.
const TOOLS_ROOT = path.resolve(__dirname, '../..') + path.sep;
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** The app's worker: loads it, invokes its functions, restarts it at `functionTimeout`. */
export class LocalWorker implements Invoker {
  #generation: Generation;
  #restarting: Promise<void> | undefined;
  /** Modules loaded before the app: the host's (kept at a restart unless they are the app's). */
  readonly #hostModules: Set<string>;
  /** How many times the worker restarted. */
  restarts = 0;

  /**
   * Installs `@azure/functions-core` and loads the app.
   *
   * @throws what `options.load` throws (an entry point that fails).
   */
  constructor(private readonly options: LocalWorkerOptions) {
    this.#hostModules = new Set(Object.keys(require.cache));
    const registry = new FunctionAppRegistry();
    this.#generation = { registry, invoker: this.#invokerFor(registry), inFlight: new Set() };
    installCoreModule(createCoreApi(() => this.#generation.registry, options.log));
    this.#load(registry);
  }

  /** The current worker's registrations. */
  get registry(): FunctionAppRegistry {
    return this.#generation.registry;
  }

  /** Runs the current worker's `appStart` (or `appTerminate`) hooks. */
  async runAppHooks(
    hookName: 'appStart' | 'appTerminate',
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const registry = this.#generation.registry;
    const context: HookContext = {
      hookData: registry.appLevelOnlyHookData,
      appHookData: registry.appHookData,
      ...extra,
    };
    for (const hook of registry.hooks(hookName)) await hook(context);
  }

  /**
   * Invokes a function on the current worker (waiting for a restart under way).
   *
   * @throws what the function threw; {@link FunctionTimeoutError} past `functionTimeout` (the
   *   worker then restarts); {@link WorkerRestartedError} when another invocation's timeout
   *   restarted the worker while this one ran.
   */
  async invoke(
    fn: RegisteredFunction,
    request: Parameters<Invoker['invoke']>[1],
    invokeOptions: Parameters<Invoker['invoke']>[2],
  ): ReturnType<Invoker['invoke']> {
    await this.#restarting;
    const generation = this.#generation;
    const id = fn.metadata.functionId ?? fn.metadata.name;
    const current = generation.registry
      .functions()
      .find((f) => (f.metadata.functionId ?? f.metadata.name) === id);
    if (!current) throw new Error(`The worker has no function '${fn.metadata.name}' any more.`);
    const timeoutMs = this.options.functionTimeoutMs;
    return new Promise((resolve, reject) => {
      generation.inFlight.add(reject);
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              generation.inFlight.delete(reject);
              reject(new FunctionTimeoutError(fn.metadata.name, timeoutMs));
              void this.#restart(generation, fn.metadata.name);
            }, timeoutMs);
      generation.invoker
        .invoke(current, request, invokeOptions)
        .then(resolve, reject)
        .finally(() => {
          clearTimeout(timer);
          generation.inFlight.delete(reject);
        });
    });
  }

  #invokerFor(registry: FunctionAppRegistry): Invoker {
    // The timeout is the worker's (above): past it the whole worker goes, not one invocation.
    return createInvoker(registry, this.options.logger, {});
  }

  #load(registry: FunctionAppRegistry): void {
    this.options.load(registry);
    registry.lock();
  }

  #restart(generation: Generation, name: string): Promise<void> {
    // Once per worker: the invocations failed by a restart may pass their own deadline later.
    if (this.#restarting || generation !== this.#generation)
      return this.#restarting ?? Promise.resolve();
    const { logger, appRoot } = this.options;
    const running = generation.inFlight.size;
    logger.error(
      `Function '${name}' passed functionTimeout: restarting the worker` +
        `${running > 0 ? `; ${running} other running invocation(s) fail` : ''}.`,
    );
    for (const fail of generation.inFlight) fail(new WorkerRestartedError(name, 'functionTimeout'));
    generation.inFlight.clear();
    this.#restarting = (async () => {
      // Loading is synchronous: let the failed invocations be answered first.
      await new Promise((resolve) => setImmediate(resolve));
      this.#unloadApp();
      const registry = new FunctionAppRegistry();
      // The library of a reloaded app registers into the new registry (the core API reads it).
      this.#generation = { registry, invoker: this.#invokerFor(registry), inFlight: new Set() };
      try {
        this.#load(registry);
        await this.runAppHooks('appStart', { functionAppDirectory: appRoot });
        this.restarts += 1;
        logger.info(`Worker restarted (${this.restarts}); appStart hooks ran again.`);
      } catch (error) {
        logger.error(`The restarted worker failed to load the app: ${describeError(error)}`);
      }
    })().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  /** Drops the app's modules from the module cache, so the next load runs them afresh. */
  #unloadApp(): void {
    for (const file of Object.keys(require.cache)) {
      const hostOwn =
        file.startsWith(TOOLS_ROOT) || (this.#hostModules.has(file) && file.includes(NODE_MODULES));
      if (!hostOwn) delete require.cache[file];
    }
  }
}
