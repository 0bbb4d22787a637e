/**
 * Running the app (docs/operations.md): each timer's last run, the admin view with the poison
 * queue tools, the poison queues' gauge, and the storage probe behind `GET /health`. With data
 * accounts the admin view names the account holding each department.
 */
import { CachedHealthCheck, checkHealth, STORAGE_UNREACHABLE } from '../../../src/health/health';
import { OperationsService } from '../../../src/operations/operations';
import { TimerRunLog } from '../../../src/operations/timerRuns';
import type { StorageClients } from '../../../src/storage/clients';
import { samplePoisonQueues } from '../../../src/telemetry/poisonQueueGauge';
import { lazy, type Foundation } from './foundation';

/** The operations part of the services. */
export interface OperationServices {
  /** Each timer's last run (the timers record it, the operations view reads it). */
  timerRuns(): TimerRunLog;
  /** The operations view and the poison queue tools (admin routes). */
  operations(): OperationsService;
  /** Samples the poison queues' lengths for the metrics (a few reads; timers call it). */
  samplePoisonQueues(): () => Promise<void>;
  /** The storage probe behind `GET /health`, its report reused for a few seconds. */
  health(): CachedHealthCheck;
}

/** Builds the operations part over the foundation. */
export function operationServices(base: Foundation): OperationServices {
  const { config, clients, table } = base;
  const timerRuns = lazy(() => new TimerRunLog(table((c) => c.tables.operations)));
  return {
    timerRuns,
    operations: lazy(() => {
      const spread = base.accounts();
      return new OperationsService({
        employees: table((c) => c.tables.employees),
        queues: clients(),
        queueNames: config().queues,
        timerRuns: timerRuns(),
        throttling: () => base.throttles().snapshot(),
        ...(spread && {
          accounts: {
            names: spread.accounts.names(),
            of: async (department: string) =>
              (await spread.placement.ofDepartment(department)).account,
          },
        }),
      });
    }),
    samplePoisonQueues: lazy(() => {
      const { queues } = config();
      return () =>
        samplePoisonQueues(
          (name) => clients().queue(name),
          [queues.indexUpdates, queues.archive, queues.logBatches],
          base.metrics(),
        );
    }),
    health: lazy(
      () =>
        new CachedHealthCheck(async () => {
          // Without a usable storage connection there is nothing to probe.
          let storage: StorageClients;
          try {
            storage = clients();
          } catch {
            return STORAGE_UNREACHABLE;
          }
          return checkHealth(storage);
        }),
    ),
  };
}
