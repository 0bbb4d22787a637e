/**
 * The part of the Functions host's admin API the local host serves: host status, the function
 * list, and `POST /admin/functions/{name}` running a non-HTTP function once (202, as in Azure).
 */
import type { TriggerDriver } from '../drivers';
import type { HostFunction } from '../functions';
import type { AdminApi } from './server';

/** Where the host is in its lifetime (the admin API reports it). */
export type HostState = 'Running' | 'Stopping' | 'Stopped';

/** What the admin API reports on and acts through. */
export interface AdminApiOptions {
  functions: HostFunction[];
  driverOf: Map<HostFunction, TriggerDriver>;
  hostId: string;
  state: () => HostState;
}

/** The admin API of the local host (`/admin/host/status`, function invocation...). */
export function createAdminApi(options: AdminApiOptions): AdminApi {
  const { functions, driverOf, hostId, state } = options;
  const byName = (name: string): HostFunction | undefined =>
    functions.find((fn) => fn.name.toLowerCase() === name.toLowerCase());

  return {
    status: () => ({
      state: state(),
      id: hostId,
      version: '4.x-local',
      processUptime: Math.round(process.uptime() * 1000),
    }),

    functions: () =>
      functions.map((fn) => ({
        name: fn.name,
        trigger: fn.trigger.binding.type,
        description: driverOf.get(fn)?.describe(fn) ?? 'not run locally',
        bindings: fn.registration.metadata.bindings,
      })),

    invoke(name, input) {
      const fn = byName(name);
      if (!fn) return { status: 404, code: 'NotFound', message: `No function named '${name}'.` };
      if (fn.triggerType === 'httptrigger') {
        return {
          status: 400,
          code: 'HttpFunction',
          message: `'${fn.name}' is an HTTP function: call its route instead.`,
        };
      }
      const driver = driverOf.get(fn);
      if (!driver?.runOnce) {
        return {
          status: 400,
          code: 'NotRunnable',
          message: `'${fn.name}' (${fn.trigger.binding.type}) cannot be run by the local host.`,
        };
      }
      if (state() !== 'Running')
        return { status: 503, code: 'Stopping', message: 'The host is shutting down.' };
      // Runs in the background, as the host's 202 says; the invoker logs the outcome.
      void driver.runOnce(fn, input).catch(() => undefined);
      return undefined;
    },
  };
}
