/**
 * The message statistics' errors, phrased once.
 */
import { ThrottledError, ValidationError, type ContentionError } from '../domainErrors';
import { contended } from '../storage/storageErrors';

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

/** An hour outside 0-23 (a bug in the caller). */
export function hourOutOfRange(hour: number): Error {
  return new Error(`Hour ${hour} is outside 0-23.`);
}

/** A day of the year outside 1-366 (a bug in the caller). */
export function dayOfYearOutOfRange(dayOfYear: number): Error {
  return new Error(`Day of year ${dayOfYear} is outside 1-366.`);
}

/** An increment marker id that is not 16 lowercase hex digits (a bug in the caller). */
export function notAnIncrementId(id: string): Error {
  return new Error(`"${id}" is not an operation id.`);
}

/** 503 (retry after 1 s): every read-modify-write round of an increment lost its race. */
export function countersContended(counters: string, attempts: number): ContentionError {
  return contended(
    `The message counters of ${counters} are contended: every attempt lost the race.`,
    attempts,
    1,
  );
}
