/**
 * The access-log capability's errors, phrased once.
 */
import { ValidationError } from '../domainErrors';

/** 400: a resource name empty or too long. */
export function invalidResource(maxLength: number): ValidationError {
  return new ValidationError(`body.resource: must be 1-${maxLength} characters.`, 'body.resource');
}

/** 400: an action that is not a short identifier. */
export function invalidAction(maxLength: number): ValidationError {
  return new ValidationError(
    `body.action: must be 1-${maxLength} letters, digits, ".", "_" or "-", starting with a letter.`,
    'body.action',
  );
}

/** 400: a query window that does not end after it starts. */
export function emptyWindow(): ValidationError {
  return new ValidationError('query.to: must be later than query.from.', 'query.to');
}

/** 400: a query window longer than the query allows. */
export function windowTooLong(maxDays: number): ValidationError {
  return new ValidationError(`query.to: the window may span at most ${maxDays} days.`, 'query.to');
}
