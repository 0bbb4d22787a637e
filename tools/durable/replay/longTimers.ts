/**
 * Timers longer than the storage provider's longest delay wait in legs, as in Azure: the
 * extension hands `durable-functions` `maximumShortTimerDuration` = the Azure Storage provider's
 * `MaximumDelayTime` (6 days) and `longRunningTimerIntervalDuration` = its
 * `LongRunningTimerIntervalLength` (3 days) (azure-functions-durable-extension,
 * AzureStorageDurabilityProvider.cs); a longer timer is a first leg of 3 days, then a leg after
 * each firing while the final time is still ahead — the last one ending at the final time
 * (DurableOrchestrationContext.cs `CreateTimer`, durable-functions LongTimerTask). Each leg takes
 * a sequence number, numbered as the library numbers them. Pure.
 */
import { EventType, type HistoryEventJson } from './historyEvents';

/** A timer longer than the longest single timer, waited for in legs. */
export interface LongTimer {
  firstId: number;
  finalFireAt: string;
  /** EventId of the latest leg; the timer is done once that leg has fired. */
  lastLegId: number;
}

/** What of the ledger (replay/ledger.ts) the legs need. */
interface LegLedger {
  tasks: ReadonlyMap<number, { chain?: number }>;
  longTimers: ReadonlyMap<number, LongTimer>;
}

/** `MaximumDelayTime` of the Azure Storage provider, as the TimeSpan text the library reads. */
export const MAXIMUM_SHORT_TIMER_DURATION = '6.00:00:00';
/** `LongRunningTimerIntervalLength` of the Azure Storage provider. */
export const LONG_RUNNING_TIMER_INTERVAL_DURATION = '3.00:00:00';

const DAY_MS = 24 * 3600 * 1000;
const MAXIMUM_SHORT_TIMER_MS = 6 * DAY_MS;
const LEG_MS = 3 * DAY_MS;

/** When the leg starting at `now` of a timer due at `finalFireAt` fires. */
export function legFireAt(now: Date, finalFireAt: string): string {
  const remaining = Date.parse(finalFireAt) - now.getTime();
  return remaining > MAXIMUM_SHORT_TIMER_MS
    ? new Date(now.getTime() + LEG_MS).toISOString()
    : finalFireAt;
}

/** The TimerCreated fields of a timer action yielded at `now` (a first leg when it is long). */
export function timerFields(now: Date, fireAt: string): { FireAt: string; finalFireAt?: string } {
  const first = legFireAt(now, fireAt);
  return first === fireAt ? { FireAt: fireAt } : { FireAt: first, finalFireAt: fireAt };
}

/**
 * The long timer whose latest leg `event` fires, when another leg must follow (the final time is
 * still ahead at `now`, the episode's time).
 */
export function nextLegOf(
  ledger: LegLedger,
  event: HistoryEventJson,
  now: Date,
): LongTimer | undefined {
  if (event.EventType !== EventType.TimerFired || event.TimerId === undefined) return undefined;
  const task = ledger.tasks.get(event.TimerId);
  const timer = task?.chain === undefined ? undefined : ledger.longTimers.get(task.chain);
  if (!timer || timer.lastLegId !== event.TimerId) return undefined;
  return Date.parse(timer.finalFireAt) > now.getTime() ? timer : undefined;
}

/** The next leg's TimerCreated (without its EventId). */
export function nextLeg(timer: LongTimer, now: Date): Omit<HistoryEventJson, 'EventId'> {
  return {
    EventType: EventType.TimerCreated,
    Timestamp: now.toISOString(),
    FireAt: legFireAt(now, timer.finalFireAt),
    Local: { origin: 'leg', chain: timer.firstId },
  };
}
