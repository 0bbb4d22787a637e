/**
 * What a host extension is: the contract between the local host and the extensions it loads (the
 * durable runtime). It lives apart from host.ts so an extension depends on this contract, not on
 * the host that loads it.
 */
import type { InputBindingProvider } from './bindings/bindings';
import type { HostSettings } from './config/hostJson';
import type { TriggerDriver } from './drivers';
import type { Logger } from './log';
import type { FunctionRunner } from './runner';
import type { ConnectionResolver } from './storage';

/**
 * Adds trigger drivers (claiming their trigger types before the built-in drivers) and input
 * binding providers. A durable extension claims `orchestrationTrigger`/`activityTrigger`,
 * provides `durableClient` inputs, and serves `/runtime/webhooks/durabletask/...` through
 * `TriggerDriver.serveHttp`.
 */
export type HostExtension = (context: DriverContext) => {
  drivers?: TriggerDriver[];
  inputProviders?: InputBindingProvider[];
};

/** What an extra driver gets to work with. */
export interface DriverContext {
  env: Record<string, string | undefined>;
  settings: HostSettings;
  connections: ConnectionResolver;
  runner: FunctionRunner;
  logger: Logger;
  hostId: string;
  /** `http://127.0.0.1:<port>` once the server listens (for management URLs). */
  origin(): string;
  /**
   * The key the host's own endpoints require, when they require one (./http/hostKey.ts): the
   * Durable client's URLs carry it (`code=`), as Azure's carry the system key.
   */
  hostKey?: string;
}
