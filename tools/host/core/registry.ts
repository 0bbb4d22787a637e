/**
 * What a function app registers through `@azure/functions-core`: its functions, its hooks and its
 * programming model. Registration is open while the app's entry points load and locked after,
 * as the Node.js worker does.
 */
import type {
  FunctionCallback,
  FunctionMetadata,
  HookCallback,
  HookData,
  HookName,
  ProgrammingModel,
} from './types';

/** A resource released by `dispose()`; the worker exposes this class on the core module. */
export class Disposable {
  #callOnDispose: (() => unknown) | undefined;

  constructor(callOnDispose: () => unknown) {
    this.#callOnDispose = callOnDispose;
  }

  /** Combines several disposables into one. */
  static from(...disposables: { dispose: () => unknown }[]): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }

  dispose(): unknown {
    const callback = this.#callOnDispose;
    this.#callOnDispose = undefined;
    return callback?.();
  }
}

/** A function as the app registered it: the exact metadata Azure would receive, and its handler. */
export interface RegisteredFunction {
  metadata: FunctionMetadata;
  callback: FunctionCallback;
  /** The entry-point file that registered it. */
  entryPoint?: string;
}

/** Thrown for registrations the worker itself refuses. */
export class RegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrationError';
  }
}

const HOOK_NAMES: readonly HookName[] = [
  'appStart',
  'appTerminate',
  'preInvocation',
  'postInvocation',
  'log',
];

/** The functions and hooks the app registered through the programming model. */
export class FunctionAppRegistry {
  programmingModel: ProgrammingModel | undefined;
  /** Entry point being loaded, recorded on each function registered meanwhile. */
  currentEntryPoint: string | undefined;
  /** Shared by every hook of the app (the worker's `appHookData`). */
  readonly appHookData: HookData = {};
  /** Shared by the app-level hooks only (`appStart`, `appTerminate`). */
  readonly appLevelOnlyHookData: HookData = {};
  readonly #functions = new Map<string, RegisteredFunction>();
  readonly #hooks = new Map<HookName, HookCallback[]>(HOOK_NAMES.map((name) => [name, []]));
  #locked = false;

  /** Refuses further function registrations (after startup, as the worker does). */
  lock(): void {
    this.#locked = true;
  }

  /** Registered functions, in registration order. */
  functions(): RegisteredFunction[] {
    return [...this.#functions.values()];
  }

  /**
   * Records a function.
   *
   * @throws {RegistrationError} after startup, or when the function id is already taken.
   */
  registerFunction(metadata: FunctionMetadata, callback: FunctionCallback): Disposable {
    if (this.#locked) {
      throw new RegistrationError('A function can only be registered during app startup.');
    }
    const functionId = metadata.functionId ?? metadata.name;
    if (this.#functions.has(functionId)) {
      throw new RegistrationError(
        `A function with id "${functionId}" has already been registered.`,
      );
    }
    this.#functions.set(functionId, { metadata, callback, entryPoint: this.currentEntryPoint });
    return new Disposable(() => {
      if (this.#locked) {
        throw new RegistrationError('A function can only be disposed during app startup.');
      }
      this.#functions.delete(functionId);
    });
  }

  /**
   * Records a hook callback.
   *
   * @throws {RangeError} for a hook name the worker does not know (the library relies on this).
   */
  registerHook(hookName: string, callback: HookCallback): Disposable {
    const hooks = this.#hooks.get(hookName as HookName);
    if (!hooks) {
      const error = new RangeError(`Unrecognized hook "${hookName}"`);
      (error as RangeError & { isAzureFunctionsSystemError: boolean }).isAzureFunctionsSystemError =
        true;
      throw error;
    }
    hooks.push(callback);
    return new Disposable(() => {
      const index = hooks.indexOf(callback);
      if (index >= 0) hooks.splice(index, 1);
    });
  }

  /** The callbacks of one hook, in registration order (a copy). */
  hooks(hookName: HookName): HookCallback[] {
    return [...(this.#hooks.get(hookName) ?? [])];
  }
}
