/**
 * The daily clean-up of the high-volume delete pattern: drop whole day tables once every attempt
 * in them is older than the retention, and create tomorrow's table ahead of its first write.
 */
import { systemClock, type Clock } from '../time/clock';
import { addUtcDays, startOfUtcDay } from '../time/instants';
import type { LoginDayTables } from './loginDayTables';
import { mapBounded } from '../storage/parallel';

/** Tables dropped at the same time. */
const DROP_CONCURRENCY = 8;

/** What one clean-up run did. */
export interface RetentionReport {
  /** Tables this run dropped, oldest first. */
  dropped: string[];
  /**
   * Expired tables that were already gone when this run tried (another run, or a retried request).
   */
  alreadyGone: string[];
  /** Day tables kept. */
  kept: string[];
  /** Tomorrow's table, created (or found) ahead of time. */
  preCreated: string;
}

/**
 * True when every attempt a day table can hold is older than `retentionDays`: the day ended at
 * least `retentionDays` days before `now`. (An attempt at `now - retentionDays` is still kept.)
 */
export function isExpiredDay(day: Date, retentionDays: number, now: Date): boolean {
  return addUtcDays(startOfUtcDay(day), retentionDays + 1).getTime() <= now.getTime();
}

/**
 * Drops every expired day table, one delete-table request each (never entity by entity), and
 * pre-creates tomorrow's table. Touches no table outside the exact `<prefix>YYYYMMDD` pattern.
 * Idempotent: a second run finds nothing to drop.
 *
 * @throws {DomainError} for storage faults that outlast the SDK's retries (tables dropped before
 *   the fault stay dropped; the next run continues).
 */
export async function dropExpiredLoginTables(
  tables: LoginDayTables,
  retentionDays: number,
  clock: Clock = systemClock,
): Promise<RetentionReport> {
  const now = clock();
  const existing = await tables.list();
  const expired = existing.filter((table) => isExpiredDay(table.day, retentionDays, now));
  const outcomes = await mapBounded(expired, DROP_CONCURRENCY, (table) => tables.drop(table.name));
  const tomorrow = addUtcDays(startOfUtcDay(now), 1);
  await tables.ensure(tomorrow);
  return {
    dropped: expired.filter((_, i) => outcomes[i] === 'dropped').map((t) => t.name),
    alreadyGone: expired.filter((_, i) => outcomes[i] === 'alreadyGone').map((t) => t.name),
    kept: existing
      .filter((table) => !isExpiredDay(table.day, retentionDays, now))
      .map((t) => t.name),
    preCreated: tables.nameOf(tomorrow),
  };
}
