"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FunctionAppRegistry = exports.RegistrationError = exports.Disposable = void 0;
/** A resource released by `dispose()`; the worker exposes this class on the core module. */
class Disposable {
    #callOnDispose;
    constructor(callOnDispose) {
        this.#callOnDispose = callOnDispose;
    }
    /** Combines several disposables into one. */
    static from(...disposables) {
        return new Disposable(() => disposables.forEach((d) => d.dispose()));
    }
    dispose() {
        const callback = this.#callOnDispose;
        this.#callOnDispose = undefined;
        return callback?.();
    }
}
exports.Disposable = Disposable;
/** Thrown for registrations the worker itself refuses. */
class RegistrationError extends Error {
    constructor(message) {
        super(message);
        this.name = 'RegistrationError';
    }
}
exports.RegistrationError = RegistrationError;
const HOOK_NAMES = [
    'appStart',
    'appTerminate',
    'preInvocation',
    'postInvocation',
    'log',
];
class FunctionAppRegistry {
    programmingModel;
    /** Entry point being loaded, recorded on each function registered meanwhile. */
    currentEntryPoint;
    /** Shared by every hook of the app (the worker's `appHookData`). */
    appHookData = {};
    /** Shared by the app-level hooks only (`appStart`, `appTerminate`). */
    appLevelOnlyHookData = {};
    #functions = new Map();
    #hooks = new Map(HOOK_NAMES.map((name) => [name, []]));
    #locked = false;
    /** Refuses further function registrations (after startup, as the worker does). */
    lock() {
        this.#locked = true;
    }
    /** Registered functions, in registration order. */
    functions() {
        return [...this.#functions.values()];
    }
    /**
     * Records a function.
     *
     * @throws {RegistrationError} after startup, or when the function id is already taken.
     */
    registerFunction(metadata, callback) {
        if (this.#locked) {
            throw new RegistrationError('A function can only be registered during app startup.');
        }
        const functionId = metadata.functionId ?? metadata.name;
        if (this.#functions.has(functionId)) {
            throw new RegistrationError(`A function with id "${functionId}" has already been registered.`);
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
    registerHook(hookName, callback) {
        const hooks = this.#hooks.get(hookName);
        if (!hooks) {
            const error = new RangeError(`Unrecognized hook "${hookName}"`);
            error.isAzureFunctionsSystemError =
                true;
            throw error;
        }
        hooks.push(callback);
        return new Disposable(() => {
            const index = hooks.indexOf(callback);
            if (index >= 0)
                hooks.splice(index, 1);
        });
    }
    /** The callbacks of one hook, in registration order (a copy). */
    hooks(hookName) {
        return [...(this.#hooks.get(hookName) ?? [])];
    }
}
exports.FunctionAppRegistry = FunctionAppRegistry;
//# sourceMappingURL=registry.js.map