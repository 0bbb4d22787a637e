"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.durableHostExtension = void 0;
exports.createDurableHostExtension = createDurableHostExtension;
exports.decodeReturnValue = decodeReturnValue;
const clientInput_1 = require("./clientInput");
const hostSettings_1 = require("./hostSettings");
const runtime_1 = require("./runtime");
const DURABLE_TRIGGERS = ['orchestrationtrigger', 'activitytrigger'];
const CLIENT_BINDING_TYPES = ['durableclient', 'orchestrationclient'];
/** Creates the extension (pass it in the host's extension list). */
function createDurableHostExtension(options = {}) {
    return (context) => {
        const settings = (0, hostSettings_1.readDurableHostSettings)(context.settings.durableTask, context.env);
        const taskHub = options.taskHub ?? settings.taskHub ?? (0, hostSettings_1.defaultTaskHub)(context.hostId);
        const connectionName = options.connectionName ?? settings.connectionName;
        const functions = new Map();
        const invoke = async (name, triggerValue, kind) => {
            const fn = functions.get(name);
            if (!fn)
                throw new Error(`The function '${name}' is not a durable function of this app.`);
            const response = await context.runner.run(fn, {
                data: triggerValue === undefined ? {} : { json: JSON.stringify(triggerValue) },
                reason: kind === 'orchestrationTrigger' ? 'Orchestration episode' : 'Activity work item',
            });
            return decodeReturnValue(response.returnValue);
        };
        let runtime;
        let stopping = false;
        let retryTimer;
        // Created on first use, so an app without durable functions needs no task hub storage.
        const getRuntime = () => (runtime ??= (0, runtime_1.createDurableRuntime)({
            storage: context.connections.clients(connectionName),
            taskHub,
            hostBaseUrl: () => context.origin(),
            invoke,
            log: (...args) => context.logger.error(args.map(describe).join(' ')),
            tuning: { ...settings.tuning, ...options.tuning },
        }));
        const driver = {
            triggerTypes: DURABLE_TRIGGERS,
            add(fn) {
                functions.set(fn.name, fn);
                if (fn.triggerType === 'orchestrationtrigger')
                    getRuntime().registerOrchestration(fn.name);
                else
                    getRuntime().registerActivity(fn.name);
            },
            describe: (fn) => `${fn.trigger.binding.type} (durable, task hub ${taskHub})`,
            async start() {
                if (!runtime)
                    return;
                // As Core Tools does: durable-functions then builds management URLs for this host.
                process.env.WEBSITE_HOSTNAME ??= new URL(context.origin()).host;
                // Like the Functions host, storage being down at startup must not stop the host (HTTP
                // functions such as /api/health still answer): keep retrying the hub in the background.
                const startHub = async (attempt) => {
                    if (stopping || !runtime)
                        return;
                    try {
                        await runtime.start();
                        context.logger.info(`Durable task hub ${taskHub} (connection ${connectionName}) is running.`);
                    }
                    catch (error) {
                        const delayMs = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
                        context.logger.warn(`Durable task hub ${taskHub} could not start (${error.message}); retrying in ${delayMs} ms.`);
                        retryTimer = setTimeout(() => void startHub(attempt + 1), delayMs);
                        retryTimer.unref();
                    }
                };
                await startHub(0);
            },
            async stop(graceMs) {
                stopping = true;
                if (retryTimer)
                    clearTimeout(retryTimer);
                if (!runtime)
                    return;
                await Promise.race([
                    runtime.stop(),
                    new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
                ]);
            },
            async serveHttp(request) {
                if (!runtime)
                    return false;
                if (request.pathname !== clientInput_1.WEBHOOK_PATH && !request.pathname.startsWith(`${clientInput_1.WEBHOOK_PATH}/`))
                    return false;
                return runtime.handleHttp(request.request, request.response, request.body);
            },
        };
        const clientProviders = CLIENT_BINDING_TYPES.map((type) => ({
            type,
            prepare: () => {
                getRuntime();
            },
            provide: async (_fn, input) => {
                const connection = typeof input.binding.connectionName === 'string'
                    ? input.binding.connectionName
                    : undefined;
                return { string: JSON.stringify(getRuntime().clientInputFor(connection)) };
            },
        }));
        return { drivers: [driver], inputProviders: clientProviders };
    };
}
/** The extension with settings from host.json / app settings. */
exports.durableHostExtension = createDurableHostExtension();
/** A function's return value from the RPC response (strings stay strings). */
function decodeReturnValue(data) {
    if (!data)
        return undefined;
    if (typeof data.json === 'string')
        return JSON.parse(data.json);
    if (typeof data.string === 'string')
        return data.string;
    if (typeof data.int === 'number')
        return data.int;
    if (typeof data.double === 'number')
        return data.double;
    if (data.bytes)
        return Buffer.from(data.bytes);
    return undefined;
}
function describe(value) {
    if (value instanceof Error)
        return value.stack ?? value.message;
    return typeof value === 'string' ? value : JSON.stringify(value);
}
//# sourceMappingURL=hostExtension.js.map