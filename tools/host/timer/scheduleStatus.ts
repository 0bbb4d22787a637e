/**
 * A timer's persisted schedule status and the host's past-due rule. The Functions host records
 * `Last`, `Next` and `LastUpdated` per timer; when it starts and the recorded `Next` has passed
 * (the app was down at that time), it runs the function at once with `isPastDue: true`. When the
 * schedule changed since the status was written, the status is reset instead.
 */
import type { Schedule } from './schedule';

/** As stored, with the host's .NET property names. */
export interface ScheduleStatus {
  Last: string;
  Next: string;
  LastUpdated: string;
}

/** .NET's `default(DateTime)`, which the host records as `Last` before the first run. */
export const NEVER = '0001-01-01T00:00:00';

/** Whether a timer is past due, and the status to keep. */
export interface PastDueCheck {
  /** The status to keep (new or reset when absent or stale). */
  status: ScheduleStatus;
  /** True when `status` differs from what is stored and must be written. */
  changed: boolean;
  pastDue: boolean;
}

/** Decides whether a timer missed an occurrence while the host was down. */
export function checkPastDue(
  stored: ScheduleStatus | undefined,
  schedule: Schedule,
  now: Date,
): PastDueCheck {
  const fresh = (): ScheduleStatus => ({
    Last: NEVER,
    Next: schedule.next(now).toISOString(),
    LastUpdated: now.toISOString(),
  });
  if (!stored) return { status: fresh(), changed: true, pastDue: false };

  const recordedNext = Date.parse(stored.Next);
  const from = stored.Last === NEVER ? Date.parse(stored.LastUpdated) : Date.parse(stored.Last);
  if (Number.isNaN(recordedNext) || Number.isNaN(from))
    return { status: fresh(), changed: true, pastDue: false };
  const expectedNext = schedule.next(new Date(from)).getTime();
  if (expectedNext !== recordedNext) return { status: fresh(), changed: true, pastDue: false };
  return { status: stored, changed: false, pastDue: now.getTime() > recordedNext };
}

/** The status after a run at `occurrence`, finishing at `now`. */
export function statusAfterRun(schedule: Schedule, occurrence: Date, now: Date): ScheduleStatus {
  const next = schedule.next(occurrence.getTime() > now.getTime() ? occurrence : now);
  return {
    Last: occurrence.toISOString(),
    Next: next.toISOString(),
    LastUpdated: now.toISOString(),
  };
}
