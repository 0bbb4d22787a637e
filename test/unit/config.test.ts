/**
 * The configuration module: defaults that run the app with nothing but a storage connection,
 * malformed settings refused with the setting's name, and the managed-identity forms of
 * `AzureWebJobsStorage`.
 */
import {
  ConfigError,
  configProblems,
  getConfig,
  isKeyVaultReference,
  loadConfig,
  MAX_SAS_MINUTES,
  readConfig,
  resetConfig,
  setConfigWarningSink,
  settingOrDefault,
} from '../../src/config';
import { SettingUnavailableError } from '../../src/domainErrors';
import { MAX_DELEGATION_KEY_MS } from '../../src/storage/blobSas';

const CONNECTION = 'UseDevelopmentStorage=true';

/** The ConfigError `load` throws, for asserting on its setting and message. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig was expected to throw a ConfigError.');
}

describe('defaults', () => {
  it('needs nothing but a storage connection', () => {
    const config = loadConfig({ AzureWebJobsStorage: CONNECTION });
    expect(config.storage).toEqual({ kind: 'connectionString', connectionString: CONNECTION });
    expect(config.tables).toMatchObject({
      employees: 'Employees',
      archive: 'EmployeesArchive',
      employeeIndex: 'EmployeeIndex',
      expenses: 'EmployeeExpenses',
      loginAttemptsPrefix: 'LoginAttempts',
      messageStats: 'MessageStats',
      accessLog: 'AccessLog',
      operations: 'OperationsStatus',
    });
    expect(config.queues).toEqual({
      archive: 'archive-requests',
      indexUpdates: 'index-updates',
      logBatches: 'log-batches',
    });
    expect(config.containers).toEqual({
      lastNameIndex: 'lastname-index',
      photos: 'photos',
      logs: 'logs',
    });
    expect(config.logins.retentionDays).toBe(60);
    expect(config.retry).toEqual({
      maxRetries: 5,
      retryDelayMs: 200,
      maxRetryDelayMs: 8_000,
      tryTimeoutMs: 30_000,
    });
    expect(config.directory.lastNameIndexMode).toBe('entity');
    // The index outbox: nudges visible at once, a sweep every 5 min.
    expect(config.directory).toMatchObject({
      indexNudgeDelaySeconds: 0,
      outboxSweepSchedule: '0 */5 * * * *',
    });
  });

  it('treats blank settings as absent', () => {
    const config = loadConfig({
      AzureWebJobsStorage: CONNECTION,
      EMPLOYEES_TABLE: '  ',
      STORAGE_MAX_RETRIES: '',
    });
    expect(config.tables.employees).toBe('Employees');
    expect(config.retry.maxRetries).toBe(5);
  });

  it('reads overrides and trims them', () => {
    const config = loadConfig({
      AzureWebJobsStorage: CONNECTION,
      EMPLOYEES_TABLE: ' Staff2026 ',
      ARCHIVE_QUEUE: 'archive-v2',
      STORAGE_TRY_TIMEOUT_MS: '300',
      STORAGE_MAX_RETRIES: '0',
      LASTNAME_INDEX_MODE: 'blob',
    });
    expect(config.tables.employees).toBe('Staff2026');
    expect(config.queues.archive).toBe('archive-v2');
    expect(config.retry).toMatchObject({ tryTimeoutMs: 300, maxRetries: 0 });
    expect(config.directory.lastNameIndexMode).toBe('blob');
  });

  it('takes SAS_MAX_MINUTES up to the 7-day limit of a user delegation key, less its margins', () => {
    const config = loadConfig({ AzureWebJobsStorage: CONNECTION, SAS_MAX_MINUTES: '10074' });
    expect(config.sas.maxMinutes).toBe(MAX_SAS_MINUTES);
    // The longest token plus the signer's minute of slack fits the longest key it asks for.
    expect(MAX_SAS_MINUTES * 60_000 + 60_000).toBe(MAX_DELEGATION_KEY_MS);
    expect(MAX_DELEGATION_KEY_MS).toBeLessThan(7 * 24 * 60 * 60_000);
  });

  it('caps the default SAS lifetime at the maximum', () => {
    const config = loadConfig({
      AzureWebJobsStorage: CONNECTION,
      SAS_DEFAULT_MINUTES: '90',
      SAS_MAX_MINUTES: '30',
    });
    expect(config.sas).toMatchObject({ defaultMinutes: 30, maxMinutes: 30 });
  });

  it('is frozen, so no code can change a setting after start-up', () => {
    const config = loadConfig({ AzureWebJobsStorage: CONNECTION });
    expect(Object.isFrozen(config)).toBe(true);
  });
});

describe('malformed settings name the setting', () => {
  it.each([
    ['STORAGE_MAX_RETRIES', 'three', /whole number/],
    ['STORAGE_MAX_RETRIES', '2.5', /whole number/],
    ['STORAGE_MAX_RETRIES', '21', /between 0 and 20/],
    ['STORAGE_TRY_TIMEOUT_MS', '99', /between 100 and 600000/],
    ['STORAGE_RETRY_DELAY_MS', '-5', /between 1 and 60000/],
    ['LOGIN_RETENTION_DAYS', '0', /between 1 and 3650/],
    // Zero grace would let the sweeps delete a photo version just uploaded, before its adoption.
    ['PHOTO_SWEEP_GRACE_MINUTES', '0', /between 1 and 10080/],
    ['EMPLOYEES_TABLE', 'Employees-2026', /table name/],
    ['EMPLOYEES_TABLE', '1Employees', /table name/],
    ['ARCHIVE_TABLE', 'ab', /table name/],
    ['ARCHIVE_QUEUE', 'Archive', /queue\/container name/],
    ['INDEX_QUEUE', 'index--updates', /queue\/container name/],
    ['LOG_QUEUE', '-logs', /queue\/container name/],
    ['PHOTOS_CONTAINER', 'p'.repeat(64), /queue\/container name/],
    ['LASTNAME_INDEX_MODE', 'table', /"entity" or "blob"/],
    ['LOGIN_TABLE_PREFIX', 'Login_Attempts', /LOGIN_TABLE_PREFIX/],
    ['INDEX_NUDGE_DELAY_SECONDS', '61', /between 0 and 60/],
    // A user delegation key lives at most 7 days and must outlast the longest token.
    ['SAS_MAX_MINUTES', '10075', /at most 10074 minutes \(7 days less 6: a user delegation key/],
    ['SAS_MAX_MINUTES', '10080', /SAS_MAX_MINUTES must be at most 10074 minutes/],
    ['SAS_MAX_MINUTES', '0', /between 1 and/],
    ['INDEX_NUDGE_DELAY_SECONDS', '0.5', /whole number/],
    ['INDEX_OUTBOX_SWEEP_SCHEDULE', '*/5 * * * *', /INDEX_OUTBOX_SWEEP_SCHEDULE/],
  ])('%s=%j is refused', (setting, value, message) => {
    const error = configError({ AzureWebJobsStorage: CONNECTION, [setting]: value });
    expect(error.setting).toBe(setting);
    expect(error.message).toContain(setting);
    expect(error.message).toMatch(message);
  });
});

describe('storage connection', () => {
  it('fails fast naming AzureWebJobsStorage when no connection is configured', () => {
    const error = configError({});
    expect(error.setting).toBe('AzureWebJobsStorage');
    expect(error.message).toMatch(/AzureWebJobsStorage__accountName/);
  });

  it('derives the three service URIs from an account name (managed identity)', () => {
    const config = loadConfig({
      AzureWebJobsStorage__accountName: 'contosodir',
      AzureWebJobsStorage__clientId: 'c1',
    });
    expect(config.storage).toEqual({
      kind: 'identity',
      accountName: 'contosodir',
      tableServiceUri: 'https://contosodir.table.core.windows.net',
      queueServiceUri: 'https://contosodir.queue.core.windows.net',
      blobServiceUri: 'https://contosodir.blob.core.windows.net',
      clientId: 'c1',
    });
  });

  it('takes explicit service URIs over the account name (sovereign clouds, private endpoints)', () => {
    const config = loadConfig({
      AzureWebJobsStorage__accountName: 'contosodir',
      AzureWebJobsStorage__tableServiceUri: 'https://contosodir.table.core.chinacloudapi.cn',
    });
    expect(config.storage).toMatchObject({
      kind: 'identity',
      tableServiceUri: 'https://contosodir.table.core.chinacloudapi.cn',
      queueServiceUri: 'https://contosodir.queue.core.windows.net',
    });
  });

  it('needs all three URIs when there is no account name', () => {
    const partial = { AzureWebJobsStorage__tableServiceUri: 'https://a.table.core.windows.net' };
    expect(configError(partial).setting).toBe('AzureWebJobsStorage');
    const config = loadConfig({
      ...partial,
      AzureWebJobsStorage__queueServiceUri: 'https://a.queue.core.windows.net',
      AzureWebJobsStorage__blobServiceUri: 'https://a.blob.core.windows.net',
    });
    expect(config.storage).toMatchObject({ kind: 'identity', accountName: undefined });
  });

  it('prefers a connection string over identity settings', () => {
    const config = loadConfig({
      AzureWebJobsStorage: CONNECTION,
      AzureWebJobsStorage__accountName: 'contosodir',
    });
    expect(config.storage.kind).toBe('connectionString');
  });
});

describe('process-wide configuration', () => {
  const saved = process.env.EMPLOYEES_TABLE;
  afterEach(() => {
    if (saved === undefined) delete process.env.EMPLOYEES_TABLE;
    else process.env.EMPLOYEES_TABLE = saved;
    resetConfig();
  });

  it('reads process.env once and again only after resetConfig', () => {
    process.env.EMPLOYEES_TABLE = 'FirstRead';
    resetConfig();
    expect(getConfig().tables.employees).toBe('FirstRead');
    process.env.EMPLOYEES_TABLE = 'SecondRead';
    expect(getConfig().tables.employees).toBe('FirstRead');
    resetConfig();
    expect(getConfig().tables.employees).toBe('SecondRead');
  });
});

describe('the app reading (readConfig, getConfig): a bad setting turns off only what needs it', () => {
  const env = { AzureWebJobsStorage: CONNECTION };

  it('never throws for a malformed optional setting, and names it once', () => {
    const { config, problems } = readConfig({
      ...env,
      LOG_MAX_BATCH_BYTES: 'abc',
      SAS_MAX_MINUTES: 'sixty',
    });
    expect(problems.map((p) => [p.setting, p.problem])).toEqual([
      ['SAS_MAX_MINUTES', 'malformed'],
      ['LOG_MAX_BATCH_BYTES', 'malformed'],
    ]);
    // Everything else reads as usual.
    expect(config.tables.employees).toBe('Employees');
    expect(config.queues.archive).toBe('archive-requests');
    expect(config.logs.maxBatchEntries).toBe(1000);
    expect(config.storage).toEqual({ kind: 'connectionString', connectionString: CONNECTION });
  });

  it('throws a 503 SettingInvalid naming the setting when code reads it', () => {
    const { config } = readConfig({ ...env, LOG_MAX_BATCH_BYTES: 'abc', SAS_MAX_MINUTES: 'x' });
    for (const read of [
      () => config.logs.maxBatchBytes,
      () => ({ ...config.logs }),
      () => config.sas.maxMinutes,
      // Depends on SAS_MAX_MINUTES too.
      () => config.sas.defaultMinutes,
    ]) {
      let thrown: unknown;
      try {
        read();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SettingUnavailableError);
      expect((thrown as SettingUnavailableError).kind).toBe('unavailable');
      expect((thrown as SettingUnavailableError).code).toBe('SettingInvalid');
    }
    expect(() => config.logs.maxBatchBytes).toThrow(/LOG_MAX_BATCH_BYTES/);
    expect(Object.isFrozen(config.logs)).toBe(true);
  });

  it('treats a setting that still holds a Key Vault reference as unusable, and never returns the text', () => {
    const reference = '@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/key)';
    const { config, problems } = readConfig({
      ...env,
      STORAGE_ACCOUNT_KEY: reference,
      STORAGE_ACCOUNT_NAME: 'prod',
    });
    expect(problems.map((p) => [p.setting, p.problem])).toEqual([
      ['STORAGE_ACCOUNT_KEY', 'keyVaultReference'],
    ]);
    expect(() => config.sas.accountKey).toThrow(
      expect.objectContaining({
        code: 'KeyVaultReferenceUnresolved',
        setting: 'STORAGE_ACCOUNT_KEY',
      }) as Error,
    );
    expect(config.sas.accountName).toBe('prod');
    expect(() => loadConfig({ ...env, STORAGE_ACCOUNT_KEY: ` ${reference}` })).toThrow(
      /STORAGE_ACCOUNT_KEY holds a Key Vault reference/,
    );
    expect(isKeyVaultReference('@microsoft.keyvault(VaultName=kv;SecretName=s)')).toBe(true);
    expect(isKeyVaultReference('Eby8vdM02x==')).toBe(false);
  });

  it('reports a missing storage connection as SettingMissing (503), not as a crash', () => {
    const { config, problems } = readConfig({});
    expect(problems.map((p) => [p.setting, p.problem])).toEqual([
      ['AzureWebJobsStorage', 'missing'],
    ]);
    expect(() => config.storage).toThrow(
      expect.objectContaining({ code: 'SettingMissing' }) as Error,
    );
  });

  it('gives registrations the default while a setting they read is malformed', () => {
    const { config } = readConfig({
      ...env,
      ARCHIVE_QUEUE: 'Not_A_Queue',
      LOGIN_CLEANUP_SCHEDULE: 'daily',
    });
    expect(settingOrDefault((c) => c.queues.archive, config)).toBe('archive-requests');
    expect(settingOrDefault((c) => c.logins.cleanupSchedule, config)).toBe('0 0 1 * * *');
    // The code that uses the feature still sees the problem.
    expect(() => config.queues.archive).toThrow(SettingUnavailableError);
  });

  it('getConfig logs one line per bad setting, naming it, and configProblems lists them', () => {
    const saved = { ...process.env };
    const lines: string[] = [];
    try {
      process.env.LOG_MAX_BATCH_BYTES = 'abc';
      process.env.STORAGE_ACCOUNT_KEY = '@Microsoft.KeyVault(SecretUri=https://kv/secrets/k)';
      setConfigWarningSink((line) => lines.push(line));
      resetConfig();
      expect(() => getConfig()).not.toThrow();
      getConfig();
      expect(configProblems()).toEqual({
        invalid: ['LOG_MAX_BATCH_BYTES'],
        unresolved: ['STORAGE_ACCOUNT_KEY'],
        missing: [],
      });
      expect(lines).toHaveLength(2);
      expect(lines.find((line) => line.includes('LOG_MAX_BATCH_BYTES'))).toMatch(
        /^Configuration: Setting LOG_MAX_BATCH_BYTES must be a whole number, got "abc"\./,
      );
      expect(lines.find((line) => line.includes('STORAGE_ACCOUNT_KEY'))).toMatch(
        /Key Vault reference/,
      );
      expect(lines.join('\n')).not.toContain('https://kv');
    } finally {
      process.env = saved;
      setConfigWarningSink((line) => console.warn(line));
      resetConfig();
    }
  });
});
