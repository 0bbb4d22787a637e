"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_TUNING = void 0;
exports.createDurableRuntime = createDurableRuntime;
/**
 * The local durable runtime: what the local host embeds so that `df.app.orchestration` /
 * `df.app.activity` registrations run to completion without the Durable Functions extension.
 *
 * The host tells it which functions are orchestrators and activities, gives it an `invoke`
 * callback that runs a registered function through `@azure/functions`, passes
 * {@link DurableRuntime.clientInputFor} as the value of `durableClient` input bindings and routes
 * `/runtime/webhooks/durabletask/*` to {@link DurableRuntime.handleHttp}.
 */
const data_tables_1 = require("@azure/data-tables");
const activityWorker_1 = require("./activityWorker");
const clientInput_1 = require("./clientInput");
const context_1 = require("./context");
const controlWorker_1 = require("./controlWorker");
const httpApi_1 = require("./httpApi");
const keyedMutex_1 = require("./keyedMutex");
const keys_1 = require("./keys");
const queuePoller_1 = require("./queuePoller");
const store_1 = require("./store");
exports.DEFAULT_TUNING = {
    leaseSeconds: 30,
    activityConcurrency: 8,
    orchestrationConcurrency: 8,
    minPollIntervalMs: 50,
    maxPollIntervalMs: 1000,
    maxDequeueCount: 10,
};
/**
 * Creates a runtime (nothing runs until {@link DurableRuntime.start}).
 *
 * @throws {Error} for an invalid task hub name.
 */
function createDurableRuntime(options) {
    const taskHub = (0, keys_1.validateTaskHubName)(options.taskHub);
    const tuning = { ...exports.DEFAULT_TUNING, ...options.tuning };
    const log = options.log ?? ((...args) => console.error(...args));
    const store = new store_1.DurableStore(options.storage, taskHub);
    const orchestrations = new Set();
    const activities = new Set();
    const ctx = {
        store,
        invoke: options.invoke,
        orchestrations,
        activities,
        clock: options.clock ?? (() => new Date()),
        newId: context_1.randomHexId,
        log,
    };
    const hostBaseUrl = () => typeof options.hostBaseUrl === 'function' ? options.hostBaseUrl() : options.hostBaseUrl;
    const clientInputFor = (connectionName) => (0, clientInput_1.buildClientInput)(hostBaseUrl(), taskHub, connectionName);
    const locks = new keyedMutex_1.KeyedMutex();
    const pollerDefaults = {
        store,
        leaseSeconds: tuning.leaseSeconds,
        minIntervalMs: tuning.minPollIntervalMs,
        maxIntervalMs: tuning.maxPollIntervalMs,
        maxDequeueCount: tuning.maxDequeueCount,
        log,
    };
    const controlPoller = new queuePoller_1.QueuePoller({
        ...pollerDefaults,
        name: 'control',
        queue: store.control,
        concurrency: tuning.orchestrationConcurrency,
        handle: (message) => (0, controlWorker_1.handleControlMessage)(ctx, locks, message),
    });
    const workItemPoller = new queuePoller_1.QueuePoller({
        ...pollerDefaults,
        name: 'workitems',
        queue: store.workItems,
        concurrency: tuning.activityConcurrency,
        handle: (message) => (0, activityWorker_1.runWorkItem)(ctx, message),
    });
    store.onSent = (queue) => (queue === store.control ? controlPoller : workItemPoller).poke();
    let started = false;
    return {
        taskHub,
        clientInputFor,
        handleHttp: (req, res, body) => (0, httpApi_1.handleDurableHttp)({ ctx, taskHub, clientInput: clientInputFor }, req, res, body),
        registerOrchestration: (name) => {
            orchestrations.add(name);
        },
        registerActivity: (name) => {
            activities.add(name);
        },
        async start() {
            if (started)
                return;
            await store.ensureCreated();
            await wakeUnfinished(store);
            controlPoller.start();
            workItemPoller.start();
            started = true;
        },
        async stop() {
            if (!started)
                return;
            started = false;
            await Promise.all([controlPoller.stop(), workItemPoller.stop()]);
        },
    };
}
/**
 * Sends a wake-up to every Pending or Running instance: recovers from a crash between writing an
 * inbox row and sending its wake-up, and from dropped messages.
 */
async function wakeUnfinished(store) {
    let token;
    do {
        const page = await store.listInstances((0, data_tables_1.odata) `RuntimeStatus eq ${'Pending'} or RuntimeStatus eq ${'Running'}`, 1000, token);
        await Promise.all(page.items.map((instance) => store.sendControl({ kind: 'wake', instanceId: instance.instanceId })));
        token = page.continuationToken;
    } while (token);
}
//# sourceMappingURL=runtime.js.map