/**
 * The time helpers' errors, phrased once.
 */
import { ValidationError } from '../domainErrors';

/** 400: an instant the storage services cannot hold (`field` names where it came from). */
export function unstorableInstant(at: Date, field: string): ValidationError {
  const shown = Number.isNaN(at.getTime()) ? 'an invalid date' : at.toISOString();
  return new ValidationError(
    `${field}: ${shown} cannot be stored; use an instant between 1601-01-01 and 9999-12-31 UTC.`,
    field,
    'InvalidTime',
  );
}
