/**
 * The local Durable Functions runtime (docs/durable.md): what the local host (tools/host) embeds so
 * that `df.app.orchestration` / `df.app.activity` registrations run as the Durable Functions
 * extension runs them in Azure, with the history in the same storage account. This folder holds
 * the runtime and its host extension (`runtime.ts`, `hostExtension.ts`, `hostSettings.ts`), the
 * episode that runs an orchestration forward (`episode.ts`, `dispatch.ts`, `instances.ts`), and
 * the workers of the control and work-item queues (`controlWorker.ts`, `activityWorker.ts`,
 * `queuePoller.ts`). Beside it: `replay/` the pure replay engine, `store/` the task hub's storage,
 * `http/` the durable HTTP API and the client binding's value. The host imports this entry.
 */
export { createDurableRuntime, DEFAULT_TUNING, TaskHubInUseError } from './runtime';
export type { DurableRuntime, DurableRuntimeOptions, DurableTuning } from './runtime';
export type { DurableTriggerKind, InvokeFunction } from './context';
export type { DurableClientInput } from './http/clientInput';
