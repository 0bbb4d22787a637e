/**
 * The trigger-kind registry: each driver runs the functions of the trigger types it claims. The
 * host ships HTTP, storage queue and timer drivers; durable triggers are accepted and listed, and
 * a durable driver can claim them later by being passed to the host like any other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostFunction } from './functions';

/**
 * Runs the functions of one trigger type (HTTP, queue, timer): starts and stops their listeners.
 */
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
  /**
   * Serves host-level HTTP paths outside the function route prefix (a durable driver serves
   * `/runtime/webhooks/durabletask/...` this way).
   *
   * @returns true when it answered the request.
   */
  serveHttp?(request: HostHttpRequest): Promise<boolean>;
}

/** A request offered to a driver's `serveHttp`. */
export interface HostHttpRequest {
  request: IncomingMessage;
  response: ServerResponse;
  /** Path without the query string, as sent (not decoded). */
  pathname: string;
  body: Buffer;
  /** `http://host:port` as the client addressed the host. */
  origin: string;
}

/** Durable Functions trigger types, registered through `df.app.*`. */
export const DURABLE_TRIGGER_TYPES = [
  'orchestrationtrigger',
  'activitytrigger',
  'entitytrigger',
] as const;

/**
 * Accepts functions of trigger types no driver runs yet (the durable ones), so the app loads
 * and they are listed; they never run until a real driver for the type is supplied.
 */
export function createAcceptingDriver(
  triggerTypes: readonly string[],
  note: string,
): TriggerDriver {
  return {
    triggerTypes,
    add: () => undefined,
    describe: (fn) => `${fn.trigger.binding.type} (${note})`,
    start: async () => undefined,
    stop: async () => undefined,
  };
}

/** Which driver runs each function, and what the host refuses or warns about. */
export interface DriverAssignment {
  driverOf: Map<HostFunction, TriggerDriver>;
  /** Functions that cannot run as registered (the host refuses to start). */
  problems: string[];
  /** Functions or bindings the local host will not run. */
  warnings: string[];
}

/**
 * Hands each function to the first driver claiming its trigger type (extensions come first),
 * collecting what the drivers refuse. `prepareBindings` checks the extra bindings and returns
 * warnings.
 */
export function assignDrivers(
  functions: HostFunction[],
  drivers: TriggerDriver[],
  prepareBindings: (fn: HostFunction) => string[],
): DriverAssignment {
  const result: DriverAssignment = { driverOf: new Map(), problems: [], warnings: [] };
  for (const fn of functions) {
    const driver = drivers.find((d) => d.triggerTypes.includes(fn.triggerType));
    if (!driver) {
      result.warnings.push(
        `Function '${fn.name}': no local driver for trigger type '${fn.trigger.binding.type}'; it will not run.`,
      );
      continue;
    }
    if (fn.registration.metadata.retryOptions) {
      result.warnings.push(
        `Function '${fn.name}': its retry policy is not applied by the local host; failures follow the trigger's own rules.`,
      );
    }
    try {
      driver.add(fn);
      result.warnings.push(...prepareBindings(fn));
      result.driverOf.set(fn, driver);
    } catch (error) {
      result.problems.push((error as Error).message);
    }
  }
  return result;
}
