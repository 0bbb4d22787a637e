/**
 * When a SAS is valid. Tokens end after the requested lifetime, which has a default and a hard cap
 * (config `SAS_DEFAULT_MINUTES`, `SAS_MAX_MINUTES`), and start a few minutes in the past, because
 * the storage service compares `st` with its own clock, which may run behind this one. Storage
 * measures a token's validity as `se` − `st` (the account's SAS expiration policy, set to the cap,
 * does too), so the backdating is counted inside the cap: never past it.
 */
import { invalidSasLifetime, sasLifetimeTooLong } from './sasErrors';
import { backdatedStart } from '../storage/blobSas';

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
 * dies earlier than it asked for without being told. The start is 5 minutes back, less when the
 * lifetime is within 5 minutes of the cap (`se` − `st` ≤ the cap; the longest starts now).
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
  const expiresOn = wholeSeconds(at + minutes * 60_000);
  return {
    startsOn: backdatedStart(
      wholeSeconds(at).getTime(),
      expiresOn.getTime(),
      limits.maxMinutes * 60_000,
    ),
    expiresOn,
  };
}
