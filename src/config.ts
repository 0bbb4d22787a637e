/**
 * The only reader of `process.env`.
 *
 * Every storage name and tunable has a default and one documented setting name (the README's
 * configuration table lists them). Values are read once, validated, and frozen; a setting that is
 * present but malformed, or a required one that is missing, throws a {@link ConfigError} naming it.
 */

/** A setting is missing or malformed. The message names the setting. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** How the app reaches its storage account. */
export type StorageConnection =
  | { kind: 'connectionString'; connectionString: string }
  | {
      kind: 'identity';
      accountName?: string;
      tableServiceUri: string;
      queueServiceUri: string;
      blobServiceUri: string;
      /** User-assigned managed identity client id (`AzureWebJobsStorage__clientId`). */
      clientId?: string;
    };

/** `stored`: table SAS carry the table's current stored access policy id; `none`: self-contained. */
export type SasTablePolicyMode = 'stored' | 'none';

/** Where organisation-wide last-name index entries live (index entities options 1 and 3). */
export type LastNameIndexMode = 'entity' | 'blob';

export interface Config {
  storage: StorageConnection;
  tables: {
    employees: string;
    archive: string;
    employeeIndex: string;
    expenses: string;
    /** Prefix of the per-day login tables: `<prefix>YYYYMMDD`. */
    loginAttemptsPrefix: string;
    messageStats: string;
    accessLog: string;
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
  };
  sas: {
    defaultMinutes: number;
    maxMinutes: number;
    /** Account key used to sign table SAS and service blob SAS; absent with identity-only access. */
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
    /** Delay of the pre-write `index-updates` announcement (0 = no announcements). */
    indexAnnounceDelaySeconds: number;
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
    /** Most entries one `GET /logs` returns; a wider result is refused (413) so memory stays bounded. */
    maxQueryEntries: number;
  };
  retry: {
    maxRetries: number;
    retryDelayMs: number;
    maxRetryDelayMs: number;
    tryTimeoutMs: number;
  };
}

type Env = Record<string, string | undefined>;

function readString(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

function readOptional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) {
    throw new ConfigError(name, `Setting ${name} must be a whole number, got "${raw}".`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `Setting ${name} must be between ${min} and ${max}, got ${value}.`);
  }
  return value;
}

function readTableName(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (!/^[A-Za-z][A-Za-z0-9]{2,62}$/.test(value)) {
    throw new ConfigError(
      name,
      `Setting ${name} must be a table name (3-63 letters or digits, starting with a letter), got "${value}".`,
    );
  }
  return value;
}

/**
 * Queue and container names: 3-63 lowercase letters, digits and single hyphens. Queues are
 * capped at 56 so that `<name>-poison`, which the Functions host creates, stays within 63.
 */
function readQueueOrContainerName(
  env: Env,
  name: string,
  fallback: string,
  maxLength = 63,
): string {
  const value = readString(env, name, fallback);
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(value) || value.length > maxLength) {
    throw new ConfigError(
      name,
      `Setting ${name} must be a queue/container name (3-${maxLength} lowercase letters, digits, single hyphens), got "${value}".`,
    );
  }
  return value;
}

/** Longest queue name whose `-poison` companion is still a valid queue name. */
const MAX_QUEUE_NAME = 63 - '-poison'.length;

/** A six-field NCRONTAB expression (`{second} {minute} {hour} {day} {month} {day-of-week}`). */
function readNcrontab(env: Env, name: string, fallback: string): string {
  const value = readString(env, name, fallback);
  if (value.split(/\s+/).length !== 6) {
    throw new ConfigError(
      name,
      `Setting ${name} must be a six-field NCRONTAB schedule such as "0 0 1 * * *", got "${value}".`,
    );
  }
  return value;
}

function readStorage(env: Env): StorageConnection {
  const connectionString = readOptional(env, 'AzureWebJobsStorage');
  if (connectionString !== undefined) return { kind: 'connectionString', connectionString };

  const accountName = readOptional(env, 'AzureWebJobsStorage__accountName');
  const uri = (service: 'table' | 'queue' | 'blob'): string | undefined =>
    readOptional(env, `AzureWebJobsStorage__${service}ServiceUri`) ??
    (accountName ? `https://${accountName}.${service}.core.windows.net` : undefined);
  const tableServiceUri = uri('table');
  const queueServiceUri = uri('queue');
  const blobServiceUri = uri('blob');
  if (!tableServiceUri || !queueServiceUri || !blobServiceUri) {
    throw new ConfigError(
      'AzureWebJobsStorage',
      'Setting AzureWebJobsStorage is missing: set a connection string, or AzureWebJobsStorage__accountName ' +
        '(or AzureWebJobsStorage__tableServiceUri, __queueServiceUri and __blobServiceUri) for managed identity.',
    );
  }
  return {
    kind: 'identity',
    accountName,
    tableServiceUri,
    queueServiceUri,
    blobServiceUri,
    clientId: readOptional(env, 'AzureWebJobsStorage__clientId'),
  };
}

/**
 * Reads and validates the configuration from an environment map.
 *
 * @throws {ConfigError} when a required setting is missing or a setting is malformed.
 */
export function loadConfig(env: Env): Config {
  const lastNameIndexMode = readString(env, 'LASTNAME_INDEX_MODE', 'entity');
  if (lastNameIndexMode !== 'entity' && lastNameIndexMode !== 'blob') {
    throw new ConfigError(
      'LASTNAME_INDEX_MODE',
      `Setting LASTNAME_INDEX_MODE must be "entity" or "blob", got "${lastNameIndexMode}".`,
    );
  }
  const sasMaxMinutes = readInt(env, 'SAS_MAX_MINUTES', 60, 1, 7 * 24 * 60);
  const sasTablePolicy = readString(env, 'SAS_TABLE_POLICY', 'stored');
  if (sasTablePolicy !== 'stored' && sasTablePolicy !== 'none') {
    throw new ConfigError(
      'SAS_TABLE_POLICY',
      `Setting SAS_TABLE_POLICY must be "stored" or "none", got "${sasTablePolicy}".`,
    );
  }
  const loginAttemptsPrefix = readString(env, 'LOGIN_TABLE_PREFIX', 'LoginAttempts');
  if (!/^[A-Za-z][A-Za-z0-9]{2,54}$/.test(loginAttemptsPrefix)) {
    throw new ConfigError(
      'LOGIN_TABLE_PREFIX',
      `Setting LOGIN_TABLE_PREFIX must be 3-55 letters or digits starting with a letter, got "${loginAttemptsPrefix}".`,
    );
  }

  return Object.freeze({
    storage: readStorage(env),
    tables: {
      employees: readTableName(env, 'EMPLOYEES_TABLE', 'Employees'),
      archive: readTableName(env, 'ARCHIVE_TABLE', 'EmployeesArchive'),
      employeeIndex: readTableName(env, 'EMPLOYEE_INDEX_TABLE', 'EmployeeIndex'),
      expenses: readTableName(env, 'EXPENSES_TABLE', 'EmployeeExpenses'),
      loginAttemptsPrefix,
      messageStats: readTableName(env, 'MESSAGE_STATS_TABLE', 'MessageStats'),
      accessLog: readTableName(env, 'ACCESS_LOG_TABLE', 'AccessLog'),
    },
    queues: {
      archive: readQueueOrContainerName(env, 'ARCHIVE_QUEUE', 'archive-requests', MAX_QUEUE_NAME),
      indexUpdates: readQueueOrContainerName(env, 'INDEX_QUEUE', 'index-updates', MAX_QUEUE_NAME),
      logBatches: readQueueOrContainerName(env, 'LOG_QUEUE', 'log-batches', MAX_QUEUE_NAME),
    },
    containers: {
      lastNameIndex: readQueueOrContainerName(env, 'LASTNAME_INDEX_CONTAINER', 'lastname-index'),
      photos: readQueueOrContainerName(env, 'PHOTOS_CONTAINER', 'photos'),
      logs: readQueueOrContainerName(env, 'LOGS_CONTAINER', 'logs'),
    },
    logins: {
      retentionDays: readInt(env, 'LOGIN_RETENTION_DAYS', 60, 1, 3650),
      cleanupSchedule: readNcrontab(env, 'LOGIN_CLEANUP_SCHEDULE', '0 0 1 * * *'),
    },
    photos: {
      sweepSchedule: readNcrontab(env, 'PHOTO_SWEEP_SCHEDULE', '0 30 1 * * *'),
    },
    sas: {
      defaultMinutes: Math.min(
        readInt(env, 'SAS_DEFAULT_MINUTES', 15, 1, 7 * 24 * 60),
        sasMaxMinutes,
      ),
      maxMinutes: sasMaxMinutes,
      accountKey: readOptional(env, 'STORAGE_ACCOUNT_KEY'),
      accountName: readOptional(env, 'STORAGE_ACCOUNT_NAME'),
      tablePolicy: sasTablePolicy as SasTablePolicyMode,
      policyCacheMs: readInt(env, 'SAS_POLICY_CACHE_SECONDS', 15, 0, 3600) * 1000,
    },
    directory: {
      lastNameIndexMode: lastNameIndexMode as LastNameIndexMode,
      departmentCacheTtlMs: readInt(env, 'DEPARTMENT_CACHE_TTL_SECONDS', 30, 0, 86400) * 1000,
      lastNameShardChars: readInt(env, 'LASTNAME_INDEX_SHARD_CHARS', 30_000, 100, 32_000),
      indexAnnounceDelaySeconds: readInt(env, 'INDEX_ANNOUNCE_DELAY_SECONDS', 60, 0, 3600),
    },
    logs: {
      maxBlobBytes: readInt(env, 'LOG_BLOB_MAX_BYTES', 64 * 1024 * 1024, 1024, 4 * 1024 ** 3),
      maxBlobBlocks: readInt(env, 'LOG_BLOB_MAX_BLOCKS', 40_000, 2, 49_000),
      maxBatchEntries: readInt(env, 'LOG_MAX_BATCH_ENTRIES', 1000, 1, 100_000),
      maxBatchBytes: readInt(env, 'LOG_MAX_BATCH_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024),
      flushMaxMessages: readInt(env, 'LOG_FLUSH_MAX_MESSAGES', 256, 1, 4096),
      flushMaxRounds: readInt(env, 'LOG_FLUSH_MAX_ROUNDS', 8, 1, 100),
      maxQueryEntries: readInt(env, 'LOG_MAX_QUERY_ENTRIES', 100_000, 1, 1_000_000),
    },
    retry: {
      maxRetries: readInt(env, 'STORAGE_MAX_RETRIES', 5, 0, 20),
      retryDelayMs: readInt(env, 'STORAGE_RETRY_DELAY_MS', 200, 1, 60_000),
      maxRetryDelayMs: readInt(env, 'STORAGE_MAX_RETRY_DELAY_MS', 8_000, 1, 600_000),
      tryTimeoutMs: readInt(env, 'STORAGE_TRY_TIMEOUT_MS', 30_000, 100, 600_000),
    },
  });
}

let cached: Config | undefined;

/**
 * The process-wide configuration, read from `process.env` on first use.
 *
 * @throws {ConfigError} when a required setting is missing or a setting is malformed.
 */
export function getConfig(): Config {
  cached ??= loadConfig(process.env);
  return cached;
}

/** Forgets the cached configuration so the next {@link getConfig} re-reads the environment (tests). */
export function resetConfig(): void {
  cached = undefined;
}

/** Where the app runs and whether App Service authentication fronts it. */
export interface PlatformAuth {
  /** True on an Azure instance (the platform sets `WEBSITE_INSTANCE_ID` on every one). */
  inAzure: boolean;
  /** True when App Service authentication is on (the platform sets `WEBSITE_AUTH_ENABLED=True`). */
  authEnabled: boolean;
}

/**
 * Reads the platform's own settings about authentication. They are set by Azure, never by hand,
 * and are read apart from {@link getConfig} so that no other setting can hide them: this never
 * throws.
 */
export function readPlatformAuth(env: Env = process.env): PlatformAuth {
  return {
    inAzure: readOptional(env, 'WEBSITE_INSTANCE_ID') !== undefined,
    authEnabled: readOptional(env, 'WEBSITE_AUTH_ENABLED')?.toLowerCase() === 'true',
  };
}
