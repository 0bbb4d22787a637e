import { ConfigError, loadConfig } from '../../../src/config';

const storage = { AzureWebJobsStorage: 'UseDevelopmentStorage=true' };

describe('photo sweep schedule and grace period', () => {
  it('defaults to daily at 01:30 UTC (six-field NCRONTAB) and a grace of 15 minutes', () => {
    expect(loadConfig(storage).photos).toEqual({
      sweepSchedule: '0 30 1 * * *',
      sweepGraceMinutes: 15,
    });
  });

  it('takes a grace period of 1 minute to a week, never zero', () => {
    expect(
      loadConfig({ ...storage, PHOTO_SWEEP_GRACE_MINUTES: '60' }).photos.sweepGraceMinutes,
    ).toBe(60);
    expect(() => loadConfig({ ...storage, PHOTO_SWEEP_GRACE_MINUTES: '0' })).toThrow(
      expect.objectContaining({ setting: 'PHOTO_SWEEP_GRACE_MINUTES' }) as ConfigError,
    );
  });

  it('accepts a six-field schedule and refuses a five-field (classic cron) one, naming the setting', () => {
    expect(
      loadConfig({ ...storage, PHOTO_SWEEP_SCHEDULE: '0 0 */6 * * *' }).photos.sweepSchedule,
    ).toBe('0 0 */6 * * *');
    expect(() => loadConfig({ ...storage, PHOTO_SWEEP_SCHEDULE: '30 1 * * *' })).toThrow(
      expect.objectContaining({ setting: 'PHOTO_SWEEP_SCHEDULE' }) as ConfigError,
    );
  });
});
