/**
 * A backlog made on purpose, for the operations view's end-to-end tests: one host serves the API
 * without the index workers (no `indexUpdates` queue trigger, no outbox sweep), so every write's
 * outbox row stays pending; a second host over the same storage runs every function, with the
 * outbox sweep every two seconds, and drains it.
 */
import { startHost, type RunningHost } from '../../support/host';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

/** The settings both hosts share: their own tables and queues. */
export interface BacklogSettings {
  EMPLOYEES_TABLE: string;
  EMPLOYEE_INDEX_TABLE: string;
  OPERATIONS_TABLE: string;
  ARCHIVE_QUEUE: string;
  INDEX_QUEUE: string;
  LOG_QUEUE: string;
}

/** Fresh names for one test file. */
export function backlogSettings(): BacklogSettings {
  return {
    EMPLOYEES_TABLE: uniqueTableName('OpsEmp'),
    EMPLOYEE_INDEX_TABLE: uniqueTableName('OpsIdx'),
    OPERATIONS_TABLE: uniqueTableName('OpsStatus'),
    ARCHIVE_QUEUE: uniqueName('opsarc'),
    INDEX_QUEUE: uniqueName('opsidx'),
    LOG_QUEUE: uniqueName('opslog'),
  };
}

/**
 * The API (and the console) without any index worker, and writers that do not drain themselves
 * (`INDEX_DRAIN_LINGER_MS=0`: their nudges wait on the queue): outbox rows stay pending.
 */
export function startUndrainedHost(settings: BacklogSettings): Promise<RunningHost> {
  return startHost({
    env: { ...settings, INDEX_DRAIN_LINGER_MS: '0' },
    functionsGlob: 'functions/{console,departments,employees,health,me,openapi,operations}.ts',
  });
}

/** Every function, the outbox sweep every two seconds: drains what the other host left. */
export function startDrainingHost(settings: BacklogSettings): Promise<RunningHost> {
  return startHost({ env: { ...settings, INDEX_OUTBOX_SWEEP_SCHEDULE: '*/2 * * * * *' } });
}

/** Deletes what the hosts created. */
export async function removeBacklogStorage(settings: BacklogSettings): Promise<void> {
  const clients = testClients();
  await Promise.allSettled([
    clients.table(settings.EMPLOYEES_TABLE).deleteTable(),
    clients.table(settings.EMPLOYEE_INDEX_TABLE).deleteTable(),
    clients.table(settings.OPERATIONS_TABLE).deleteTable(),
    ...[settings.ARCHIVE_QUEUE, settings.INDEX_QUEUE, settings.LOG_QUEUE].flatMap((name) => [
      clients.queue(name).delete(),
      clients.queue(`${name}-poison`).delete(),
    ]),
  ]);
}
