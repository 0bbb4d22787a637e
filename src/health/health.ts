/**
 * Reachability of the three storage services the app depends on.
 */
import type { StorageClients } from '../storage/clients';

export interface HealthReport {
  status: 'ok' | 'degraded';
  storage: 'ok' | 'unreachable';
  /** Which services answered. */
  services: { table: boolean; queue: boolean; blob: boolean };
}

/** The report when no storage client can be built (an unusable connection setting). */
export const STORAGE_UNREACHABLE: HealthReport = {
  status: 'degraded',
  storage: 'unreachable',
  services: { table: false, queue: false, blob: false },
};

async function answers(probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks each service one cheap question (list one table, queue, container) with no retries
 * beyond `timeoutMs`, so an outage is reported quickly instead of after the full retry budget.
 */
export async function checkHealth(
  clients: StorageClients,
  timeoutMs = 3_000,
): Promise<HealthReport> {
  const signal = AbortSignal.timeout(timeoutMs);
  const [table, queue, blob] = await Promise.all([
    answers(() =>
      clients.tableService().listTables({ abortSignal: signal }).byPage({ maxPageSize: 1 }).next(),
    ),
    answers(() =>
      clients.queueService().listQueues({ abortSignal: signal }).byPage({ maxPageSize: 1 }).next(),
    ),
    answers(() =>
      clients
        .blobService()
        .listContainers({ abortSignal: signal })
        .byPage({ maxPageSize: 1 })
        .next(),
    ),
  ]);
  const ok = table && queue && blob;
  return {
    status: ok ? 'ok' : 'degraded',
    storage: ok ? 'ok' : 'unreachable',
    services: { table, queue, blob },
  };
}

/** How long one instance reuses its last storage probe (API.md: one probe per few seconds). */
export const HEALTH_PROBE_INTERVAL_MS = 5_000;

/**
 * Storage reachability at a bounded cost: the last report is reused while it is younger than
 * `maxAgeMs`, and callers that arrive while a probe runs share it, so an instance sends at most
 * one probe (three list calls) per interval whatever the request rate. A failed probe is cached
 * as well: during an outage, health must not add load to storage that is already struggling.
 */
export class CachedHealthCheck {
  #last: { report: HealthReport; at: number } | undefined;
  #inFlight: Promise<HealthReport> | undefined;

  constructor(
    private readonly probe: () => Promise<HealthReport>,
    private readonly maxAgeMs = HEALTH_PROBE_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The current report; rejects only if the probe itself rejects (checkHealth never does). */
  report(): Promise<HealthReport> {
    const last = this.#last;
    if (last && this.now() - last.at < this.maxAgeMs) return Promise.resolve(last.report);
    this.#inFlight ??= this.probe()
      .then((report) => {
        this.#last = { report, at: this.now() };
        return report;
      })
      .finally(() => {
        this.#inFlight = undefined;
      });
    return this.#inFlight;
  }
}
