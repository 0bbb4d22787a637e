/**
 * Timer schedules: NCRONTAB as Azure reads it (six or five fields, day AND day of week, 0-6) or a TimeSpan, evaluated in UTC; the
 * past-due rule; which schedules are monitored.
 */
import { isMonitorable, parseSchedule } from '../../../../../tools/host/timer/schedule';
import {
  checkPastDue,
  NEVER,
  statusAfterRun,
} from '../../../../../tools/host/timer/scheduleStatus';

const at = (iso: string): Date => new Date(iso);

describe('schedules', () => {
  test.each([
    ['0 */5 * * * *', '2024-01-01T00:03:10Z', '2024-01-01T00:05:00.000Z'],
    ['0 0 1 * * *', '2024-01-01T01:00:00Z', '2024-01-02T01:00:00.000Z'],
    ['0 30 9 * * 1-5', '2024-01-05T10:00:00Z', '2024-01-08T09:30:00.000Z'],
    ['0 0 0 1 Jan *', '2024-06-01T00:00:00Z', '2025-01-01T00:00:00.000Z'],
    ['*/15 * * * * *', '2024-01-01T00:00:14.999Z', '2024-01-01T00:00:15.000Z'],
    ['00:10:00', '2024-01-01T00:00:00Z', '2024-01-01T00:10:00.000Z'],
    // Five fields: no seconds, as the timer extension's CronSchedule reads them (second 0).
    ['*/5 * * * *', '2024-01-01T00:03:10Z', '2024-01-01T00:05:00.000Z'],
    // NCrontab ANDs the day and the day of week (Friday the 13th), where Vixie cron ORs them.
    ['0 0 0 13 * 5', '2026-01-01T00:00:00Z', '2026-02-13T00:00:00.000Z'],
    ['0 0 0 13 * 5', '2026-02-13T00:00:00Z', '2026-03-13T00:00:00.000Z'],
    ['0 0 12 29 2 1', '2024-01-01T00:00:00Z', '2044-02-29T12:00:00.000Z'],
    ['0 0 0 * * 0', '2026-12-07T00:00:00Z', '2026-12-13T00:00:00.000Z'],
  ])('%s after %s is %s (UTC)', (expression, after, next) => {
    expect(parseSchedule(expression).next(at(after)).toISOString()).toBe(next);
  });

  test.each([
    ['0 */5 * *', /six fields/],
    ['@daily', /six fields/],
    ['0 0 0 * * 7', /outside NCRONTAB's range 0-6/],
    ['0 0 0 * * 5-7', /outside NCRONTAB's range 0-6/],
    ['0 0 0 * * * 2024', /six fields/],
    ['0 0 25 * * *', /expected range 0-23/],
    ['0 0 0 L * *', /syntax NCRONTAB does not support/],
    ['0 0 0 ? * *', /syntax NCRONTAB does not support/],
    ['0 0 0 * * 1#2', /syntax NCRONTAB does not support/],
    ['0 0 0 15W * *', /syntax NCRONTAB does not support/],
    ['', /empty/],
    ['00:00:00', /interval must be positive/],
  ])('refuses %j', (expression, reason) => {
    expect(() => parseSchedule(expression)).toThrow(reason);
    expect(() => parseSchedule(expression)).toThrow(
      /was not recognized as a valid cron expression or timespan/,
    );
  });

  test('day and month names are accepted', () => {
    expect(parseSchedule('0 0 12 * * SUN,SAT').next(at('2024-01-01T00:00:00Z')).toISOString()).toBe(
      '2024-01-06T12:00:00.000Z',
    );
  });

  test('only schedules at least a minute apart are monitored', () => {
    const now = at('2024-01-01T00:00:00Z');
    expect(isMonitorable(parseSchedule('0 * * * * *'), now)).toBe(true);
    expect(isMonitorable(parseSchedule('*/30 * * * * *'), now)).toBe(false);
  });
});

describe('past-due rule', () => {
  const hourly = parseSchedule('0 0 * * * *');

  test('without a status, a fresh one is written and nothing is past due', () => {
    const check = checkPastDue(undefined, hourly, at('2024-01-01T10:20:00Z'));
    expect(check).toEqual({
      status: {
        Last: NEVER,
        Next: '2024-01-01T11:00:00.000Z',
        LastUpdated: '2024-01-01T10:20:00.000Z',
      },
      changed: true,
      pastDue: false,
    });
  });

  test('a recorded next occurrence that has passed is past due', () => {
    const stored = {
      Last: '2024-01-01T09:00:00.000Z',
      Next: '2024-01-01T10:00:00.000Z',
      LastUpdated: '2024-01-01T09:00:01.000Z',
    };
    expect(checkPastDue(stored, hourly, at('2024-01-01T12:30:00Z'))).toEqual({
      status: stored,
      changed: false,
      pastDue: true,
    });
    expect(checkPastDue(stored, hourly, at('2024-01-01T09:30:00Z')).pastDue).toBe(false);
  });

  test('a status written for another schedule is reset, not past due', () => {
    const stored = {
      Last: '2024-01-01T09:00:00.000Z',
      Next: '2024-01-02T09:00:00.000Z',
      LastUpdated: '2024-01-01T09:00:01.000Z',
    };
    const check = checkPastDue(stored, hourly, at('2024-01-03T00:30:00Z'));
    expect(check).toMatchObject({
      changed: true,
      pastDue: false,
      status: { Next: '2024-01-03T01:00:00.000Z' },
    });
  });

  test('a status never run since written counts from LastUpdated', () => {
    const stored = {
      Last: NEVER,
      Next: '2024-01-01T11:00:00.000Z',
      LastUpdated: '2024-01-01T10:20:00.000Z',
    };
    expect(checkPastDue(stored, hourly, at('2024-01-01T11:00:01Z')).pastDue).toBe(true);
  });

  test('after a run, Last is the occurrence and Next the following one', () => {
    expect(statusAfterRun(hourly, at('2024-01-01T10:00:00Z'), at('2024-01-01T10:00:03Z'))).toEqual({
      Last: '2024-01-01T10:00:00.000Z',
      Next: '2024-01-01T11:00:00.000Z',
      LastUpdated: '2024-01-01T10:00:03.000Z',
    });
  });
});
