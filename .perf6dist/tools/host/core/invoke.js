"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FunctionTimeoutError = void 0;
exports.createInvoker = createInvoker;
/**
 * Runs one invocation the way the Node.js worker does: the app's programming model converts the
 * RPC request into handler arguments, `preInvocation` hooks run, the handler runs, then
 * `postInvocation` hooks, and the model converts the result back into an RPC response. The host
 * never converts arguments itself, so what runs here is the library code that runs in Azure.
 */
const node_crypto_1 = require("node:crypto");
const log_1 = require("../log");
/** The handler did not finish within host.json `functionTimeout`. */
class FunctionTimeoutError extends Error {
    constructor(functionName, timeoutMs) {
        super(`Timeout value of ${formatDuration(timeoutMs)} was exceeded by function: Functions.${functionName}`);
        this.name = 'FunctionTimeoutError';
    }
}
exports.FunctionTimeoutError = FunctionTimeoutError;
function formatDuration(ms) {
    const total = Math.round(ms / 1000);
    const pad = (n) => String(n).padStart(2, '0');
    return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
class HostInvocationContext {
    invocationId;
    request;
    metadata;
    write;
    state;
    /** The library's `InvocationContext`, once `getArguments` has built it (for log hooks). */
    invocationContext;
    constructor(invocationId, request, metadata, write) {
        this.invocationId = invocationId;
        this.request = request;
        this.metadata = metadata;
        this.write = write;
    }
    log(level, category, message) {
        this.write(this, level, category, message);
    }
}
/** Creates the invoker for an app's registry. */
function createInvoker(registry, logger, options = {}) {
    const runLogHooks = (ctx, level, category, message) => {
        const hooks = registry.hooks('log');
        if (hooks.length === 0)
            return { level, message };
        const init = {
            hookData: {},
            appHookData: registry.appHookData,
            level,
            message,
            category,
            invocationContext: ctx.invocationContext,
        };
        for (const hook of hooks) {
            try {
                void hook(init);
            }
            catch (error) {
                logger.warn(`A log hook failed: ${(0, log_1.describeError)(error)}`);
            }
        }
        return { level: init.level, message: init.message };
    };
    const write = (ctx, level, category, message) => {
        const final = runLogHooks(ctx, level, category, message);
        const source = category === 'user' ? ctx.metadata.name : `${ctx.metadata.name}:system`;
        logger.log(final.level, source, final.message);
    };
    const withTimeout = async (name, work) => {
        const timeoutMs = options.functionTimeoutMs;
        if (timeoutMs === undefined)
            return work;
        let timer;
        const timeout = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new FunctionTimeoutError(name, timeoutMs)), timeoutMs);
        });
        try {
            return await Promise.race([work, timeout]);
        }
        finally {
            clearTimeout(timer);
        }
    };
    const runHooks = async (hookName, context) => {
        for (const hook of registry.hooks(hookName))
            await hook(context);
    };
    return {
        async invoke(fn, partialRequest, invokeOptions) {
            const model = registry.programmingModel;
            if (!model)
                throw new Error('The app registered no programming model.');
            const invocationId = (0, node_crypto_1.randomUUID)();
            const name = fn.metadata.name;
            const request = {
                ...partialRequest,
                invocationId,
                functionId: fn.metadata.functionId ?? name,
            };
            const started = Date.now();
            logger.log('information', name, `Executing 'Functions.${name}' (Reason='${invokeOptions.reason}', Id=${invocationId})`);
            try {
                const ctx = new HostInvocationContext(invocationId, request, fn.metadata, write);
                const invocationModel = await model.getInvocationModel(ctx);
                const { context, inputs: initialInputs } = await invocationModel.getArguments();
                ctx.invocationContext = context;
                // The library wraps these objects in its hook context classes, whose setters write back
                // into them: a preInvocation hook may replace the inputs or the handler.
                const hookData = {};
                const pre = {
                    hookData,
                    appHookData: registry.appHookData,
                    invocationContext: context,
                    inputs: initialInputs,
                    functionCallback: fn.callback,
                };
                ctx.state = 'preInvocationHooks';
                try {
                    await runHooks('preInvocation', pre);
                }
                finally {
                    ctx.state = undefined;
                }
                const post = {
                    hookData,
                    appHookData: registry.appHookData,
                    invocationContext: context,
                    inputs: pre.inputs,
                    result: null,
                    error: null,
                };
                ctx.state = 'invocation';
                try {
                    post.result = await withTimeout(name, invocationModel.invokeFunction(context, pre.inputs, pre.functionCallback));
                }
                catch (error) {
                    post.error = error;
                }
                finally {
                    ctx.state = undefined;
                }
                ctx.state = 'postInvocationHooks';
                try {
                    await runHooks('postInvocation', post);
                }
                finally {
                    ctx.state = undefined;
                }
                if (post.error !== null && post.error !== undefined)
                    throw post.error;
                const response = await invocationModel.getResponse(context, post.result);
                logger.log('information', name, `Executed 'Functions.${name}' (Succeeded, Id=${invocationId}, Duration=${Date.now() - started}ms)`);
                return response;
            }
            catch (error) {
                logger.log('error', name, `Executed 'Functions.${name}' (Failed, Id=${invocationId}, Duration=${Date.now() - started}ms)\n${(0, log_1.describeError)(error)}`);
                throw error;
            }
        },
    };
}
//# sourceMappingURL=invoke.js.map