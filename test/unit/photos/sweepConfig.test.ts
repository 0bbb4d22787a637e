import { ConfigError, loadConfig } from '../../../src/config';

const storage = { AzureWebJobsStorage: 'UseDevelopmentStorage=true' };

describe('photo sweep schedule', () => {
  it('defaults to daily at 01:30 UTC (six-field NCRONTAB)', () => {
    expect(loadConfig(storage).photos).toEqual({ sweepSchedule: '0 30 1 * * *' });
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
