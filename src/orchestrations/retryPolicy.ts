/**
 * How orchestrators retry activities that throw (transient storage faults that outlasted the
 * SDK's own retries, a host crash mid-activity is replayed by the runtime, not here).
 */
import * as df from 'durable-functions';
import { invalidChunkSize } from './orchestrationErrors';

/** First retry after 1 s, doubling up to 30 s, at most 6 attempts. */
export function activityRetryOptions(): df.RetryOptions {
  const options = new df.RetryOptions(1_000, 6);
  options.backoffCoefficient = 2;
  options.maxRetryIntervalInMilliseconds = 30_000;
  return options;
}

/** Most activities one orchestrator runs at the same time in a fan-out. */
export const MAX_PARALLEL_ACTIVITIES = 10;

/** Splits `items` into consecutive chunks of at most `size` (pure). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw invalidChunkSize();
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
