/**
 * The only reader of `process.env`.
 *
 * Every storage name and tunable has a default and one documented setting name (the README's
 * configuration table lists them). Values are read once and validated. Two ways to read them:
 *
 * - {@link loadConfig} (tools, tests): the first missing or malformed setting throws a
 *   {@link ConfigError} naming it.
 * - {@link getConfig} (the app): never throws. A malformed setting, or one that still holds an
 *   unresolved Key Vault reference, is recorded ({@link configProblems}), logged once, and turns
 *   into a property that throws {@link SettingUnavailableError} (503) when code reads it — so only
 *   the feature that needs that setting is off. Function files read settings while they load
 *   (queue names, schedules) through {@link settingOrDefault}, because the Node worker stops
 *   loading entry points at the first throw, which would take every later function with it.
 */
import { SettingUnavailableError } from '../domainErrors';
import { armUnreadable, UnreadableSetting, valueOf, type Field } from './unreadableSettings';
import { readAccountSettings, readConnection, type AccountSettings } from './accountSettings';
import {
  readOptional,
  readInt,
  readTableName,
  readQueueOrContainerName,
  MAX_QUEUE_NAME,
  readNcrontab,
  readLastNameIndexMode,
  readSasMaxMinutes,
  readSasTablePolicy,
  readTablePrefix,
  ConfigError,
  type Env,
  type LastNameIndexMode,
  type SasTablePolicyMode,
  type SettingProblem,
  type StorageConnection,
} from './readSetting';
import { telemetrySettings, type TelemetrySettings } from './telemetrySettings';
import { platformAuthOf, type PlatformAuth } from './platform';

export { AZURE_PLATFORM_MARKERS, type PlatformAuth } from './platform';
export { MAX_SAS_MINUTES } from './readSetting';
export { HOME_ACCOUNT, type AccountSettings, type DataAccountSetting } from './accountSettings';
export {
  ConfigError,
  isKeyVaultReference,
  type LastNameIndexMode,
  type SasTablePolicyMode,
  type SettingProblem,
  type StorageConnection,
} from './readSetting';

export interface Config {
  /** The home account (`AzureWebJobsStorage`). */
  storage: StorageConnection;
  /** Further data accounts and placement (`DATA_ACCOUNTS`, docs/accounts.md). */
  accounts: AccountSettings;
  tables: {
    employees: string;
    archive: string;
    employeeIndex: string;
    expenses: string;
    /** Prefix of the per-day login tables: `<prefix>YYYYMMDD`. */
    loginAttemptsPrefix: string;
    messageStats: string;
    accessLog: string;
    /** Operations status: each timer's last run (src/operations/timerRuns.ts). */
    operations: string;
    /** Which account holds each department (home account only; src/accounts/placement.ts). */
    placements: string;
  };
  queues: {
    archive: string;
    indexUpdates: string;
    logBatches: string;
  };
  containers: {
    lastNameIndex: string;
    photos: string;
    logs: string;
  };
  logins: {
    retentionDays: number;
    /** Six-field NCRONTAB schedule of `dropExpiredLoginTables`. */
    cleanupSchedule: string;
  };
  photos: {
    /** Six-field NCRONTAB schedule of `sweepUnadoptedPhotos`. */
    sweepSchedule: string;
    /** Unreferenced photo versions younger than this are never swept (at least 1 minute). */
    sweepGraceMinutes: number;
  };
  sas: {
    defaultMinutes: number;
    maxMinutes: number;
    /**
     * Account key used to sign table SAS and service blob SAS; absent with identity-only access.
     */
    accountKey?: string;
    accountName?: string;
    /** Whether table SAS are bound to the table's stored access policy (revocable by rotation). */
    tablePolicy: SasTablePolicyMode;
    /** How long an instance reuses the stored access policy id it read before re-reading it. */
    policyCacheMs: number;
  };
  directory: {
    lastNameIndexMode: LastNameIndexMode;
    departmentCacheTtlMs: number;
    /** Most characters of one org-wide last-name index shard entity's member list (option 3). */
    lastNameShardChars: number;
    /**
     * Visibility delay of the post-commit outbox nudge (0 = visible at once). With a delay, a
     * process sends at most one nudge per department while its last one is still invisible: the
     * drain it triggers will see every row committed before then.
     */
    indexNudgeDelaySeconds: number;
    /** ms a writing process waits before draining its department itself; 0: the queue drains. */
    indexDrainLingerMs: number;
    /** NCRONTAB schedule of the outbox sweep (drains outboxes whose nudge was lost). */
    outboxSweepSchedule: string;
  };
  archive: {
    /**
     * Employee ids one listing activity of the department archive reads (1–1,000; a query page
     * holds at most 1,000 entities).
     */
    pageSize: number;
    /** Employees one chunk activity of the department archive archives (1–100). */
    chunkSize: number;
  };
  logs: {
    /** A log blob is closed and the next `NNNNNN` started past this many bytes. */
    maxBlobBytes: number;
    /** ... or past this many committed blocks (Azure's hard limit is 50,000). */
    maxBlobBlocks: number;
    /** Largest accepted `POST /logs` batch, in entries. */
    maxBatchEntries: number;
    /** Largest accepted `POST /logs` body, in bytes (413 above it). */
    maxBatchBytes: number;
    /** Most queue messages one flush of `log-batches` drains and writes together. */
    flushMaxMessages: number;
    /** Most flushes one trigger invocation runs back to back while the queue stays full. */
    flushMaxRounds: number;
  };
  retry: {
    maxRetries: number;
    retryDelayMs: number;
    maxRetryDelayMs: number;
    tryTimeoutMs: number;
  };
}

/** How to reach the home storage account. @throws {ConfigError} when it is missing or malformed. */
function readStorage(env: Env): StorageConnection {
  return readConnection(env, 'AzureWebJobsStorage');
}

/** The names of the app's tables, queues and containers (each overridable by a setting). */
function storeNames(env: Env, field: Field): Pick<Config, 'tables' | 'queues' | 'containers'> {
  return {
    tables: {
      employees: field(() => readTableName(env, 'EMPLOYEES_TABLE', 'Employees')),
      archive: field(() => readTableName(env, 'ARCHIVE_TABLE', 'EmployeesArchive')),
      employeeIndex: field(() => readTableName(env, 'EMPLOYEE_INDEX_TABLE', 'EmployeeIndex')),
      expenses: field(() => readTableName(env, 'EXPENSES_TABLE', 'EmployeeExpenses')),
      loginAttemptsPrefix: field(() => readTablePrefix(env, 'LOGIN_TABLE_PREFIX', 'LoginAttempts')),
      messageStats: field(() => readTableName(env, 'MESSAGE_STATS_TABLE', 'MessageStats')),
      accessLog: field(() => readTableName(env, 'ACCESS_LOG_TABLE', 'AccessLog')),
      operations: field(() => readTableName(env, 'OPERATIONS_TABLE', 'OperationsStatus')),
      placements: field(() => readTableName(env, 'PLACEMENTS_TABLE', 'Placements')),
    },
    queues: {
      archive: field(() =>
        readQueueOrContainerName(env, 'ARCHIVE_QUEUE', 'archive-requests', MAX_QUEUE_NAME),
      ),
      indexUpdates: field(() =>
        readQueueOrContainerName(env, 'INDEX_QUEUE', 'index-updates', MAX_QUEUE_NAME),
      ),
      logBatches: field(() =>
        readQueueOrContainerName(env, 'LOG_QUEUE', 'log-batches', MAX_QUEUE_NAME),
      ),
    },
    containers: {
      lastNameIndex: field(() =>
        readQueueOrContainerName(env, 'LASTNAME_INDEX_CONTAINER', 'lastname-index'),
      ),
      photos: field(() => readQueueOrContainerName(env, 'PHOTOS_CONTAINER', 'photos')),
      logs: field(() => readQueueOrContainerName(env, 'LOGS_CONTAINER', 'logs')),
    },
  };
}

function buildConfig(env: Env, field: Field): Config {
  const sasMaxMinutes = field(() => readSasMaxMinutes(env, 'SAS_MAX_MINUTES', 60));
  return {
    storage: field(() => readStorage(env)),
    accounts: field(() => readAccountSettings(env, field)),
    ...storeNames(env, field),
    logins: {
      retentionDays: field(() => readInt(env, 'LOGIN_RETENTION_DAYS', 60, 1, 3650)),
      cleanupSchedule: field(() => readNcrontab(env, 'LOGIN_CLEANUP_SCHEDULE', '0 0 1 * * *')),
    },
    photos: {
      sweepSchedule: field(() => readNcrontab(env, 'PHOTO_SWEEP_SCHEDULE', '0 30 1 * * *')),
      sweepGraceMinutes: field(() => readInt(env, 'PHOTO_SWEEP_GRACE_MINUTES', 15, 1, 7 * 24 * 60)),
    },
    sas: {
      defaultMinutes: field(() =>
        Math.min(readInt(env, 'SAS_DEFAULT_MINUTES', 15, 1, 7 * 24 * 60), valueOf(sasMaxMinutes)),
      ),
      maxMinutes: sasMaxMinutes,
      accountKey: field(() => readOptional(env, 'STORAGE_ACCOUNT_KEY')),
      accountName: field(() => readOptional(env, 'STORAGE_ACCOUNT_NAME')),
      tablePolicy: field(() => readSasTablePolicy(env, 'SAS_TABLE_POLICY', 'stored')),
      policyCacheMs: field(() => readInt(env, 'SAS_POLICY_CACHE_SECONDS', 15, 0, 3600) * 1000),
    },
    directory: {
      lastNameIndexMode: field(() => readLastNameIndexMode(env, 'LASTNAME_INDEX_MODE', 'entity')),
      departmentCacheTtlMs: field(
        () => readInt(env, 'DEPARTMENT_CACHE_TTL_SECONDS', 30, 0, 86400) * 1000,
      ),
      lastNameShardChars: field(() =>
        readInt(env, 'LASTNAME_INDEX_SHARD_CHARS', 30_000, 100, 32_000),
      ),
      indexNudgeDelaySeconds: field(() => readInt(env, 'INDEX_NUDGE_DELAY_SECONDS', 0, 0, 60)),
      indexDrainLingerMs: field(() => readInt(env, 'INDEX_DRAIN_LINGER_MS', 500, 0, 10_000)),
      outboxSweepSchedule: field(() =>
        readNcrontab(env, 'INDEX_OUTBOX_SWEEP_SCHEDULE', '0 */5 * * * *'),
      ),
    },
    archive: {
      pageSize: field(() => readInt(env, 'ARCHIVE_PAGE_SIZE', 1000, 1, 1000)),
      chunkSize: field(() => readInt(env, 'ARCHIVE_CHUNK_SIZE', 100, 1, 100)),
    },
    logs: {
      maxBlobBytes: field(() =>
        readInt(env, 'LOG_BLOB_MAX_BYTES', 64 * 1024 * 1024, 1024, 4 * 1024 ** 3),
      ),
      maxBlobBlocks: field(() => readInt(env, 'LOG_BLOB_MAX_BLOCKS', 40_000, 2, 49_000)),
      maxBatchEntries: field(() => readInt(env, 'LOG_MAX_BATCH_ENTRIES', 1000, 1, 100_000)),
      maxBatchBytes: field(() =>
        readInt(env, 'LOG_MAX_BATCH_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024),
      ),
      flushMaxMessages: field(() => readInt(env, 'LOG_FLUSH_MAX_MESSAGES', 256, 1, 4096)),
      flushMaxRounds: field(() => readInt(env, 'LOG_FLUSH_MAX_ROUNDS', 8, 1, 100)),
    },
    retry: {
      maxRetries: field(() => readInt(env, 'STORAGE_MAX_RETRIES', 5, 0, 20)),
      retryDelayMs: field(() => readInt(env, 'STORAGE_RETRY_DELAY_MS', 200, 1, 60_000)),
      maxRetryDelayMs: field(() => readInt(env, 'STORAGE_MAX_RETRY_DELAY_MS', 8_000, 1, 600_000)),
      tryTimeoutMs: field(() => readInt(env, 'STORAGE_TRY_TIMEOUT_MS', 30_000, 100, 600_000)),
    },
  };
}

/**
 * Reads and validates the configuration from an environment map.
 *
 * @throws {ConfigError} when a required setting is missing, a setting is malformed, or one holds
 *   an unresolved Key Vault reference.
 */
export function loadConfig(env: Env): Config {
  return Object.freeze(buildConfig(env, (read) => read()));
}

/** The configuration as the app reads it, with what is wrong in it. */
export interface ConfigReading {
  /** Every setting; reading one listed in `problems` throws {@link SettingUnavailableError}. */
  config: Config;
  /** One entry per setting that is missing (required), malformed or an unresolved reference. */
  problems: readonly ConfigError[];
}

/**
 * Reads the configuration without throwing: a setting that cannot be read is recorded and
 * becomes a property that throws {@link SettingUnavailableError} when read.
 */
export function readConfig(env: Env): ConfigReading {
  const problems = new Map<string, ConfigError>();
  const config = buildConfig(env, <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      if (!problems.has(error.setting)) problems.set(error.setting, error);
      return new UnreadableSetting(error) as T;
    }
  });
  armUnreadable(config as unknown as Record<string, unknown>);
  return { config, problems: [...problems.values()] };
}

let cached: ConfigReading | undefined;
let defaults: Config | undefined;

/** Logs each problem of a fresh reading once: one line naming the setting. */
let warn: (line: string) => void = (line) => console.warn(line);

function reading(): ConfigReading {
  if (!cached) {
    cached = readConfig(process.env);
    for (const problem of cached.problems) {
      warn(
        `Configuration: ${problem.message} Features that need ${problem.setting} answer 503 until it is fixed.`,
      );
    }
  }
  return cached;
}

/**
 * The process-wide configuration, read from `process.env` on first use. Never throws; reading a
 * setting that is missing (required), malformed or an unresolved Key Vault reference does.
 */
export function getConfig(): Config {
  return reading().config;
}

/** The settings `getConfig()` could not read, by problem (for health). Never throws. */
export function configProblems(): { invalid: string[]; unresolved: string[]; missing: string[] } {
  const problems = reading().problems;
  const named = (problem: SettingProblem): string[] =>
    problems.filter((p) => p.problem === problem).map((p) => p.setting);
  return {
    invalid: named('malformed'),
    unresolved: named('keyVaultReference'),
    missing: named('missing'),
  };
}

/**
 * A value read from the configuration, or from the defaults when a setting it needs cannot be
 * read. For what function registrations read while their files load (queue names, schedules):
 * a throw there stops the worker loading every later function. The feature stays off anyway,
 * because the code that uses it reads the setting again. `read` must copy out plain values.
 *
 * @throws {SettingUnavailableError} only when even the default needs a missing required setting.
 */
export function settingOrDefault<T>(read: (config: Config) => T, config: Config = getConfig()): T {
  try {
    return read(config);
  } catch (error) {
    if (!(error instanceof SettingUnavailableError)) throw error;
    defaults ??= readConfig({}).config;
    return read(defaults);
  }
}

/**
 * Forgets the cached configuration so the next {@link getConfig} re-reads the environment (tests).
 */
export function resetConfig(): void {
  cached = undefined;
}

/** Where {@link getConfig} logs the problems it finds (tests). */
export function setConfigWarningSink(sink: (line: string) => void): void {
  warn = sink;
}

/**
 * Reads the settings about who vouches for the principal header ({@link PlatformAuth}). Read apart
 * from {@link getConfig} so that no other setting can hide them: this never throws.
 */
export const readPlatformAuth = (env: Env = process.env): PlatformAuth => platformAuthOf(env);

/**
 * Where telemetry goes (src/config/telemetrySettings.ts). Never throws: a bad setting turns it off.
 */
export const readTelemetry = (env: Env = process.env): TelemetrySettings => telemetrySettings(env);
