/** The operations status table: one "last run" entity per timer function. */
import { invalidTimerName } from '../keyErrors';

/** PartitionKey of every timer's last-run entity: one partition query reads them all. */
export const TIMER_RUN_PARTITION_KEY = 'timer';

/** A Functions name: a letter, then letters, digits, `_` or `-`, up to 127 characters. */
const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,126}$/;

/**
 * RowKey of a timer's last-run entity: the function's name, as registered with `app.timer`.
 *
 * @throws {ValidationError} for a name that is not a Functions name.
 */
export function timerRunRowKey(timerName: string): string {
  if (!FUNCTION_NAME.test(timerName)) {
    throw invalidTimerName(timerName);
  }
  return timerName;
}

/** Reverses {@link timerRunRowKey}; `undefined` for a RowKey that is not a timer's name. */
export function parseTimerRunRowKey(rowKey: string): string | undefined {
  return FUNCTION_NAME.test(rowKey) ? rowKey : undefined;
}
