/** The local Durable Functions runtime (see docs/durable.md). */
export { createDurableRuntime, DEFAULT_TUNING } from './runtime';
export type { DurableRuntime, DurableRuntimeOptions, DurableTuning } from './runtime';
export type { DurableTriggerKind, InvokeFunction } from './context';
export type { DurableClientInput } from './http/clientInput';
