/**
 * The login-attempt capability's errors, phrased once.
 */
import { ValidationError } from '../domainErrors';

/** 400: an attempt older than the day tables keep. */
export function attemptBeforeRetention(at: Date, retentionDays: number): ValidationError {
  return new ValidationError(
    `body.at: ${at.toISOString()} is older than the ${retentionDays}-day retention of login attempts.`,
    'body.at',
    'InvalidTime',
  );
}

/** 400: an attempt further in the future than clocks plausibly disagree. */
export function attemptInFuture(at: Date): ValidationError {
  return new ValidationError(
    `body.at: ${at.toISOString()} is more than one day in the future.`,
    'body.at',
    'InvalidTime',
  );
}

/** 400: an IP address field of the wrong length. */
export function invalidIp(maxLength: number): ValidationError {
  return new ValidationError(`body.ip: must be 1-${maxLength} characters.`, 'body.ip');
}
