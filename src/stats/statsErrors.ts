/**
 * The message statistics' errors, phrased once.
 */
import { ThrottledError, ValidationError } from '../domainErrors';

/** 400: a message count that is not a whole number from 1 to `max`. */
export function invalidMessageCount(max: number): ValidationError {
  return new ValidationError(`body.count: must be a whole number from 1 to ${max}.`, 'body.count');
}

/**
 * 503 (retry after 60 s): the employee's counters took as many increments as they
 * remember (`remembered`) within `windowMinutes`.
 */
export function tooManyIncrements(
  department: string,
  employeeId: string,
  remembered: number,
  windowMinutes: number,
): ThrottledError {
  return new ThrottledError(
    `The message counters of ${department}/${employeeId} took ${remembered} increments in the last ${windowMinutes} minutes; try again shortly.`,
    60,
  );
}
