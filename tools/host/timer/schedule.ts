/**
 * Timer trigger schedules: six-field NCRONTAB expressions (`{second} {minute} {hour} {day}
 * {month} {day-of-week}`, evaluated in UTC) parsed by `cron-parser`, or a TimeSpan interval
 * (`hh:mm:ss`) as the Functions host also accepts. Cron extensions NCRONTAB lacks (`L`, `W`,
 * `#`, `?`, `@daily`, five-field forms) are refused, as Azure refuses them.
 */
import { CronExpressionParser } from 'cron-parser';
import { parseTimeSpan } from '../config/timeSpan';

/** A timer schedule (cron or interval): its next occurrence after an instant. */
export interface Schedule {
  /** As written (after `%SETTING%` resolution). */
  readonly text: string;
  /** The first occurrence strictly after `after`. */
  next(after: Date): Date;
}

/** The schedule is neither NCRONTAB nor a TimeSpan. */
export class ScheduleError extends Error {
  constructor(expression: string, reason: string) {
    super(
      `The schedule expression '${expression}' was not recognized as a valid cron expression or timespan string: ${reason}`,
    );
    this.name = 'ScheduleError';
  }
}

const NON_NCRONTAB = /[?#]|(^|[\d,/-])[LWH](?=$|[\d,/-])|\d[LW]/i;

function parseCron(text: string, fields: string[]): Schedule {
  for (const field of fields) {
    if (!/^[\dA-Za-z*,/-]+$/.test(field) || NON_NCRONTAB.test(field)) {
      throw new ScheduleError(text, `field '${field}' uses syntax NCRONTAB does not support.`);
    }
  }
  const expression = fields.join(' ');
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
  } catch (error) {
    throw new ScheduleError(text, (error as Error).message);
  }
  return {
    text,
    next: (after) =>
      CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: after }).next().toDate(),
  };
}

/**
 * Parses a timer schedule.
 *
 * @throws {ScheduleError} naming the expression and the reason.
 */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  if (trimmed === '') throw new ScheduleError(text, 'it is empty.');
  const fields = trimmed.split(/\s+/);
  if (fields.length === 6) return parseCron(text, fields);
  if (fields.length === 1 && /^[\d.:]+$/.test(trimmed)) {
    let intervalMs: number;
    try {
      intervalMs = parseTimeSpan(trimmed, 'schedule');
    } catch (error) {
      throw new ScheduleError(text, (error as Error).message);
    }
    if (intervalMs <= 0) throw new ScheduleError(text, 'the interval must be positive.');
    return { text, next: (after) => new Date(after.getTime() + intervalMs) };
  }
  throw new ScheduleError(
    text,
    `NCRONTAB needs six fields ({second} {minute} {hour} {day} {month} {day-of-week}), got ${fields.length}.`,
  );
}

/**
 * The host monitors a schedule (persists its status, detects missed runs) only when its
 * occurrences are at least a minute apart.
 */
export function isMonitorable(schedule: Schedule, now: Date): boolean {
  const first = schedule.next(now);
  const second = schedule.next(first);
  return second.getTime() - first.getTime() >= 60_000;
}
