/**
 * The local durable runtime: what the local host embeds so that `df.app.orchestration` /
 * `df.app.activity` registrations run to completion without the Durable Functions extension.
 *
 * The host tells it which functions are orchestrators and activities, gives it an `invoke`
 * callback that runs a registered function through `@azure/functions`, passes
 * {@link DurableRuntime.clientInputFor} as the value of `durableClient` input bindings and routes
 * `/runtime/webhooks/durabletask/*` to {@link DurableRuntime.handleHttp}.
 */
import { odata } from '@azure/data-tables';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runWorkItem } from './activityWorker';
import { buildClientInput, type DurableClientInput } from './http/clientInput';
import { randomHexId, type InvokeFunction, type RuntimeContext } from './context';
import { handleControlMessage, type InstanceLocks } from './controlWorker';
import { handleDurableHttp } from './http/httpApi';
import { validateTaskHubName } from './store/keys';
import { QueuePoller } from './queuePoller';
import { DurableStore } from './store/store';
import type { TaskHubStorage } from './store/storageWire';
import {
  asControlMessage,
  asWorkItemMessage,
  type ControlMessage,
  type WorkItemMessage,
} from './store/records';

/** Knobs with defaults suited to local development. */
export interface DurableTuning {
  /** How long a received message stays hidden; renewed while its handler runs. */
  leaseSeconds: number;
  /** Activities run at the same time. */
  activityConcurrency: number;
  /** Control messages (orchestration episodes of different instances) handled at the same time. */
  orchestrationConcurrency: number;
  /** Poll interval right after a message; doubles while a queue stays empty... */
  minPollIntervalMs: number;
  /** ... up to this. */
  maxPollIntervalMs: number;
  /** A message whose handler failed this many times is dropped (logged). */
  maxDequeueCount: number;
  /** A message that is not the runtime's own stays in its queue, hidden this long (logged). */
  unreadableHideSeconds: number;
}

/**
 * The tuning the local runtime uses unless host.json or the caller says otherwise: the Durable
 * extension's own defaults (Azure Storage provider, Consumption plan: `maxQueuePollingInterval`
 * 30 s, `maxConcurrentOrchestratorFunctions` 5, `maxConcurrentActivityFunctions` 10,
 * `workItemQueueVisibilityTimeout` 5 min is replaced by a 30 s lease renewed while it runs), so
 * local figures are not more optimistic than Azure's. Tests override them.
 */
export const DEFAULT_TUNING: DurableTuning = {
  leaseSeconds: 30,
  activityConcurrency: 10,
  orchestrationConcurrency: 5,
  minPollIntervalMs: 50,
  maxPollIntervalMs: 30_000,
  maxDequeueCount: 10,
  unreadableHideSeconds: 600,
};

/**
 * The storage account holds a task hub of the real Durable extension under the same hub name: the
 * local runtime refuses to start beside it (docs/durable.md "Storage layout").
 */
export class TaskHubInUseError extends Error {
  constructor(
    readonly taskHub: string,
    readonly found: readonly string[],
  ) {
    super(
      `Task hub "${taskHub}" exists in this storage account as a Durable Functions extension task hub ` +
        `(found ${found.join(', ')}). The local durable runtime refuses to start beside it and has ` +
        `created and deleted nothing. Use another hub name for local runs ` +
        `(AzureFunctionsJobHost__extensions__durableTask__hubName) or another storage account. ` +
        `If this is Azurite and the names are leftovers of the local runtime before it had names of ` +
        `its own (${taskHub}Instances, ${taskHub}History, ${taskHub.toLowerCase()}-workitems), delete them.`,
    );
    this.name = 'TaskHubInUseError';
  }
}

/** How to start the local durable runtime. */
export interface DurableRuntimeOptions {
  /** Clients of the storage account that holds the task hub (the host's connection). */
  storage: TaskHubStorage;
  /** `extensions.durableTask.hubName` of host.json. */
  taskHub: string;
  /** The host's base URL, e.g. `http://127.0.0.1:7071` (a function: known only after listen). */
  hostBaseUrl: string | (() => string);
  /** The key the host's own endpoints require, if any (the client's URLs carry it as `code=`). */
  hostKey?: string;
  /** Runs a registered function and returns its return value (rejects with what it threw). */
  invoke: InvokeFunction;
  log?: (...args: unknown[]) => void;
  tuning?: Partial<DurableTuning>;
  /** The time source (tests). */
  clock?: () => Date;
}

/**
 * A started durable runtime: its task hub, the `durableClient` binding value, its HTTP API and
 * the functions it runs.
 */
export interface DurableRuntime {
  readonly taskHub: string;
  /**
   * The value of a `durableClient` input binding; with `baseUrl`, its URLs on that origin instead
   * of the host's (the HTTP API answers a caller with the origin it called).
   */
  clientInputFor(connectionName?: string, baseUrl?: string): DurableClientInput;
  /**
   * Serves `/runtime/webhooks/durabletask/...`; resolves false for any other path. Pass `body`
   * when the request stream has already been read.
   */
  handleHttp(req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<boolean>;
  /** Declares a function registered with an `orchestrationTrigger`. */
  registerOrchestration(name: string): void;
  /** Declares a function registered with an `activityTrigger`. */
  registerActivity(name: string): void;
  /**
   * Creates the hub's tables and queues, wakes unfinished orchestrations, starts polling.
   *
   * @throws {TaskHubInUseError} when the account holds a real Durable extension task hub of the
   *   same name (then nothing is created, deleted or polled).
   * @throws storage errors left after the SDK's retries.
   */
  start(): Promise<void>;
  /** Stops polling and waits for the work in flight. */
  stop(): Promise<void>;
}

/**
 * Creates a runtime (nothing runs until {@link DurableRuntime.start}).
 *
 * @throws {Error} for an invalid task hub name.
 */
export function createDurableRuntime(options: DurableRuntimeOptions): DurableRuntime {
  const taskHub = validateTaskHubName(options.taskHub);
  const tuning: DurableTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const log = options.log ?? ((...args: unknown[]) => console.error(...args));
  const store = new DurableStore(options.storage, taskHub);
  const orchestrations = new Set<string>();
  const activities = new Set<string>();
  const ctx: RuntimeContext = {
    store,
    invoke: options.invoke,
    orchestrations,
    activities,
    clock: options.clock ?? (() => new Date()),
    newId: randomHexId,
    log,
  };
  const hostBaseUrl = (): string =>
    typeof options.hostBaseUrl === 'function' ? options.hostBaseUrl() : options.hostBaseUrl;
  const clientInputFor = (connectionName?: string, baseUrl?: string): DurableClientInput =>
    buildClientInput(baseUrl ?? hostBaseUrl(), taskHub, connectionName, options.hostKey);
  const locks: InstanceLocks = new Map();

  const pollerDefaults = {
    store,
    leaseSeconds: tuning.leaseSeconds,
    minIntervalMs: tuning.minPollIntervalMs,
    maxIntervalMs: tuning.maxPollIntervalMs,
    maxDequeueCount: tuning.maxDequeueCount,
    unreadableHideSeconds: tuning.unreadableHideSeconds,
    log,
  };
  const controlPoller = new QueuePoller<ControlMessage>({
    ...pollerDefaults,
    name: 'control',
    queue: store.control,
    parse: asControlMessage,
    concurrency: tuning.orchestrationConcurrency,
    handle: (message) => handleControlMessage(ctx, locks, message),
  });
  const workItemPoller = new QueuePoller<WorkItemMessage>({
    ...pollerDefaults,
    name: 'workitems',
    queue: store.workItems,
    parse: asWorkItemMessage,
    concurrency: tuning.activityConcurrency,
    handle: (message) => runWorkItem(ctx, message),
  });
  store.onSent = (queue) => (queue === store.control ? controlPoller : workItemPoller).poke();

  let started = false;
  return {
    taskHub,
    clientInputFor,
    handleHttp: (req, res, body) =>
      handleDurableHttp({ ctx, taskHub, clientInput: clientInputFor }, req, res, body),
    registerOrchestration: (name) => {
      orchestrations.add(name);
    },
    registerActivity: (name) => {
      activities.add(name);
    },
    async start() {
      if (started) return;
      const found = await store.findAzureStorageHubResources();
      if (found.length > 0) throw new TaskHubInUseError(taskHub, found);
      await store.ensureCreated();
      await wakeUnfinished(store);
      controlPoller.start();
      workItemPoller.start();
      started = true;
    },
    async stop() {
      if (!started) return;
      started = false;
      await Promise.all([controlPoller.stop(), workItemPoller.stop()]);
    },
  };
}

/**
 * Sends a wake-up to every Pending or Running instance: recovers from a crash between writing an
 * inbox row and sending its wake-up, and from dropped messages.
 */
async function wakeUnfinished(store: DurableStore): Promise<void> {
  let token: string | undefined;
  do {
    const page = await store.listInstances(
      odata`RuntimeStatus eq ${'Pending'} or RuntimeStatus eq ${'Running'}`,
      1000,
      token,
    );
    await Promise.all(
      page.items.map((instance) =>
        store.sendControl({ kind: 'wake', instanceId: instance.instanceId }),
      ),
    );
    token = page.continuationToken;
  } while (token);
}
