/**
 * The composition root: every service the function adapters and the orchestration activities
 * use, built here, once per process, from the configuration (src/config/index.ts) and the storage
 * clients. Nothing else in the app keeps a process-wide service; `src/` only defines them.
 *
 * Each part is built on its first use and then kept. Building reads the settings that part
 * needs, so a part whose setting cannot be used throws `SettingUnavailableError` (the adapter
 * answers 503), is not kept, and leaves every other part alone: a bad optional setting turns off
 * only its own feature (health lists it). Tests build services directly with the same factories
 * (`createDirectory`, `new ExpenseClaimLog(table)`, ...) over their own tables.
 */
import type { InvocationContext } from '@azure/functions';
import { getArchivedEmployee, type ArchiveDependencies } from '../../src/archive/archiveEmployee';
import { requestArchive } from '../../src/archive/archiveRequests';
import type { Employee, EmployeeCheck, Versioned } from '../../src/directory';
import {
  LogFlusher,
  LogIngest,
  type LogPage,
  type LogPageOptions,
  type LogQuery,
  queryLogPage,
  TagLedgers,
} from '../../src/logs';
import { DirectoryMetrics } from '../../src/telemetry/metrics';
import { samplePoisonQueues } from '../../src/telemetry/poisonQueueGauge';
import { AccessLog } from '../../src/access/accessLog';
import { getConfig, readPlatformAuth, settingOrDefault, type Config } from '../../src/config';
import { createContext, createDirectory, directoryOver, type Directory } from '../../src/directory';
import { ExpenseClaimLog } from '../../src/expenses/expenseClaims';
import { principalTrust, type PrincipalTrust } from '../../src/identity/trust';
import {
  type ChangeQueue,
  configuredBackgroundChangeQueue,
  configuredChangeQueue,
  configuredIndexStores,
  type IndexStores,
  type LastNameStore,
  lastNameStoreFor,
  markPending,
  SharedDrains,
  writerDrains,
} from '../../src/indexing';
import { LoginAttempts } from '../../src/logins/loginAttempts';
import { LoginDayTables } from '../../src/logins/loginDayTables';
import { OperationsService } from '../../src/operations/operations';
import { TimerRunLog } from '../../src/operations/timerRuns';
import type { OrchestrationServices } from '../../src/orchestrations/services';
import { removePhotosOfGoneEmployee, type PhotoDependencies } from '../../src/photos/photos';
import { SasService } from '../../src/sas/service';
import { createSasSigning } from '../../src/sas/signingKey';
import { lazySigner } from '../../src/storage/blobSas';
import { DEFAULT_MAX_INCREMENT_ATTEMPTS, MessageStats } from '../../src/stats/messageStats';
import { systemClock } from '../../src/time/clock';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';
import { CachedHealthCheck, checkHealth, STORAGE_UNREACHABLE } from '../../src/health/health';
import { forDepartment, heldBy, PerAccount } from '../../src/accounts/routing/perAccount';
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { AccountFence } from '../../src/accounts/partitionFence';
import { PlacementStore } from '../../src/accounts/placementStore';
import { routedTable } from '../../src/accounts/routing/routedTable';
import { spreadLastNameStore } from '../../src/accounts/routing/spreadLastNames';
import { readEntity } from '../../src/storage/tables/entities';
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
} from '../../src/storage/keys/tables/employees';
import { logHourPrefix } from '../../src/storage/keys/blobs/logBlobs';
import { spreadSas, type SasIssuer } from '../../src/accounts/routing/spreadSas';
import { routedPhotoContainer } from '../../src/accounts/routing/routedPhotos';
import { AccountSet, HOME_ACCOUNT, type StorageAccount } from '../../src/accounts/accounts';
import { Placement } from '../../src/accounts/placement';
import type { RelocationDeps } from '../../src/accounts/relocation/relocationSteps';

// The account part (docs/accounts.md): with one account none of it is built and the services
// run on the home account's clients directly.

/** The account part of the composition root (built once, see {@link createAccountServices}). */
export interface AccountServices {
  accounts: AccountSet;
  placement: Placement;
  /** Each account's fence (its fenced table clients). */
  fences: PerAccount<AccountFence>;
  /**
   * The client of a table as the services use it: routed to the account holding each partition
   * for a table of department-keyed data, the home account's for any other.
   */
  table(tableName: string): TableClient;
  /**
   * {@link table}, but a department's partitions only in the account `pinnedTo` names for it (one
   * request's account handle): a department held elsewhere answers 503 `Relocating`.
   */
  pinnedTable(tableName: string, pinnedTo: (department: string) => string | undefined): TableClient;
  /** The org-wide last-name index over every account. */
  lastNames(): LastNameStore;
  /** The logs container an hour's blobs go to. */
  logHourContainer(source: string, hourStart: Date): ContainerClient;
  /** Every account's logs container, in the accounts' order (queries merge them). */
  logContainers(): ContainerClient[];
}

/**
 * Whether the configuration spreads data over more than the home account.
 *
 * @throws {SettingUnavailableError} while `DATA_ACCOUNTS` (or a setting it names) is unusable.
 */
export function spreadsData(config: Config): boolean {
  return config.accounts.data.length > 0;
}

/** Builds the account part from the configuration and the home account's clients. */
export function createAccountServices(
  config: Config,
  home: StorageClients,
  connect: (connection: Config['storage']) => StorageClients,
): AccountServices {
  const { weights } = config.accounts;
  const accounts = new AccountSet(
    { name: HOME_ACCOUNT, weight: weights[HOME_ACCOUNT] ?? 0, clients: home },
    config.accounts.data.map((data): StorageAccount => ({
      name: data.name,
      weight: weights[data.name] ?? 0,
      clients: connect(data.connection),
    })),
  );
  const homeEmployees = home.table(config.tables.employees);
  const placement = new Placement({
    accounts,
    store: new PlacementStore(home.table(config.tables.placements)),
    // A department written before data accounts were configured lives in home: record it there.
    livesInHome: async (department) =>
      (await readEntity(homeEmployees, departmentPartitionKey(department), DEPARTMENT_ROW_KEY, [
        'RowKey',
      ])) !== undefined,
    cacheMs: config.accounts.placementCacheMs,
  });
  const fences = new PerAccount(
    accounts,
    (account) =>
      new AccountFence({
        account: account.name,
        placement,
        tables: config.tables,
        raw: (tableName) => account.clients.table(tableName),
      }),
  );
  const { tables } = config;
  const routed = new Set([
    tables.employees,
    tables.archive,
    tables.employeeIndex,
    tables.expenses,
    tables.messageStats,
    tables.accessLog,
  ]);
  const tableClients = new Map<string, TableClient>();
  let lastNames: LastNameStore | undefined;
  return {
    accounts,
    placement,
    fences,
    table(tableName) {
      if (!routed.has(tableName)) return home.table(tableName);
      let client = tableClients.get(tableName);
      if (!client) {
        client = routedTable({
          tableName,
          tables,
          placement,
          clientOf: (account) => fences.of(account).table(tableName),
        });
        tableClients.set(tableName, client);
      }
      return client;
    },
    pinnedTable(tableName, pinnedTo) {
      if (!routed.has(tableName)) return home.table(tableName);
      const clientOf = (account: StorageAccount) => fences.of(account).table(tableName);
      return routedTable({ tableName, tables, placement, clientOf, pinnedTo });
    },
    lastNames() {
      lastNames ??= spreadLastNameStore(
        accounts.all.map((account) => ({
          account: account.name,
          store: lastNameStoreFor(
            config.directory.lastNameIndexMode,
            account.clients.table(tables.employeeIndex),
            account.clients.container(config.containers.lastNameIndex),
            { maxShardChars: config.directory.lastNameShardChars },
          ),
        })),
        (name) => placement.forKey('lastName', name).name,
      );
      return lastNames;
    },
    logHourContainer: (source, hourStart) =>
      placement
        .forKey('logHour', logHourPrefix(source, hourStart))
        .clients.container(config.containers.logs),
    logContainers: () =>
      accounts.all.map((account) => account.clients.container(config.containers.logs)),
  };
}

/** The login feature: the day tables and the attempts written into them. */
export interface LoginServices {
  /** The home account's day tables. */
  tables: LoginDayTables;
  /** Every account's day tables (the retention timer drops expired ones in each). */
  allTables: LoginDayTables[];
  attempts: LoginAttempts;
}

/** Everything the adapters and activities use; each getter builds its part on first use. */
export interface Services {
  /** The configuration (read once per process by src/config/index.ts; never throws itself). */
  config(): Config;
  /** Whether the principal header is believed (Azure: only with App Service authentication). */
  principalTrust(): PrincipalTrust;
  /** The clients of the home storage account (`AzureWebJobsStorage`). */
  clients(): StorageClients;
  /**
   * The accounts, placement and fences when data is spread over several accounts
   * (`DATA_ACCOUNTS`); `undefined` with one account.
   */
  accounts(): AccountServices | undefined;
  /** Which account holds what (with one account: always home, without any storage read). */
  placement(): Placement;
  /** What the relocation's activities need. */
  relocation(): RelocationDeps;
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
  /** What the photo feature needs in the home account (see {@link Services.photosFor}). */
  photos(): PhotoDependencies;
  /**
   * What the photo feature needs for one department: the photos container of the account that
   * holds it, and that account's signer (service SAS with its key, user delegation otherwise).
   */
  photosFor(department: string): Promise<PhotoDependencies>;
  /** The photo feature of every account (the sweep of unadopted uploads runs in each). */
  allPhotos(): PhotoDependencies[];
  /** SAS issuance (valet key), by the account that holds what each token grants. */
  sas(): SasIssuer;
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
  /** The storage probe behind `GET /health`, its report reused for a few seconds. */
  health(): CachedHealthCheck;
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

/**
 * A nudge that could not be sent: no request waits for it (the outbox row is the record), so it
 * goes to the host's log; the outbox sweep drains the department within its schedule.
 */
function nudgeFailed(error: unknown, department: string): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(`Index outbox nudge for "${department}" not sent (the sweep drains it): ${reason}`);
}

/** `build`, called on the first call that does not throw; its result is kept. */
function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * Builds the services over a configuration (default: the process's, src/config/index.ts).
 * Nothing is built until first asked for.
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
  // Data spread over several accounts (docs/accounts.md): placement, fences, routed tables.
  const accounts = lazy(() =>
    spreadsData(config()) ? createAccountServices(config(), clients(), connect) : undefined,
  );
  // One signing for SAS issuance and the photo feature: one key, one blob signer per process.
  const sasSigning = lazy(() =>
    createSasSigning({ clients: clients(), config: config(), connect }),
  );
  const table = (name: (c: Config) => string) =>
    accounts()?.table(name(config())) ?? clients().table(name(config()));
  const metrics = lazy(() => new DirectoryMetrics());
  const indexStores = lazy((): IndexStores => {
    const stores = { ...configuredIndexStores(config(), clients()), metrics: metrics() };
    const spread = accounts();
    if (!spread) return stores;
    const { tables } = config();
    return {
      ...stores,
      employees: spread.table(tables.employees),
      index: spread.table(tables.employeeIndex),
      lastNames: spread.lastNames(),
      holderOf: async (department, fresh) => {
        const placed = await spread.placement.ofDepartment(department, { fresh });
        return `${placed.account}@${placed.version}`;
      },
    };
  });
  // One set of drains per process: the queue worker's nudges, the sweep and the writer's drains
  // share a department's running drain. Gone employees lose their photos (src/photos).
  const indexDrains = lazy(
    () =>
      new SharedDrains(indexStores(), {
        onGone: async (department, employeeId) => {
          await removePhotosOfGoneEmployee(await photosFor(department), department, employeeId);
        },
      }),
  );
  // One sink per process: it packs the nudges of concurrent writes into shared messages. The
  // writing process drains its departments' outboxes itself after the nudge's linger; the queue
  // nudge is the fallback (src/indexing/drain/writerDrain.ts).
  const changeQueue = lazy(() =>
    configuredChangeQueue(config(), clients(), nudgeFailed, writerDrains(indexDrains()), (dept) =>
      markPending(indexStores().employees, dept, 'cover-failed'),
    ),
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
    const spread = accounts();
    return {
      directory,
      employees: directoryOver(directory).employees,
      archive: table((c) => c.tables.archive),
      photos: clients().container(config().containers.photos),
      ...(spread && {
        // A move's step: each department's rows and photos in the one account resolved for it
        // now (a switch meanwhile answers Relocating there, and the step is called again).
        pinnedFor: async (departments: readonly string[]) => {
          const held = await heldBy(spread.placement, departments);
          const pinned = spread.pinnedTable(config().tables.employees, (d) => held.get(d)?.name);
          return {
            directory: createContext({ employees: pinned, changes }),
            photos: routedPhotoContainer(
              new Map(
                [...held].map(([d, account]) => [d, account.clients.container(photosName())]),
              ),
              clients().container(photosName()),
            ),
          };
        },
      }),
      indexStores: indexStores(),
      changes,
    };
  });

  // One signing per account: its key, or user delegation (docs/accounts.md "SAS").
  const signings = lazy(
    () =>
      new PerAccount(accounts()!.accounts, (account) =>
        account.name === accounts()!.accounts.home.name
          ? sasSigning()
          : createSasSigning({
              clients: account.clients,
              config: {
                sas: {
                  // Read when a key-signed SAS needs it: while this account's key is unusable,
                  // only its key-signed SAS answer 503 (home's key plays no part here).
                  get accountKey() {
                    return config().accounts.data.find((d) => d.name === account.name)?.accountKey;
                  },
                  accountName: undefined,
                  get maxMinutes() {
                    return config().sas.maxMinutes;
                  },
                },
              },
              connect,
            }),
      ),
  );
  const photosName = () => config().containers.photos;
  // `pinned`: the tables of a request serve it only from `account`, whose container holds its
  // photos (a switch meanwhile answers 503 Relocating: a photo is never named where it is not).
  const photosOf = (account: StorageAccount | undefined, pinned = false): PhotoDependencies => {
    const current = config();
    const accountClients = account?.clients ?? clients();
    const spread = pinned ? accounts() : undefined;
    const pinTo = account?.name;
    const tableOf = (name: string) =>
      spread && pinTo ? spread.pinnedTable(name, () => pinTo) : table(() => name);
    const employees = tableOf(current.tables.employees);
    return {
      employees,
      archive: tableOf(current.tables.archive),
      photos: accountClients.container(current.containers.photos),
      directory: pinned
        ? createDirectory({ employees, changes: changeQueue() }).employees
        : directory().employees,
      // Resolved when a read URL is signed: an unusable key fails that URL, not every photo call.
      signer: lazySigner(() =>
        account ? signings().of(account).blobSigner() : sasSigning().blobSigner(),
      ),
      allowHttp: accountClients.isLoopback,
      readSasSeconds: current.sas.defaultMinutes * 60,
      maxSasSeconds: current.sas.maxMinutes * 60,
      sweepGraceMs: current.photos.sweepGraceMinutes * 60_000,
    };
  };
  const photos = lazy((): PhotoDependencies => photosOf(undefined));
  // Unpinned: the sweeps of each account's container read where the placement says.
  const accountPhotos = lazy(() => new PerAccount(accounts()!.accounts, (a) => photosOf(a)));
  const pinnedPhotos = lazy(() => new PerAccount(accounts()!.accounts, (a) => photosOf(a, true)));
  const photosFor = async (department: string): Promise<PhotoDependencies> => {
    const spread = accounts();
    return spread ? forDepartment(spread.placement, pinnedPhotos(), department) : photos();
  };

  const timerRuns = lazy(() => new TimerRunLog(table((c) => c.tables.operations)));
  const requireEmployee = (): EmployeeCheck => {
    const employees = directory().employees;
    return (department, employeeId) => employees.requireExists(department, employeeId);
  };

  const placement = lazy(
    (): Placement =>
      accounts()?.placement ??
      new Placement({
        accounts: new AccountSet({ name: HOME_ACCOUNT, weight: 1, clients: clients() }),
        livesInHome: async () => true,
        cacheMs: 0,
      }),
  );

  return {
    config,
    principalTrust: lazy(() => principalTrust(readPlatformAuth())),
    clients,
    accounts,
    placement,
    relocation: lazy((): RelocationDeps => ({
      placement: placement(),
      tables: config().tables,
      photosContainer: config().containers.photos,
      chunkRows: config().accounts.relocationChunkRows,
    })),
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
    photosFor,
    allPhotos: () => {
      const spread = accounts();
      return spread
        ? accountPhotos()
            .all()
            .map(({ instance }) => instance)
        : [photos()];
    },
    sas: lazy((): SasIssuer => {
      const spread = accounts();
      if (!spread) {
        return new SasService({ clients: clients(), config: config(), signing: sasSigning() });
      }
      const perAccount = new PerAccount(
        spread.accounts,
        (account) =>
          new SasService({
            clients: account.clients,
            config: config(),
            signing: signings().of(account),
            // The photo a token is for is named by the entity wherever the department lives.
          }),
      );
      return spreadSas(spread.placement, perAccount);
    }),
    // Records kept per employee outside the directory: an empty read asks the directory whether
    // the employee exists (404 for an unknown one; one point read, only when nothing was found).
    accessLog: lazy(
      () =>
        new AccessLog(
          table((c) => c.tables.accessLog),
          systemClock,
          requireEmployee(),
        ),
    ),
    expenseClaims: lazy(
      () =>
        new ExpenseClaimLog(
          table((c) => c.tables.expenses),
          systemClock,
          requireEmployee(),
        ),
    ),
    messageStats: lazy(
      () =>
        new MessageStats(
          table((c) => c.tables.messageStats),
          systemClock,
          DEFAULT_MAX_INCREMENT_ATTEMPTS,
          requireEmployee(),
        ),
    ),
    logins: lazy((): LoginServices => {
      const current = config();
      const prefix = current.tables.loginAttemptsPrefix;
      const tables = new LoginDayTables(clients(), prefix);
      const spread = accounts();
      if (!spread) {
        return {
          tables,
          allTables: [tables],
          attempts: new LoginAttempts(tables, current.logins.retentionDays),
        };
      }
      const byAccount = new PerAccount(spread.accounts, (account) =>
        account.name === spread.accounts.home.name
          ? tables
          : new LoginDayTables(account.clients, prefix),
      );
      const allTables = byAccount.all().map(({ instance }) => instance);
      return {
        tables,
        allTables,
        attempts: new LoginAttempts(tables, current.logins.retentionDays, undefined, {
          all: allTables,
          // A user's new attempts go to one account; readers ask every account and merge.
          forUser: (userId) => byAccount.of(spread.placement.forKey('login', userId)),
        }),
      };
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
      const spread = accounts();
      return new LogFlusher({
        container: clients().container(config().containers.logs),
        ...(spread && { hourContainer: spread.logHourContainer }),
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
      // With several accounts every account's hours are read and merged in key order.
      const containers =
        accounts()?.logContainers() ?? clients().container(config().containers.logs);
      return (query: LogQuery, options: LogPageOptions) => queryLogPage(containers, query, options);
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
    operations: lazy(
      () =>
        new OperationsService({
          employees: table((c) => c.tables.employees),
          queues: clients(),
          queueNames: config().queues,
          timerRuns: timerRuns(),
          ...(accounts() && {
            accounts: {
              names: accounts()!.accounts.names(),
              of: async (department: string) =>
                (await accounts()!.placement.ofDepartment(department)).account,
            },
          }),
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

/**
 * A trigger's handler given what it uses from the process's services (a timer, a queue trigger, an
 * activity), resolved on each invocation as a route's `uses` is (route.ts), so a setting fixed
 * meanwhile or a test's {@link resetServices} takes effect. Adapters never call `services()`.
 *
 * @returns the handler the host (or a test) invokes with the trigger's input and context.
 * @throws whatever `uses` or the handler throws.
 */
export function withServices<U, T, R>(
  uses: (services: Services) => U,
  handler: (use: U, trigger: T, context: InvocationContext) => Promise<R>,
): (trigger: T, context: InvocationContext) => Promise<R> {
  return (trigger, context) => handler(uses(services()), trigger, context);
}

/** Forgets every built service (tests and benches that change the configuration). */
export function resetServices(): void {
  processServices = undefined;
}
