/**
 * When a SAS is valid. Tokens start a few minutes in the past, because the storage service and
 * the client compare `st` with their own clocks and a client whose clock runs slightly behind
 * would otherwise be refused; they end after the requested lifetime, which has a default and a
 * hard cap (config `SAS_DEFAULT_MINUTES`, `SAS_MAX_MINUTES`).
 */
import { invalidSasLifetime, sasLifetimeTooLong } from './sasErrors';
import { CLOCK_SKEW_MS } from '../storage/blobSas';

/** The validity window of one token, whole seconds (SAS times carry no fractions). */
export interface SasWindow {
  startsOn: Date;
  expiresOn: Date;
}

function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

/**
 * The window of a token issued at `now` for `requestedMinutes` (default when omitted).
 *
 * A lifetime over the cap is refused rather than shortened, so a client never holds a token that
 * dies earlier than it asked for without being told.
 *
 * @throws {ValidationError} `InvalidSasLifetime` for a lifetime that is not a whole number ≥ 1;
 *   `SasLifetimeTooLong` above `maxMinutes`.
 */
export function sasWindow(
  now: Date,
  requestedMinutes: number | undefined,
  limits: { defaultMinutes: number; maxMinutes: number },
): SasWindow {
  const minutes = requestedMinutes ?? limits.defaultMinutes;
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw invalidSasLifetime(minutes);
  }
  if (minutes > limits.maxMinutes) {
    throw sasLifetimeTooLong(minutes, limits.maxMinutes);
  }
  const at = now.getTime();
  return {
    startsOn: wholeSeconds(at - CLOCK_SKEW_MS),
    expiresOn: wholeSeconds(at + minutes * 60_000),
  };
}
