/**
 * Timer trigger schedules as the Functions host reads them (NCrontab, through the timer
 * extension's `CronSchedule.TryCreate`): six fields `{second} {minute} {hour} {day} {month}
 * {day-of-week}`, or five without the seconds (then at second 0), evaluated in UTC; or a TimeSpan
 * interval (`hh:mm:ss`). `cron-parser` parses the fields; NCrontab's rules are applied on top:
 * a day must match the day field AND the day-of-week field (cron-parser, like Vixie cron, takes
 * either when both are restricted), and the day of week is 0-6 (Sunday 0; 7 is refused). Cron
 * extensions NCrontab lacks (`L`, `W`, `#`, `?`, `@daily`) are refused, as Azure refuses them.
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

/** NCrontab's day-of-week range is 0-6: a 7 (Sunday to cron-parser) is refused. */
function refuseWeekdaySeven(text: string, field: string): void {
  const bounds = field.split(',').flatMap((item) => item.split('/')[0]!.split('-'));
  if (bounds.some((bound) => /^\d+$/.test(bound) && Number(bound) > 6)) {
    throw new ScheduleError(text, `day of week '${field}' is outside NCRONTAB's range 0-6.`);
  }
}

/** The start of the next UTC day after `date`, less a millisecond (cron-parser looks after it). */
function endOfUtcDay(date: Date): Date {
  const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
  return new Date(next - 1);
}

function parseCron(text: string, fields: string[]): Schedule {
  for (const field of fields) {
    if (!/^[\dA-Za-z*,/-]+$/.test(field) || NON_NCRONTAB.test(field)) {
      throw new ScheduleError(text, `field '${field}' uses syntax NCRONTAB does not support.`);
    }
  }
  refuseWeekdaySeven(text, fields[5]!);
  const expression = fields.join(' ');
  let days: { dayOfMonth: Set<number | string>; dayOfWeek: Set<number | string> };
  try {
    const parsed = CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    days = {
      dayOfMonth: new Set(parsed.fields.dayOfMonth.values),
      dayOfWeek: new Set(parsed.fields.dayOfWeek.values),
    };
  } catch (error) {
    throw new ScheduleError(text, (error as Error).message);
  }
  const dayMatches = (date: Date): boolean =>
    days.dayOfMonth.has(date.getUTCDate()) && days.dayOfWeek.has(date.getUTCDay());
  return {
    text,
    next: (after) => {
      let from = after;
      // cron-parser's occurrences include every day NCrontab's do: skip the days that match only
      // one of the two day fields, a day at a time (a rare pair such as 29 Feb on a Monday
      // takes at most a few thousand steps).
      for (;;) {
        const candidate = CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: from })
          .next()
          .toDate();
        if (dayMatches(candidate)) return candidate;
        if (candidate.getUTCFullYear() > after.getUTCFullYear() + 400) {
          throw new ScheduleError(text, 'no day matches both its day and its day of week.');
        }
        from = endOfUtcDay(candidate);
      }
    },
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
  if (fields.length === 5) return parseCron(text, ['0', ...fields]);
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
    `NCRONTAB needs six fields ({second} {minute} {hour} {day} {month} {day-of-week}) or five (without seconds), got ${fields.length}.`,
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
