/**
 * What every builder of the composition root builds on: the configuration, the home account's
 * clients, the account layer (src/accounts/accountLayer.ts) and the metrics. Each part is built
 * on its first use and kept; a part whose setting cannot be used throws (the adapter answers 503)
 * and is not kept, so a bad optional setting turns off only its own feature.
 */
import {
  homePlacement,
  openAccountLayer,
  type AccountLayer,
} from '../../../src/accounts/accountLayer';
import type { Placement } from '../../../src/accounts/placement';
import { settingOrDefault, type Config } from '../../../src/config';
import { createStorageClients, type StorageClients } from '../../../src/storage/clients';
import type { TableAccess } from '../../../src/storage/tables/tableAccess';
import { DirectoryMetrics } from '../../../src/telemetry/metrics';
import { ThrottleCounts } from '../../../src/storage/throttleCounts';

/** `build`, called on the first call that does not throw; its result is kept. */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** The parts of the foundation the adapters and activities use themselves. */
export interface FoundationServices {
  /** The configuration (read once per process by src/config/index.ts; never throws itself). */
  config(): Config;
  /** The clients of the home storage account (`AzureWebJobsStorage`). */
  clients(): StorageClients;
  /**
   * The accounts, placement and fences when data is spread over several accounts
   * (`DATA_ACCOUNTS`); `undefined` with one account.
   */
  accounts(): AccountLayer | undefined;
  /** Which account holds what (with one account: always home, without any storage read). */
  placement(): Placement;
  /** The app's metrics and the last-seen figures behind its gauges (one per process). */
  metrics(): DirectoryMetrics;
}

/** The foundation as the builders receive it. */
export interface Foundation extends FoundationServices {
  /** Builds the clients of a connection (each data account's, a keyed one for signing). */
  connect(connection: Config['storage']): StorageClients;
  /** A table's client as the services use it: routed by the account layer, if any. */
  table(name: (config: Config) => string): TableAccess;
  /** Storage tries answered `ServerBusy`, per account and partition (one per process). */
  throttles(): ThrottleCounts;
}

/** The foundation over a configuration; nothing is built until first asked for. */
export function createFoundation(readConfig: () => Config): Foundation {
  // A malformed retry tunable falls back to its default: it changes how long a call retries,
  // never what it does (health lists it).
  const metrics = lazy(() => new DirectoryMetrics());
  const throttles = new ThrottleCounts();
  const connect = (connection: Config['storage']): StorageClients =>
    createStorageClients(
      connection,
      settingOrDefault((c) => ({ ...c.retry }), readConfig()),
      undefined,
      (event) => {
        throttles.record(event);
        metrics().recordStorageThrottle(event);
      },
    );
  const clients = lazy(() => connect(readConfig().storage));
  const accounts = lazy(() => openAccountLayer(readConfig(), clients(), connect));
  return {
    config: readConfig,
    clients,
    accounts,
    placement: lazy(() => accounts()?.placement ?? homePlacement(clients())),
    metrics,
    throttles: () => throttles,
    connect,
    table: (name) => accounts()?.table(name(readConfig())) ?? clients().table(name(readConfig())),
  };
}

/**
 * A nudge that could not be sent: no request waits for it (the outbox row is the record), so it
 * goes to the host's log; the outbox sweep drains the department within its schedule.
 */
export function nudgeFailed(error: unknown, department: string): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(`Index outbox nudge for "${department}" not sent (the sweep drains it): ${reason}`);
}
