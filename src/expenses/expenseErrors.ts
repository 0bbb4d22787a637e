/**
 * The expense-claim capability's errors, phrased once.
 */
import { ValidationError } from '../domainErrors';

/** 400: an amount that is not positive, has more than two decimals, or is too large. */
export function invalidAmount(max: number): ValidationError {
  return new ValidationError(
    `body.amount: must be a positive number with at most two decimals, up to ${max}.`,
    'body.amount',
  );
}

/** 400: a currency that is not an ISO 4217 code. */
export function invalidCurrency(): ValidationError {
  return new ValidationError(
    'body.currency: must be an ISO 4217 code of three upper-case letters, e.g. EUR.',
    'body.currency',
  );
}

/** 400: a description empty or too long. */
export function invalidDescription(maxLength: number): ValidationError {
  return new ValidationError(
    `body.description: must be 1-${maxLength} characters.`,
    'body.description',
  );
}
