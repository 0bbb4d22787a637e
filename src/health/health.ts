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
