import { ConfigError, loadConfig } from '../../../src/config';

const storage = { AzureWebJobsStorage: 'UseDevelopmentStorage=true' };

describe('login settings', () => {
  it('defaults to a 60-day retention, a daily 01:00 UTC clean-up and the LoginAttempts prefix', () => {
    const config = loadConfig(storage);
    expect(config.logins).toEqual({ retentionDays: 60, cleanupSchedule: '0 0 1 * * *' });
    expect(config.tables.loginAttemptsPrefix).toBe('LoginAttempts');
  });

  it('accepts a six-field schedule and refuses a five-field (classic cron) one, naming the setting', () => {
    expect(
      loadConfig({ ...storage, LOGIN_CLEANUP_SCHEDULE: '*/2 * * * * *' }).logins.cleanupSchedule,
    ).toBe('*/2 * * * * *');
    expect(() => loadConfig({ ...storage, LOGIN_CLEANUP_SCHEDULE: '0 1 * * *' })).toThrow(
      expect.objectContaining({ setting: 'LOGIN_CLEANUP_SCHEDULE' }) as ConfigError,
    );
  });

  it('refuses a retention outside 1-3650 days and a prefix that is not table-name safe', () => {
    expect(() => loadConfig({ ...storage, LOGIN_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...storage, LOGIN_RETENTION_DAYS: 'sixty' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...storage, LOGIN_TABLE_PREFIX: 'Login-Attempts' })).toThrow(
      ConfigError,
    );
  });
});
