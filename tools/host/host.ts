/**
 * The local Azure Functions host: loads a v4 app through its own `@azure/functions-core`, checks
 * what the Functions host checks, then serves its HTTP functions and drives its queue and timer
 * triggers over a storage account (Azurite locally). See docs/local-host.md.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createQueueOutputHandler } from './bindings/queueOutput';
import type { HostSettings } from './config/hostJson';
import type { LocalWorker } from './core/worker';
import {
  assignDrivers,
  createAcceptingDriver,
  DURABLE_TRIGGER_TYPES,
  type TriggerDriver,
} from './drivers';
import type { HostFunction } from './functions';
import { createHttpDriver, HTTP_RESPONSE_LIMIT_MS } from './http/httpDriver';
import { createAdminApi, type HostState } from './http/admin';
import { createHostServer, requestBodyLimit } from './http/server';
import type { HostAccess } from './http/hostKey';
import { packageMain } from './load/entryPoints';
import { createLogger, describeError, parseLogLevel, type Logger } from './log';
import { createQueueDriver } from './queue/queueDriver';
import { FunctionRunner } from './runner';
import { ConnectionResolver, DEFAULT_CONNECTION } from './storage';
import { createBlobScheduleMonitor, HOSTS_CONTAINER } from './timer/scheduleMonitor';
import { createTimerDriver } from './timer/timerDriver';
import type { DriverContext, HostExtension } from './extension';
import { HostStartupError } from './validation';
import { describeApp, hostSettingsOf, startWorker } from './appLoad';

export { HostStartupError } from './validation';

/** How to start the local host. */
export interface LocalHostOptions {
  /** The function app's folder (package.json, host.json). */
  appRoot: string;
  /** Entry points to load, relative to `appRoot`; default: package.json `main`. */
  functionsGlob?: string;
  /** Default: `<appRoot>/host.json`. */
  hostJsonPath?: string;
  /** Default 7071; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (functions are not key-protected locally, so stay off the network). */
  listenAddress?: string;
  /**
   * Host names to answer to besides loopback names and the listen address (`--allowed-host`);
   * any other `Host` header gets 421 (tools/host/http/requestGuard.ts).
   */
  allowedHosts?: readonly string[];
  /**
   * The host key its own endpoints require (`/admin/*`, `/runtime/webhooks/durabletask/*`), and
   * the Azure-mode front's secret (./http/hostKey.ts). The launchers set the key on any listen
   * address but loopback, and both in Azure mode; without a key those endpoints answer anyone who
   * reaches the host.
   */
  access?: HostAccess;
  /** App settings; default `process.env`. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /**
   * Extensions (a durable driver), passed in by the entry point (`defaultExtensions` of
   * ./extensions); default none, so the host itself depends on no extension.
   */
  extensions?: HostExtension[];
}

export type { DriverContext, HostExtension } from './extension';

/** A started local host: its URL and functions, and how to stop it. */
export interface RunningLocalHost {
  port: number;
  /** `http://127.0.0.1:<port>` (admin API lives here). */
  origin: string;
  /** `<origin>/<routePrefix>`: the API's base URL. */
  baseUrl: string;
  hostId: string;
  functions: HostFunction[];
  /** Stops triggers and the server, waiting up to `graceMs` for running invocations. */
  stop(graceMs?: number): Promise<void>;
}

/** Default wait for running invocations at shutdown. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;

/**
 * The host id (`AzureFunctionsWebHost__hostid`, else derived from the app folder), which keys
 * per-host state such as timer schedule statuses. At most 32 lowercase characters, as in Azure.
 */
export function hostIdFor(appRoot: string, env: Record<string, string | undefined>): string {
  const configured = env.AzureFunctionsWebHost__hostid?.trim();
  if (configured) {
    if (
      !/^[a-z0-9-]{1,32}$/.test(configured) ||
      configured.startsWith('-') ||
      configured.endsWith('-')
    ) {
      throw new HostStartupError([
        `AzureFunctionsWebHost__hostid must be 1-32 lowercase letters, digits or inner dashes, got "${configured}".`,
      ]);
    }
    return configured;
  }
  return `local-${createHash('sha256').update(path.resolve(appRoot)).digest('hex').slice(0, 26)}`;
}

/**
 * `HOST_HTTP_RESPONSE_LIMIT_MS` (tests shorten it): how long the front waits for an HTTP answer;
 * Azure's 230 s when absent.
 *
 * @throws {HostStartupError} when it is not a positive whole number.
 */
export function httpResponseLimit(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === '') return HTTP_RESPONSE_LIMIT_MS;
  const value = Number(setting.trim());
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new HostStartupError([
      `HOST_HTTP_RESPONSE_LIMIT_MS must be a positive whole number of milliseconds, got "${setting}".`,
    ]);
  return value;
}

const DURABLE_KINDS = new Set(['orchestration', 'activity', 'entity']);

/** `64 functions (52 HTTP, 5 queue, 5 timer, 2 durable)`: how many of each trigger kind. */
export function functionCounts(functions: readonly HostFunction[]): string {
  const kinds = new Map<string, number>();
  for (const fn of functions) {
    const type = fn.triggerType.replace(/trigger$/, '');
    const kind = type === 'http' ? 'HTTP' : DURABLE_KINDS.has(type) ? 'durable' : type;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const parts = [...kinds].map(([kind, count]) => `${count} ${kind}`);
  return `${functions.length} functions${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * Loads the app and starts serving it.
 *
 * @throws {HostStartupError} listing every problem the Functions host would refuse (or that
 *   keeps the app from running): entry points that fail, invalid or duplicate names, reserved or
 *   conflicting routes, invalid schedules or queue names, missing connections, a bad host.json.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<RunningLocalHost> {
  const appRoot = path.resolve(options.appRoot);
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger({ level: parseLogLevel(env.HOST_LOG_LEVEL) });
  const hostJsonPath = options.hostJsonPath
    ? path.resolve(options.hostJsonPath)
    : path.join(appRoot, 'host.json');
  const settings = hostSettingsOf(hostJsonPath);
  const hostId = hostIdFor(appRoot, env);
  const pattern = options.functionsGlob ?? packageMain(appRoot);
  const worker = startWorker(appRoot, pattern, settings, logger);
  const { functions, problems } = await describeApp(worker);

  const served = { origin: '' };
  const { runner, httpDriver, drivers } = createDrivers(options, {
    env,
    settings,
    worker,
    logger,
    hostId,
    origin: () => served.origin,
  });
  const assignment = assignDrivers(functions, drivers, (fn) => runner.prepare(fn));
  problems.push(...assignment.problems);
  if (problems.length > 0) throw new HostStartupError(problems);
  for (const warning of assignment.warnings) logger.warn(warning);
  if (functions.length === 0) logger.warn(`No functions found in "${pattern}".`);

  await worker.runAppHooks('appStart', { functionAppDirectory: appRoot });

  let state: HostState = 'Running';
  const admin = createAdminApi({
    functions,
    driverOf: assignment.driverOf,
    hostId,
    state: () => state,
  });
  const server = createHostServer({
    maxRequestBodyBytes: requestBodyLimit(env.FUNCTIONS_REQUEST_BODY_SIZE_LIMIT),
    routePrefix: settings.routePrefix,
    httpDriver,
    admin,
    logger,
    drivers,
    allowedHosts: options.allowedHosts,
    ...(options.access ? { access: options.access } : {}),
  });
  const listenAddress = options.listenAddress ?? '127.0.0.1';
  const port = await server.listen(options.port ?? 7071, listenAddress);
  const origin = server.origin();
  served.origin = origin;
  const baseUrl = settings.routePrefix ? `${origin}/${settings.routePrefix}` : origin;
  await Promise.all(drivers.map((driver) => driver.start()));
  logFunctions(logger, functions, assignment.driverOf, origin);
  logger.debug(`Host id ${hostId}; API base ${baseUrl}.`);

  const stop = stopper(logger, server, drivers, worker, (next) => (state = next));
  return { port, origin, baseUrl, hostId, functions, stop };
}

/** What the drivers of {@link createDrivers} share. */
interface DriverSetup {
  env: Record<string, string | undefined>;
  settings: HostSettings;
  worker: LocalWorker;
  logger: Logger;
  hostId: string;
  /** The host's origin once it listens. */
  origin: () => string;
}

/** The runner and every trigger driver: the extensions' first, then HTTP, queue, timer. */
function createDrivers(
  options: LocalHostOptions,
  { env, settings, worker, logger, hostId, origin }: DriverSetup,
) {
  const connections = new ConnectionResolver(env);
  const runner = new FunctionRunner(
    worker,
    [],
    [createQueueOutputHandler(env, connections, settings.queues.messageEncoding)],
  );
  const context: DriverContext = {
    env,
    settings,
    connections,
    runner,
    logger,
    hostId,
    origin,
    ...(options.access?.key === undefined ? {} : { hostKey: options.access.key }),
  };
  const extensionDrivers: TriggerDriver[] = [];
  for (const extension of options.extensions ?? []) {
    const added = extension(context);
    extensionDrivers.push(...(added.drivers ?? []));
    for (const provider of added.inputProviders ?? []) runner.addInputProvider(provider);
  }
  const httpDriver = createHttpDriver({
    routePrefix: settings.routePrefix,
    runner,
    logger,
    responseLimitMs: httpResponseLimit(env.HOST_HTTP_RESPONSE_LIMIT_MS),
  });
  const drivers: TriggerDriver[] = [
    ...extensionDrivers,
    httpDriver,
    createQueueDriver({ env, options: settings.queues, connections, runner, logger }),
    createTimerDriver({
      env,
      runner,
      logger,
      monitor: () =>
        createBlobScheduleMonitor(
          connections.clients(DEFAULT_CONNECTION).container(HOSTS_CONTAINER),
          hostId,
        ),
    }),
    createAcceptingDriver(
      DURABLE_TRIGGER_TYPES,
      'registered; the local host does not run durable functions',
    ),
  ];
  return { runner, httpDriver, drivers };
}

/**
 * One line per function would bury the URLs the launcher prints next: a count at info level, the
 * list at debug level and from the admin API (docs/functions.md describes each function).
 */
function logFunctions(
  logger: Logger,
  functions: readonly HostFunction[],
  driverOf: ReadonlyMap<HostFunction, TriggerDriver>,
  origin: string,
): void {
  logger.info(
    `${functionCounts(functions)}; the list: GET ${origin}/admin/functions (or HOST_LOG_LEVEL=debug).`,
  );
  for (const fn of functions) {
    const description = driverOf.get(fn)?.describe(fn) ?? 'not run locally';
    logger.debug(`  ${fn.name}: ${description.replace(/^\[([^\]]*)\] /, `[$1] ${origin}`)}`);
  }
}

/**
 * The host's `stop`: no new work, running invocations get up to `graceMs`, then the app's
 * `appTerminate` hooks; once only (a second call waits for the first).
 */
function stopper(
  logger: Logger,
  server: ReturnType<typeof createHostServer>,
  drivers: readonly TriggerDriver[],
  worker: LocalWorker,
  setState: (state: HostState) => void,
): RunningLocalHost['stop'] {
  let stopping: Promise<void> | undefined;
  return (graceMs = DEFAULT_SHUTDOWN_GRACE_MS) => {
    stopping ??= (async () => {
      setState('Stopping');
      logger.info('Stopping: no new work is taken; waiting for running invocations.');
      await Promise.all([
        server.close(graceMs),
        ...drivers.map((driver) =>
          driver
            .stop(graceMs)
            .catch((error) => logger.error(`A trigger failed to stop: ${describeError(error)}`)),
        ),
      ]);
      try {
        await worker.runAppHooks('appTerminate');
      } catch (error) {
        logger.error(`An appTerminate hook failed: ${describeError(error)}`);
      }
      setState('Stopped');
      logger.info('Host stopped.');
    })();
    return stopping;
  };
}
