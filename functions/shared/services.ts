/**
 * The composition root: every service the function adapters and the orchestration activities
 * use, built here, once per process, from the configuration (src/config.ts) and the storage
 * clients. Nothing else in the app keeps a process-wide service; `src/` only defines them.
 *
 * Each part is built on its first use and then kept. Building reads the settings that part
 * needs, so a part whose setting cannot be used throws `SettingUnavailableError` (the adapter
 * answers 503), is not kept, and leaves every other part alone: a bad optional setting turns off
 * only its own feature (health lists it). Tests build services directly with the same factories
 * (`createDirectory`, `new ExpenseClaimLog(table)`, ...) over their own tables.
 */
import { getArchivedEmployee, type ArchiveDependencies } from '../../src/archive/archiveEmployee';
import { requestArchive } from '../../src/archive/archiveRequests';
import type { Employee, Versioned } from '../../src/directory';
import {
  queryLogPage,
  type LogPage,
  type LogPageOptions,
  type LogQuery,
} from '../../src/logs/query';
import { DirectoryMetrics } from '../../src/telemetry/metrics';
import { samplePoisonQueues } from '../../src/telemetry/poisonQueues';
import { AccessLog } from '../../src/access/accessLog';
import { getConfig, readPlatformAuth, settingOrDefault, type Config } from '../../src/config';
import { createContext, createDirectory, directoryOver, type Directory } from '../../src/directory';
import { ExpenseClaimLog } from '../../src/expenses/expenseClaims';
import { principalTrust, type PrincipalTrust } from '../../src/identity/trust';
import {
  configuredBackgroundChangeQueue,
  configuredChangeQueue,
  configuredIndexStores,
} from '../../src/indexing/configuredIndexing';
import type { IndexStores } from '../../src/indexing/indexStores';
import type { ChangeQueue } from '../../src/indexing/queueChangeSink';
import { SharedDrains } from '../../src/indexing/sharedDrains';
import { writerDrains } from '../../src/indexing/writerDrain';
import { LoginAttempts } from '../../src/logins/loginAttempts';
import { LoginDayTables } from '../../src/logins/loginDayTables';
import { LogFlusher } from '../../src/logs/flusher';
import { LogIngest } from '../../src/logs/ingest';
import { TagLedgers } from '../../src/logs/tagLedger';
import { OperationsService } from '../../src/operations/operations';
import { TimerRunLog } from '../../src/operations/timerRuns';
import type { OrchestrationServices } from '../../src/orchestrations/services';
import { removePhotosOfGoneEmployee, type PhotoDependencies } from '../../src/photos/photos';
import { SasService } from '../../src/sas/service';
import { createSasSigning } from '../../src/sas/signingKey';
import { MessageStats } from '../../src/stats/messageStats';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';

/** The login feature: the day tables and the attempts written into them. */
export interface LoginServices {
  tables: LoginDayTables;
  attempts: LoginAttempts;
}

/** Everything the adapters and activities use; each getter builds its part on first use. */
export interface Services {
  /** The configuration (read once per process by src/config.ts; never throws itself). */
  config(): Config;
  /** Whether the principal header is believed (Azure: only with App Service authentication). */
  principalTrust(): PrincipalTrust;
  /** The clients of the configured storage account. */
  clients(): StorageClients;
  /** The directory of the HTTP adapters (see {@link createServices} for the second one). */
  directory(): Directory;
  /** The `index-updates` queue every directory of this process publishes its changes to. */
  changeQueue(): ChangeQueue;
  /** The index tables and the configured org-wide last-name store. */
  indexStores(): IndexStores;
  /**
   * The process's drains of the index outboxes (queue worker, sweep, and the writer's drains
   * defer to them), which remove the photos of employees they find gone.
   */
  indexDrains(): SharedDrains;
  /** What the orchestrations' activities use. */
  orchestrations(): OrchestrationServices;
  /** What the archive worker needs. */
  archive(): ArchiveDependencies;
  /** What the photo feature needs (service SAS with the account key, user delegation otherwise). */
  photos(): PhotoDependencies;
  /** SAS issuance (valet key). */
  sas(): SasService;
  accessLog(): AccessLog;
  expenseClaims(): ExpenseClaimLog;
  messageStats(): MessageStats;
  logins(): LoginServices;
  /** Where `POST /logs` puts batches: one per process, so concurrent POSTs share messages. */
  logIngest(): LogIngest;
  /** The `log-batches` flusher: one per process, with the tag ledgers its flushes share. */
  logFlusher(): LogFlusher;
  /** Each timer's last run (the timers record it, the operations view reads it). */
  timerRuns(): TimerRunLog;
  /** The operations view and the poison queue tools (admin routes). */
  operations(): OperationsService;
  /** Archive requests (`POST .../archive`) and archived records (`GET /archive/...`). */
  archiveRequests(): ArchiveRequests;
  /** Pages of a log window (`GET /logs`). */
  logQuery(): (query: LogQuery, options: LogPageOptions) => Promise<LogPage>;
  /** Samples the poison queues' lengths for the metrics (a few reads; timers call it). */
  samplePoisonQueues(): () => Promise<void>;
  /** The app's metrics and the last-seen figures behind its gauges (one per process). */
  metrics(): DirectoryMetrics;
}

/** The archive capability as the HTTP adapters use it. */
export interface ArchiveRequests {
  /**
   * Queues the archive of one employee incarnation.
   *
   * @throws {NotFoundError} when the employee does not exist.
   */
  request(department: string, employeeId: string): Promise<void>;
  /**
   * The newest archived record of the employee.
   *
   * @throws {NotFoundError} when it is not (yet) archived.
   */
  archived(department: string, employeeId: string): Promise<Versioned<Employee>>;
}

/** `build`, called on the first call that does not throw; its result is kept. */
/**
 * A nudge that could not be sent: no request waits for it (the outbox row is the record), so it
 * goes to the host's log; the outbox sweep drains the department within its schedule.
 */
function nudgeFailed(error: unknown, department: string): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(`Index outbox nudge for "${department}" not sent (the sweep drains it): ${reason}`);
}

function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * Builds the services over a configuration (default: the process's, src/config.ts). Nothing is
 * built until first asked for.
 */
export function createServices(readConfig: () => Config = getConfig): Services {
  const config = readConfig;
  // A malformed retry tunable falls back to its default: it changes how long a call retries,
  // never what it does (health lists it).
  const connect = (connection: Config['storage']): StorageClients =>
    createStorageClients(
      connection,
      settingOrDefault((c) => ({ ...c.retry }), config()),
    );
  const clients = lazy(() => connect(config().storage));
  // One signing for SAS issuance and the photo feature: one key, one blob signer per process.
  const sasSigning = lazy(() =>
    createSasSigning({ clients: clients(), config: config(), connect }),
  );
  const table = (name: (c: Config) => string) => clients().table(name(config()));
  const metrics = lazy(() => new DirectoryMetrics());
  const indexStores = lazy((): IndexStores => ({
    ...configuredIndexStores(config(), clients()),
    metrics: metrics(),
  }));
  // One set of drains per process: the queue worker's nudges, the sweep and the writer's drains
  // share a department's running drain. Gone employees lose their photos (src/photos).
  const indexDrains = lazy(
    () =>
      new SharedDrains(indexStores(), {
        onGone: async (department, employeeId) => {
          await removePhotosOfGoneEmployee(photos(), department, employeeId);
        },
      }),
  );
  // One sink per process: it packs the nudges of concurrent writes into shared messages. The
  // writing process drains its departments' outboxes itself after the nudge's linger; the queue
  // nudge is the fallback (src/indexing/writerDrain.ts).
  const changeQueue = lazy(() =>
    configuredChangeQueue(config(), clients(), nudgeFailed, writerDrains(indexDrains())),
  );

  // The directory is built twice over the same `Employees` table, on purpose: the HTTP adapters'
  // one caches department list pages (`DEPARTMENT_CACHE_TTL_MS`); the orchestrations' one does
  // not: activities page departments from storage, never from a cache. Both record each change
  // in the write's own transaction (the index outbox) and nudge through the same sink.
  const directory = lazy((): Directory =>
    createDirectory({
      employees: table((c) => c.tables.employees),
      departmentCacheTtlMs: config().directory.departmentCacheTtlMs,
      changes: changeQueue(),
    }),
  );
  const orchestrations = lazy((): OrchestrationServices => {
    const employees = table((c) => c.tables.employees);
    const changes = changeQueue();
    // One context (one version cache) for the activities' own reads and their employee service.
    const directory = createContext({ employees, changes });
    return {
      directory,
      employees: directoryOver(directory).employees,
      archive: table((c) => c.tables.archive),
      photos: clients().container(config().containers.photos),
      indexStores: indexStores(),
      changes,
    };
  });

  const photos = lazy((): PhotoDependencies => {
    const current = config();
    return {
      employees: table((c) => c.tables.employees),
      archive: table((c) => c.tables.archive),
      photos: clients().container(current.containers.photos),
      directory: directory().employees,
      signer: sasSigning().blobSigner(),
      allowHttp: clients().isLoopback,
      readSasSeconds: current.sas.defaultMinutes * 60,
      sweepGraceMs: current.photos.sweepGraceMinutes * 60_000,
    };
  });

  const timerRuns = lazy(() => new TimerRunLog(table((c) => c.tables.operations)));

  return {
    config,
    principalTrust: lazy(() => principalTrust(readPlatformAuth())),
    clients,
    directory,
    changeQueue,
    indexStores,
    indexDrains,
    orchestrations,
    archive: lazy((): ArchiveDependencies => {
      // Its own directory and sink, whose outbox nudges wait a second: one nudge per department
      // and second however many employees the worker archives (configuredBackgroundChangeQueue).
      const changes = configuredBackgroundChangeQueue(config(), clients(), nudgeFailed);
      const employees = table((c) => c.tables.employees);
      return {
        employees,
        archive: table((c) => c.tables.archive),
        directory: createDirectory({
          employees,
          departmentCacheTtlMs: config().directory.departmentCacheTtlMs,
          changes,
        }).employees,
        changes,
      };
    }),
    photos,
    sas: lazy(
      () => new SasService({ clients: clients(), config: config(), signing: sasSigning() }),
    ),
    accessLog: lazy(() => new AccessLog(table((c) => c.tables.accessLog))),
    expenseClaims: lazy(() => new ExpenseClaimLog(table((c) => c.tables.expenses))),
    messageStats: lazy(() => new MessageStats(table((c) => c.tables.messageStats))),
    logins: lazy(() => {
      const current = config();
      const tables = new LoginDayTables(clients(), current.tables.loginAttemptsPrefix);
      return { tables, attempts: new LoginAttempts(tables, current.logins.retentionDays) };
    }),
    logIngest: lazy(
      () =>
        new LogIngest({
          queue: clients().queue(config().queues.logBatches),
          container: clients().container(config().containers.logs),
        }),
    ),
    logFlusher: lazy(() => {
      const { logs } = config();
      return new LogFlusher({
        container: clients().container(config().containers.logs),
        queue: clients().queue(config().queues.logBatches),
        limits: logs,
        maxMessages: logs.flushMaxMessages,
        maxFlushes: logs.flushMaxRounds,
        ledgers: new TagLedgers(),
      });
    }),
    timerRuns,
    archiveRequests: lazy((): ArchiveRequests => ({
      request: (department, employeeId) =>
        requestArchive(
          table((c) => c.tables.employees),
          clients().queue(config().queues.archive),
          department,
          employeeId,
        ),
      archived: (department, employeeId) =>
        getArchivedEmployee(
          table((c) => c.tables.archive),
          department,
          employeeId,
        ),
    })),
    logQuery: lazy(() => {
      const container = clients().container(config().containers.logs);
      return (query: LogQuery, options: LogPageOptions) => queryLogPage(container, query, options);
    }),
    samplePoisonQueues: lazy(() => {
      const { queues } = config();
      return () =>
        samplePoisonQueues(
          (name) => clients().queue(name),
          [queues.indexUpdates, queues.archive, queues.logBatches],
          metrics(),
        );
    }),
    metrics,
    operations: lazy(
      () =>
        new OperationsService({
          employees: table((c) => c.tables.employees),
          queues: clients(),
          queueNames: config().queues,
          timerRuns: timerRuns(),
        }),
    ),
  };
}

let processServices: Services | undefined;

/** The process's services (built part by part on first use). */
export function services(): Services {
  processServices ??= createServices();
  return processServices;
}

/** Forgets every built service (tests and benches that change the configuration). */
export function resetServices(): void {
  processServices = undefined;
}
