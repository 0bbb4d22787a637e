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
import type { InvokeFunction } from './context';
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

/** Creates the extension (pass it in the host's extension list). */
export function createDurableHostExtension(options: DurableHostOptions = {}): HostExtension {
  return (context: DriverContext) => {
    const settings = readDurableHostSettings(
      (context.settings as { durableTask?: DurableTaskJson }).durableTask,
      context.env,
    );
    const taskHub = options.taskHub ?? settings.taskHub ?? defaultTaskHub(context.hostId);
    const connectionName = options.connectionName ?? settings.connectionName;

    const functions = new Map<string, HostFunction>();
    const invoke: InvokeFunction = async (name, triggerValue, kind) => {
      const fn = functions.get(name);
      if (!fn) throw new Error(`The function '${name}' is not a durable function of this app.`);
      const response = await context.runner.run(fn, {
        data: triggerValue === undefined ? {} : { json: JSON.stringify(triggerValue) },
        reason: kind === 'orchestrationTrigger' ? 'Orchestration episode' : 'Activity work item',
      });
      return decodeReturnValue(response.returnValue);
    };

    let runtime: DurableRuntime | undefined;
    let stopping = false;
    let retryTimer: NodeJS.Timeout | undefined;
    // Created on first use, so an app without durable functions needs no task hub storage.
    const getRuntime = (): DurableRuntime =>
      (runtime ??= createDurableRuntime({
        storage: context.connections.clients(connectionName),
        taskHub,
        hostBaseUrl: () => context.origin(),
        ...(context.hostKey === undefined ? {} : { hostKey: context.hostKey }),
        invoke,
        log: (...args: unknown[]) => context.logger.error(args.map(describe).join(' ')),
        tuning: { ...settings.tuning, ...options.tuning },
      }));

    const driver: TriggerDriver = {
      triggerTypes: DURABLE_TRIGGERS,
      add(fn) {
        functions.set(fn.name, fn);
        if (fn.triggerType === 'orchestrationtrigger') getRuntime().registerOrchestration(fn.name);
        else getRuntime().registerActivity(fn.name);
      },
      describe: (fn) => `${fn.trigger.binding.type} (durable, task hub ${taskHub})`,
      async start() {
        if (!runtime) return;
        // As Core Tools does: durable-functions then builds management URLs for this host.
        process.env.WEBSITE_HOSTNAME ??= new URL(context.origin()).host;
        // Like the Functions host, storage being down at startup must not stop the host (HTTP
        // functions such as /api/health still answer): keep retrying the hub in the background.
        const startHub = async (attempt: number): Promise<void> => {
          if (stopping || !runtime) return;
          try {
            await runtime.start();
            context.logger.info(
              `Durable task hub ${taskHub} (connection ${connectionName}) is running.`,
            );
          } catch (error) {
            if (error instanceof TaskHubInUseError) {
              // Beside a real task hub nothing may run: no retry. At startup the host refuses to
              // start; found on a later attempt (storage was down at first), durable work stays
              // off.
              if (attempt === 0) throw new HostStartupError([error.message]);
              context.logger.error(`${error.message} Durable functions will not run.`);
              return;
            }
            // Exponential back-off with full jitter: a random wait below 1 s, 2 s, 4 s … 30 s.
            const delayMs = Math.round(Math.random() * Math.min(30_000, 1_000 * 2 ** attempt));
            context.logger.warn(
              `Durable task hub ${taskHub} could not start (${(error as Error).message}); retrying in ${delayMs} ms.`,
            );
            retryTimer = setTimeout(() => void startHub(attempt + 1), delayMs);
            retryTimer.unref();
          }
        };
        await startHub(0);
      },
      async stop(graceMs) {
        stopping = true;
        if (retryTimer) clearTimeout(retryTimer);
        if (!runtime) return;
        await Promise.race([
          runtime.stop(),
          new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
        ]);
      },
      async serveHttp(request: HostHttpRequest) {
        if (!runtime) return false;
        if (request.pathname !== WEBHOOK_PATH && !request.pathname.startsWith(`${WEBHOOK_PATH}/`))
          return false;
        return runtime.handleHttp(request.request, request.response, request.body);
      },
    };

    const clientProviders: InputBindingProvider[] = CLIENT_BINDING_TYPES.map((type) => ({
      type,
      prepare: () => {
        getRuntime();
      },
      provide: async (_fn, input) => {
        const connection =
          typeof input.binding.connectionName === 'string'
            ? input.binding.connectionName
            : undefined;
        return { string: JSON.stringify(getRuntime().clientInputFor(connection)) };
      },
    }));

    return { drivers: [driver], inputProviders: clientProviders };
  };
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
