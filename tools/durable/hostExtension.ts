/**
 * Plugs the local durable runtime into the local Functions host (tools/host) as a host
 * extension: a trigger driver that claims `orchestrationTrigger` and `activityTrigger`
 * functions and serves `/runtime/webhooks/durabletask/...`, and input providers that give
 * `durableClient` (and the older `orchestrationClient`) bindings their value.
 *
 * Durable functions are invoked through the host's FunctionRunner — the app's own programming
 * model converts arguments and results — with the trigger value as JSON typed data, as the
 * Durable Functions extension sends it.
 *
 * Settings (task hub, connection, lease, polling, concurrency) are read by
 * {@link readDurableHostSettings} from the app settings
 * `AzureFunctionsJobHost__extensions__durableTask__*` and from host.json `extensions.durableTask`
 * when the host's settings carry that section.
 */
import type { InputBindingProvider } from '../host/bindings/bindings';
import type { RpcTypedData } from '../host/core/types';
import type { HostHttpRequest, TriggerDriver } from '../host/drivers';
import type { HostFunction } from '../host/functions';
import { HostStartupError } from '../host/validation';
import type { DriverContext, HostExtension } from '../host/extension';
import { WEBHOOK_PATH } from './http/clientInput';
import type { DurableTriggerKind } from './context';
import { defaultTaskHub, readDurableHostSettings, type DurableTaskJson } from './hostSettings';
import {
  createDurableRuntime,
  TaskHubInUseError,
  type DurableRuntime,
  type DurableTuning,
} from './runtime';

/** How the durable extension of the local host is set up. */
export interface DurableHostOptions {
  /** Overrides the task hub name. */
  taskHub?: string;
  /** The storage connection setting of the task hub (default AzureWebJobsStorage). */
  connectionName?: string;
  tuning?: Partial<DurableTuning>;
}

const DURABLE_TRIGGERS = ['orchestrationtrigger', 'activitytrigger'] as const;
const CLIENT_BINDING_TYPES = ['durableclient', 'orchestrationclient'] as const;

/** The extension in one host: its settings, the durable functions, the runtime once built. */
interface DurableHost {
  context: DriverContext;
  taskHub: string;
  connectionName: string;
  tuning: Partial<DurableTuning>;
  functions: Map<string, HostFunction>;
  runtime: DurableRuntime | undefined;
  stopping: boolean;
  retryTimer: NodeJS.Timeout | undefined;
}

/** Creates the extension (pass it in the host's extension list). */
export function createDurableHostExtension(options: DurableHostOptions = {}): HostExtension {
  return (context: DriverContext) => {
    const settings = readDurableHostSettings(
      (context.settings as { durableTask?: DurableTaskJson }).durableTask,
      context.env,
    );
    const host: DurableHost = {
      context,
      taskHub: options.taskHub ?? settings.taskHub ?? defaultTaskHub(context.hostId),
      connectionName: options.connectionName ?? settings.connectionName,
      tuning: { ...settings.tuning, ...options.tuning },
      functions: new Map(),
      runtime: undefined,
      stopping: false,
      retryTimer: undefined,
    };
    return { drivers: [durableDriver(host)], inputProviders: clientProviders(host) };
  };
}

/** The runtime, created on first use, so an app without durable functions needs no task hub. */
function runtimeOf(host: DurableHost): DurableRuntime {
  const { context } = host;
  return (host.runtime ??= createDurableRuntime({
    storage: context.connections.clients(host.connectionName),
    taskHub: host.taskHub,
    hostBaseUrl: () => context.origin(),
    ...(context.hostKey === undefined ? {} : { hostKey: context.hostKey }),
    invoke: (name, triggerValue, kind) => invokeDurable(host, name, triggerValue, kind),
    log: (...args: unknown[]) => context.logger.error(args.map(describe).join(' ')),
    tuning: host.tuning,
  }));
}

/**
 * Runs a durable function through the host's runner, the trigger value as JSON.
 *
 * @throws {Error} when `name` is not a durable function of the app; whatever the function threw.
 */
async function invokeDurable(
  host: DurableHost,
  name: string,
  triggerValue: unknown,
  kind: DurableTriggerKind,
): Promise<unknown> {
  const fn = host.functions.get(name);
  if (!fn) throw new Error(`The function '${name}' is not a durable function of this app.`);
  const response = await host.context.runner.run(fn, {
    data: triggerValue === undefined ? {} : { json: JSON.stringify(triggerValue) },
    reason: kind === 'orchestrationTrigger' ? 'Orchestration episode' : 'Activity work item',
  });
  return decodeReturnValue(response.returnValue);
}

/** The trigger driver: registers durable functions, runs the task hub, serves its webhooks. */
function durableDriver(host: DurableHost): TriggerDriver {
  const { context } = host;
  return {
    triggerTypes: DURABLE_TRIGGERS,
    add(fn) {
      host.functions.set(fn.name, fn);
      if (fn.triggerType === 'orchestrationtrigger') runtimeOf(host).registerOrchestration(fn.name);
      else runtimeOf(host).registerActivity(fn.name);
    },
    describe: (fn) => `${fn.trigger.binding.type} (durable, task hub ${host.taskHub})`,
    async start() {
      if (!host.runtime) return;
      // As Core Tools does: durable-functions then builds management URLs for this host.
      process.env.WEBSITE_HOSTNAME ??= new URL(context.origin()).host;
      await startHub(host, 0);
    },
    async stop(graceMs) {
      host.stopping = true;
      if (host.retryTimer) clearTimeout(host.retryTimer);
      if (!host.runtime) return;
      await Promise.race([
        host.runtime.stop(),
        new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
      ]);
    },
    async serveHttp(request: HostHttpRequest) {
      if (!host.runtime) return false;
      if (request.pathname !== WEBHOOK_PATH && !request.pathname.startsWith(`${WEBHOOK_PATH}/`))
        return false;
      return host.runtime.handleHttp(request.request, request.response, request.body);
    },
  };
}

/**
 * Starts the task hub. Like the Functions host, storage being down at startup must not stop the
 * host (HTTP functions such as /api/health still answer): the hub is retried in the background.
 *
 * @throws {HostStartupError} when a real task hub is found at the first attempt.
 */
async function startHub(host: DurableHost, attempt: number): Promise<void> {
  const { context, runtime, taskHub } = host;
  if (host.stopping || !runtime) return;
  try {
    await runtime.start();
    context.logger.info(
      `Durable task hub ${taskHub} (connection ${host.connectionName}) is running.`,
    );
  } catch (error) {
    if (error instanceof TaskHubInUseError) {
      // Beside a real task hub nothing may run: no retry. At startup the host refuses to
      // start; found on a later attempt (storage was down at first), durable work stays off.
      if (attempt === 0) throw new HostStartupError([error.message]);
      context.logger.error(`${error.message} Durable functions will not run.`);
      return;
    }
    // Exponential back-off with full jitter: a random wait below 1 s, 2 s, 4 s … 30 s.
    const delayMs = Math.round(Math.random() * Math.min(30_000, 1_000 * 2 ** attempt));
    context.logger.warn(
      `Durable task hub ${taskHub} could not start (${(error as Error).message}); retrying in ${delayMs} ms.`,
    );
    host.retryTimer = setTimeout(() => void startHub(host, attempt + 1), delayMs);
    host.retryTimer.unref();
  }
}

/** The value of `durableClient` (and `orchestrationClient`) input bindings. */
function clientProviders(host: DurableHost): InputBindingProvider[] {
  return CLIENT_BINDING_TYPES.map((type) => ({
    type,
    prepare: () => {
      runtimeOf(host);
    },
    provide: async (_fn, input) => {
      const connection =
        typeof input.binding.connectionName === 'string' ? input.binding.connectionName : undefined;
      return { string: JSON.stringify(runtimeOf(host).clientInputFor(connection)) };
    },
  }));
}

/** The extension with settings from host.json / app settings. */
export const durableHostExtension: HostExtension = createDurableHostExtension();

/** A function's return value from the RPC response (strings stay strings). */
export function decodeReturnValue(data: RpcTypedData | null | undefined): unknown {
  if (!data) return undefined;
  if (typeof data.json === 'string') return JSON.parse(data.json) as unknown;
  if (typeof data.string === 'string') return data.string;
  if (typeof data.int === 'number') return data.int;
  if (typeof data.double === 'number') return data.double;
  if (data.bytes) return Buffer.from(data.bytes);
  return undefined;
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.stack ?? value.message;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
