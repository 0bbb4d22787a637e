/**
 * The move orchestration's refusals and give-ups, phrased once.
 */
import { ThrottledError, ValidationError } from '../../errors';
import type { MoveInput } from './moveRequest';

/** 400: the employee is already in the target department. */
export function sameDepartment(move: MoveInput): ValidationError {
  return new ValidationError(
    `Employee ${move.employeeId} is already in department "${move.department}".`,
    'body.toDepartment',
    'SameDepartment',
  );
}

/** 503 (retry after 1 s): the target copy changed while it was refreshed. */
export function targetChanged(move: MoveInput): ThrottledError {
  return new ThrottledError(
    `The copy of employee ${move.employeeId} in "${move.toDepartment}" changed while it was refreshed.`,
    1,
  );
}
