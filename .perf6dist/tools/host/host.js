"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_SHUTDOWN_GRACE_MS = exports.HostStartupError = void 0;
exports.hostIdFor = hostIdFor;
exports.startLocalHost = startLocalHost;
/**
 * The local Azure Functions host: loads a v4 app through its own `@azure/functions-core`, checks
 * what the Functions host checks, then serves its HTTP functions and drives its queue and timer
 * triggers over a storage account (Azurite locally). See docs/local-host.md.
 */
const node_crypto_1 = require("node:crypto");
const node_path_1 = __importDefault(require("node:path"));
const queueOutput_1 = require("./bindings/queueOutput");
const hostJson_1 = require("./config/hostJson");
const coreModule_1 = require("./core/coreModule");
const invoke_1 = require("./core/invoke");
const registry_1 = require("./core/registry");
const drivers_1 = require("./drivers");
const functions_1 = require("./functions");
const httpDriver_1 = require("./http/httpDriver");
const admin_1 = require("./http/admin");
const server_1 = require("./http/server");
const entryPoints_1 = require("./load/entryPoints");
const log_1 = require("./log");
const queueDriver_1 = require("./queue/queueDriver");
const runner_1 = require("./runner");
const storage_1 = require("./storage");
const scheduleMonitor_1 = require("./timer/scheduleMonitor");
const timerDriver_1 = require("./timer/timerDriver");
const extensions_1 = require("./extensions");
const validation_1 = require("./validation");
var validation_2 = require("./validation");
Object.defineProperty(exports, "HostStartupError", { enumerable: true, get: function () { return validation_2.HostStartupError; } });
/** Default wait for running invocations at shutdown. */
exports.DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
/**
 * The host id (`AzureFunctionsWebHost__hostid`, else derived from the app folder), which keys
 * per-host state such as timer schedule statuses. At most 32 lowercase characters, as in Azure.
 */
function hostIdFor(appRoot, env) {
    const configured = env.AzureFunctionsWebHost__hostid?.trim();
    if (configured) {
        if (!/^[a-z0-9-]{1,32}$/.test(configured) ||
            configured.startsWith('-') ||
            configured.endsWith('-')) {
            throw new validation_1.HostStartupError([
                `AzureFunctionsWebHost__hostid must be 1-32 lowercase letters, digits or inner dashes, got "${configured}".`,
            ]);
        }
        return configured;
    }
    return `local-${(0, node_crypto_1.createHash)('sha256').update(node_path_1.default.resolve(appRoot)).digest('hex').slice(0, 26)}`;
}
const WORKER_CAPABILITIES = {
    RawHttpBodyBytes: 'true',
    RpcHttpTriggerMetadataRemoved: 'true',
    RpcHttpBodyOnly: 'true',
    IgnoreEmptyValuedRpcHttpHeaders: 'true',
    UseNullableValueDictionaryForHttp: 'true',
    WorkerStatus: 'true',
    TypedDataCollection: 'true',
    HandlesWorkerTerminateMessage: 'true',
};
async function runAppHooks(registry, hookName, extra) {
    const context = {
        hookData: registry.appLevelOnlyHookData,
        appHookData: registry.appHookData,
        ...extra,
    };
    for (const hook of registry.hooks(hookName))
        await hook(context);
}
/**
 * Loads the app and starts serving it.
 *
 * @throws {HostStartupError} listing every problem the Functions host would refuse (or that
 *   keeps the app from running): entry points that fail, invalid or duplicate names, reserved or
 *   conflicting routes, invalid schedules or queue names, missing connections, a bad host.json.
 */
async function startLocalHost(options) {
    const appRoot = node_path_1.default.resolve(options.appRoot);
    const env = options.env ?? process.env;
    const logger = options.logger ?? (0, log_1.createLogger)({ level: (0, log_1.parseLogLevel)(env.HOST_LOG_LEVEL) });
    const hostJsonPath = options.hostJsonPath
        ? node_path_1.default.resolve(options.hostJsonPath)
        : node_path_1.default.join(appRoot, 'host.json');
    let settings;
    try {
        settings = (0, hostJson_1.loadHostSettings)(hostJsonPath);
    }
    catch (error) {
        throw new validation_1.HostStartupError([error.message]);
    }
    const hostId = hostIdFor(appRoot, env);
    // The core module must be in place before the first `require('@azure/functions')`.
    const registry = new registry_1.FunctionAppRegistry();
    (0, coreModule_1.installCoreModule)((0, coreModule_1.createCoreApi)(registry, (level, category, message) => logger.log(level === 'information' && category === 'system' ? 'debug' : level, 'worker', message)));
    const pattern = options.functionsGlob ?? (0, entryPoints_1.packageMain)(appRoot);
    try {
        const files = (0, entryPoints_1.loadEntryPoints)(appRoot, pattern, registry);
        logger.debug(`Loaded ${files.length} entry point(s) matching "${pattern}".`);
    }
    catch (error) {
        logger.error((0, log_1.describeError)(error.cause ?? error));
        throw new validation_1.HostStartupError([error.message]);
    }
    registry.lock();
    const problems = [];
    const warnings = [];
    const model = registry.programmingModel;
    if (model?.getCapabilities) {
        const capabilities = await model.getCapabilities({ ...WORKER_CAPABILITIES });
        if (capabilities.HttpUri) {
            problems.push('HTTP streaming (app.setup({ enableHttpStream: true })) is not supported by the local host.');
        }
    }
    const functions = [];
    for (const registration of registry.functions()) {
        try {
            functions.push((0, functions_1.describeFunction)(registration));
        }
        catch (error) {
            problems.push(error.message);
        }
    }
    problems.push(...(0, validation_1.namingProblems)(functions.map((fn) => fn.name)));
    const connections = new storage_1.ConnectionResolver(env);
    const invoker = (0, invoke_1.createInvoker)(registry, logger, {
        functionTimeoutMs: settings.functionTimeoutMs,
    });
    const runner = new runner_1.FunctionRunner(invoker, [], [(0, queueOutput_1.createQueueOutputHandler)(env, connections, settings.queues.messageEncoding)]);
    let origin = '';
    const context = {
        env,
        settings,
        connections,
        runner,
        logger,
        hostId,
        origin: () => origin,
    };
    const extensionDrivers = [];
    for (const extension of options.extensions ?? extensions_1.defaultExtensions) {
        const added = extension(context);
        extensionDrivers.push(...(added.drivers ?? []));
        for (const provider of added.inputProviders ?? [])
            runner.addInputProvider(provider);
    }
    const httpDriver = (0, httpDriver_1.createHttpDriver)({ routePrefix: settings.routePrefix, runner, logger });
    const drivers = [
        ...extensionDrivers,
        httpDriver,
        (0, queueDriver_1.createQueueDriver)({ env, options: settings.queues, connections, runner, logger }),
        (0, timerDriver_1.createTimerDriver)({
            env,
            runner,
            logger,
            monitor: () => (0, scheduleMonitor_1.createBlobScheduleMonitor)(connections.clients(storage_1.DEFAULT_CONNECTION).container(scheduleMonitor_1.HOSTS_CONTAINER), hostId),
        }),
        (0, drivers_1.createAcceptingDriver)(drivers_1.DURABLE_TRIGGER_TYPES, 'registered; the local host does not run durable functions'),
    ];
    const assignment = (0, drivers_1.assignDrivers)(functions, drivers, (fn) => runner.prepare(fn));
    const driverOf = assignment.driverOf;
    problems.push(...assignment.problems);
    warnings.push(...assignment.warnings);
    if (problems.length > 0)
        throw new validation_1.HostStartupError(problems);
    for (const warning of warnings)
        logger.warn(warning);
    if (functions.length === 0)
        logger.warn(`No functions found in "${pattern}".`);
    await runAppHooks(registry, 'appStart', { functionAppDirectory: appRoot });
    let state = 'Running';
    const admin = (0, admin_1.createAdminApi)({
        functions,
        driverOf,
        hostId,
        state: () => state,
    });
    const server = (0, server_1.createHostServer)({
        routePrefix: settings.routePrefix,
        httpDriver,
        admin,
        logger,
        drivers,
    });
    const listenAddress = options.listenAddress ?? '127.0.0.1';
    const port = await server.listen(options.port ?? 7071, listenAddress);
    origin = server.origin();
    const baseUrl = settings.routePrefix ? `${origin}/${settings.routePrefix}` : origin;
    await Promise.all(drivers.map((driver) => driver.start()));
    logger.info(`Functions (${functions.length}):`);
    for (const fn of functions) {
        const description = driverOf.get(fn)?.describe(fn) ?? 'not run locally';
        logger.info(`  ${fn.name}: ${description.replace(/^\[([^\]]*)\] /, `[$1] ${origin}`)}`);
    }
    logger.info(`Host id ${hostId}; API base ${baseUrl}.`);
    let stopping;
    return {
        port,
        origin,
        baseUrl,
        hostId,
        functions,
        stop(graceMs = exports.DEFAULT_SHUTDOWN_GRACE_MS) {
            stopping ??= (async () => {
                state = 'Stopping';
                logger.info('Stopping: no new work is taken; waiting for running invocations.');
                await Promise.all([
                    server.close(graceMs),
                    ...drivers.map((driver) => driver
                        .stop(graceMs)
                        .catch((error) => logger.error(`A trigger failed to stop: ${(0, log_1.describeError)(error)}`))),
                ]);
                try {
                    await runAppHooks(registry, 'appTerminate', {});
                }
                catch (error) {
                    logger.error(`An appTerminate hook failed: ${(0, log_1.describeError)(error)}`);
                }
                state = 'Stopped';
                logger.info('Host stopped.');
            })();
            return stopping;
        },
    };
}
//# sourceMappingURL=host.js.map