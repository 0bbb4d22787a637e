/**
 * The trigger-kind registry: each driver runs the functions of the trigger types it claims. The
 * host ships HTTP, storage queue and timer drivers; durable triggers are accepted and listed, and
 * a durable driver can claim them later by being passed to the host like any other.
 */
import type { HostFunction } from './functions';

export interface TriggerDriver {
  /** Trigger binding types it runs, lower-cased (`queuetrigger`). */
  readonly triggerTypes: readonly string[];
  /**
   * Takes a function at startup.
   *
   * @throws {Error} naming the problem when the function cannot run (bad schedule, queue name...).
   */
  add(fn: HostFunction): void;
  /** One line for the startup listing. */
  describe(fn: HostFunction): string;
  /** Starts listening (after the HTTP server is up). */
  start(): Promise<void>;
  /** Stops starting new work, then waits up to `graceMs` for running invocations. */
  stop(graceMs: number): Promise<void>;
  /** Runs a function once for `POST /admin/functions/{name}`; `input` is the request's `input`. */
  runOnce?(fn: HostFunction, input: string): Promise<void>;
}

/** Durable Functions trigger types, registered through `df.app.*`. */
export const DURABLE_TRIGGER_TYPES = ['orchestrationtrigger', 'activitytrigger', 'entitytrigger'] as const;

/**
 * Accepts functions of trigger types no driver runs yet (the durable ones), so the app loads
 * and they are listed; they never run until a real driver for the type is supplied.
 */
export function createAcceptingDriver(triggerTypes: readonly string[], note: string): TriggerDriver {
  return {
    triggerTypes,
    add: () => undefined,
    describe: (fn) => `${fn.trigger.binding.type} (${note})`,
    start: async () => undefined,
    stop: async () => undefined,
  };
}
