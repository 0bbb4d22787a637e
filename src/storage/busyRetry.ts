/**
 * Storage that refuses for load (Azure's scalability targets: 503 `ServerBusy`, 500
 * `OperationTimedOut`) past the SDK's own retries, waited out by work that has no caller to hand
 * the 503 to — a relocation's steps, a timer: the call runs again after an exponentially growing,
 * jittered wait, through the one retry routine (optimisticRetry.ts), as Microsoft's guidance asks.
 * Only load is retried here: a relocation's freeze or a lost race keeps its own meaning.
 */
import { DomainError, type ThrottledError } from '../domainErrors';
import { RETRY, retryOptimistically, type RetryTiming } from './optimisticRetry';
import { storageCode, storageStatus, throttleWaitSeconds, toDomainError } from './storageFaults';

/** Status codes storage answers when a target is met (429 from gateways in front of it). */
const BUSY_STATUSES = new Set([429, 500, 503]);
const BUSY_CODES = new Set(['ServerBusy', 'OperationTimedOut']);

/**
 * Seconds to wait when `error` is storage refusing for load — the SDK's error, or the domain
 * error it became ({@link toDomainError}) — else `undefined` (a freeze's `Relocating`, a
 * contention give-up and every other failure are not load).
 */
export function storageBusySeconds(error: unknown): number | undefined {
  const raw = error instanceof DomainError ? error.cause : error;
  if (raw === undefined || raw instanceof DomainError) return undefined;
  const status = storageStatus(raw);
  const code = storageCode(raw);
  const busy =
    (status !== undefined && BUSY_STATUSES.has(status)) ||
    (code !== undefined && BUSY_CODES.has(code));
  return busy ? throttleWaitSeconds(raw) : undefined;
}

/** How long {@link whileBusy} waits out a busy account. */
export interface BusyRetryOptions {
  /** Tries before giving up (default 8: about 15 s of waits on average, 30 s at most). */
  maxAttempts?: number;
  /** The first wait's ceiling, in ms (default 500; it doubles from there). */
  baseMs?: number;
  /** Longest wait, in ms (default 8,000). */
  capMs?: number;
  /** Clock and jitter (tests). */
  timing?: RetryTiming;
}

/**
 * Runs `call`, and again after a back-off while storage refuses it for load
 * ({@link storageBusySeconds}); the call must be safe to repeat (a read, an upsert, a copy).
 *
 * @throws {ThrottledError} the last refusal, as a domain error, once the tries are spent.
 * @throws whatever else `call` throws, at once.
 */
export async function whileBusy<T>(
  call: () => Promise<T>,
  options: BusyRetryOptions = {},
): Promise<T> {
  let last: unknown;
  return retryOptimistically<T>(
    {
      maxAttempts: options.maxAttempts ?? 8,
      baseMs: options.baseMs ?? 500,
      capMs: options.capMs ?? 8_000,
      waitFirst: true,
      ...(options.timing ? { timing: options.timing } : {}),
      giveUp: () => toDomainError(last) as ThrottledError,
    },
    async () => {
      try {
        return await call();
      } catch (error) {
        if (storageBusySeconds(error) === undefined) throw error;
        last = error;
        return RETRY;
      }
    },
  );
}
