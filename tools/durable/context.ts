/**
 * What the runtime's parts share: the store, the host's invoke callback, the registered function
 * names, a clock, an id source and a logger.
 */
import { randomUUID } from 'node:crypto';
import type { DurableStore } from './store/store';

/** Which trigger a durable function has. */
export type DurableTriggerKind = 'orchestrationTrigger' | 'activityTrigger';

/**
 * Invokes a registered function the way the host would (through `@azure/functions`'
 * InvocationModel) and resolves with its return value; rejects with what it threw.
 */
export type InvokeFunction = (
  functionName: string,
  triggerValue: unknown,
  kind: DurableTriggerKind,
) => Promise<unknown>;

/**
 * What every part of the local durable runtime shares: the store, the function invoker, the
 * registered orchestrations and activities, the clock and new ids.
 */
export interface RuntimeContext {
  store: DurableStore;
  invoke: InvokeFunction;
  orchestrations: ReadonlySet<string>;
  activities: ReadonlySet<string>;
  clock: () => Date;
  /** 32 lowercase hex digits, unique. */
  newId: () => string;
  log: (...args: unknown[]) => void;
}

/** A random id in the form Durable uses for instance and execution ids (GUID, no dashes). */
export function randomHexId(): string {
  return randomUUID().replace(/-/g, '');
}
